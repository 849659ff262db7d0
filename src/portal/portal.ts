// createPortal(program, options): the affiliate portal as a Fetch handler mounted under a path
// (default /portal). Signed-out requests see only the sign-in pages; every POST carries a CSRF
// token; an affiliate only ever reads its own records. See docs/portal.md.
import { AffiliateError, NotFoundError, ValidationError } from '../core/model/errors.js'
import { systemClock, type Clock } from '../core/model/clock.js'
import type { AffiliateView } from '../core/rules/views.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import { memoryKeyedState } from '../adapters/memory/keyed-state.js'
import { clientAddress, type ClientInfo } from '../web/client-address.js'
import { cookieHeader, readCookie, type CookieScope } from '../web/cookies.js'
import { ENHANCEMENT_SCRIPT } from '../web/enhancement-script.js'
import { FormError, readForm } from '../web/forms.js'
import { html, type Html } from '../web/html.js'
import { frame } from '../web/layout.js'
import { matchPage, tableMethods, tableNav } from '../web/page-table.js'
import { mountedPages, normalizeBasePath, type PageCall, type PagesHandler } from '../web/mounted-pages.js'
import { csrfProtection } from '../server/csrf-protection.js'
import { chain, type Exchange } from '../server/pipeline.js'
import { sessionAuthentication } from '../server/session-authentication.js'
import type { Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import { assetResponse, pageResponse, redirectResponse, securityHeaders, staticAsset } from '../web/responses.js'
import { preSessionCsrf } from '../web/pre-session.js'
import { csrfTokenFor, csrfTokenMatches, isSecretShaped } from '../web/secrets.js'
import type { SessionStore, WithSessionStore } from '../core/ports/session-store.js'
import { webSessions, type SessionPolicy, type WebSessions } from '../web/sessions.js'
import { resumeSignedIn } from '../web/session-resume.js'
import { overClientLimit, subjectLimit, type LimitOption, type SubjectLimit } from '../web/sign-in-limits.js'
import { STYLESHEET } from '../web/stylesheet.js'
import { resolveTheme, type Theme } from '../web/theme.js'
import type { PageResult, SignedInRequest, StripeOnboarding } from './page.js'
import { FORM_EXPIRED, LINK_INVALID, LINK_SENT, SESSION_ENDED, SIGNED_OUT, signInPage, TOO_MANY_ATTEMPTS } from './pages/sign-in.js'
import type { PortalPaths } from './paths.js'
import { unsubscribePage } from './unsubscribe.js'
import { chooseLocale, isLocale, LOCALES, type Locale } from '../core/model/i18n/locales.js'
import { translator } from '../core/model/i18n/translate.js'
import { PORTAL_PAGES, PORTAL_PUBLIC_PAGES, portalPaths } from './routes.js'
import type { PublicRequest } from './apply.js'
import { resolveApplication, type ApplicationOptions, type ApplicationSubmission, type ResolvedApplication } from './application-options.js'
import { formClock, type FormClock } from '../web/form-clock.js'
import type { PortalProgram } from './program.js'
import { embedPages, type EmbedPages } from './embed/embed-page.js'

export interface SignInRequest {
  affiliateId: number
  /** The affiliate's email, as stored. */
  email: string
  /** The one-time sign-in link to send to it. */
  link: string
  expiresAt: Date
  /** The language of the page the link was asked from (Accept-Language, else the portal's locale). */
  locale: Locale
}

export interface PortalOptions {
  /** Where sessions and sign-in tokens live: the storage object (each adapter carries one) or its `sessions`. */
  sessions: SessionStore | WithSessionStore
  /** Path the portal is served under. @default '/portal' */
  basePath?: string
  /**
   * Origin of the site the portal is reached at (https://app.example.com): every sign-in link
   * handed out starts with it, never with the Host a request names. Required with
   * onSignInRequested. @default none: createSignInLink returns a path
   */
  publicUrl?: string
  /** Colours, font, logo and title. */
  theme?: Theme
  /** Session and sign-in link lifetimes. */
  session?: SessionPolicy
  /** Whether cookies carry Secure. @default true when the request URL (or publicUrl) is https */
  secureCookies?: boolean
  /** The link affiliates share. @default `<publicUrl>/?ref=<code>`; without publicUrl, none (the code alone is shown) */
  referralLink?: (referralCode: string, affiliate: AffiliateView) => string
  /**
   * Turns on the "email me a link" form: called with a fresh link (on publicUrl) for a known,
   * unblocked affiliate (the page answers the same for unknown addresses). @default off
   */
  onSignInRequested?: (request: SignInRequest) => void | Promise<void>
  /**
   * Turns on the "email me a link" form with no host code: the request is recorded as the
   * portal.sign_in_requested event, which a mail dispatcher (affiliate-kit/email) sends as the
   * sign-in mail (docs/email.md). Needs publicUrl. @default false
   */
  emailSignIn?: boolean
  /** The language of affiliates who chose none and whose browser asks for none we have (a code of the languages in docs/email.md). @default 'en' */
  locale?: string
  /**
   * The mail dispatcher's `secret`: turns on the one-click unsubscribe page (`/unsubscribe`,
   * RFC 8058) the mails link to. @default none (no unsubscribe page)
   */
  mailSecret?: string
  /**
   * How often a stranger can make the sign-in and application pages act (docs/limits.md "Sign-in",
   * docs/onboarding.md "Bots"); `false` turns one off. Links emailed to one address beyond its limit
   * are silently not sent, applications from one email beyond its limit silently dropped (the page
   * answers the same); a client over its limit gets 429.
   * @default emailPerAddress 3 and emailPerClient 10 per 15 minutes, signInPerClient 20 per 5 minutes, applyPerClient 5 per hour, applyPerEmail 3 per day, embedPerClient 120 per 5 minutes
   */
  limits?: { emailPerAddress?: LimitOption; emailPerClient?: LimitOption; signInPerClient?: LimitOption; applyPerClient?: LimitOption; applyPerEmail?: LimitOption; embedPerClient?: LimitOption }
  /**
   * Turns on the embedded dashboard `<basePath>/embed` (docs/embed.md): the pages an embed token
   * opens, which only these origins (https://app.example.com) may frame.
   * @default off
   */
  embed?: { allowedOrigins: string[] }
  /**
   * The application page `<basePath>/apply` (docs/onboarding.md): its mode, the program's own
   * fields, its terms, the time-to-submit floor. Sub-program pages follow `subPrograms.<slug>.signup`.
   * @default signup 'review', no extra fields, no terms, 3 seconds
   */
  application?: ApplicationOptions
  /** Checks an application before it is accepted (a captcha's token is in `form`); false refuses it. @default none */
  verifyApplication?: (submission: ApplicationSubmission) => boolean | Promise<boolean>
  /** Where the limits count. @default the `keyedState` of the storage object given as `sessions`, else this portal's memory */
  state?: KeyedStateStore
  /**
   * Count clients by the last X-Forwarded-For entry, the one your reverse proxy appends. Without
   * it the connected address counts (node:http, or `portal(request, { clientAddress })`).
   * @default false
   */
  trustProxy?: boolean
  /**
   * Turns on "Get paid through Stripe" on the Payouts page when the program pays through Stripe
   * Connect (payouts.automatic.stripe): the affiliate's button makes a Connect onboarding link
   * with this (`stripeConnect(program, { secretKey })` from src/payouts/stripe/connect.ts).
   * @default off
   */
  stripeConnect?: StripeOnboarding
  /** @default the program's clock */
  clock?: Clock
  /** Unexpected errors (the page shows a generic message). @default console.error */
  onError?: (error: unknown) => void
  /** Gets one line per request (method, route pattern, status, duration in ms, request id; 5xx as errors); never an id, email or token. @default none */
  logger?: Logger
  /** Counts the requests and their latency by route pattern (createMetrics). @default none */
  metrics?: Metrics
}

/** A fetch handler (callable itself and as `fetch`, with `node` for node:http and Express) and the sign-in helpers. */
export interface Portal extends PagesHandler {
  /** A one-time sign-in link for the affiliate with this email (throws NotFoundError when there is none). */
  createSignInLink(email: string): Promise<{ url: string; expiresAt: Date }>
  /** Ends every portal session of the affiliate with this email; resolves with how many ended. */
  signOutEverywhere(email: string): Promise<number>
  /** The project whose affiliates it signs in. */
  readonly projectId: string
  /** `publicUrl` without a trailing slash; null when none is set (createSignInLink then returns a path). */
  readonly publicUrl: string | null
  /** The absolute URL of the embedded dashboard `token` opens; null without option embed or publicUrl (docs/embed.md). */
  embedUrl(token: string): string | null
}

const SESSION_COOKIE = 'ak_portal'
const preSession = preSessionCsrf('ak_portal_pre')

/** What the portal's functions share: the options resolved once, at creation. */
export interface PortalSetup {
  program: PortalProgram
  options: PortalOptions
  clock: Clock
  sessions: WebSessions
  base: string
  /** `publicUrl` without a trailing slash. */
  publicUrl: string | undefined
  theme: ReturnType<typeof resolveTheme>
  stylesheet: ReturnType<typeof staticAsset>
  script: ReturnType<typeof staticAsset>
  paths: PortalPaths
  security: Record<string, string>
  emailForm: boolean
  limits: {
    emailsPerAddress: SubjectLimit | null
    emailRequestsPerClient: SubjectLimit | null
    signInsPerClient: SubjectLimit | null
    applyPerClient: SubjectLimit | null
    applyPerEmail: SubjectLimit | null
    /** Embedded dashboard pages a client may load (docs/embed.md). */
    embedPerClient: SubjectLimit | null
  }
  application: ResolvedApplication
  /** Signs the time the application form was drawn. */
  formClock: FormClock
  onError(error: unknown): void
  cookieScope(url: URL): CookieScope
}

interface SignedInContext {
  affiliate: AffiliateView
  csrf: string
  current: string
}

/** Checks and resolves the options: sessions, public URL, mount path, theme, assets, limits. */
export function portalSetup(program: PortalProgram, options: PortalOptions): PortalSetup {
  const store = 'sessions' in options.sessions ? options.sessions.sessions : options.sessions
  const clock = options.clock ?? program.clock ?? systemClock
  const base = normalizeBasePath(options.basePath, '/portal')
  const publicUrl = options.publicUrl?.replace(/\/+$/, '')
  if (publicUrl !== undefined && !(URL.canParse(publicUrl) && /^https?:$/.test(new URL(publicUrl).protocol))) {
    throw new TypeError('publicUrl must be an http(s) origin such as https://app.example.com')
  }
  // A link emailed to an affiliate must not take its origin from the request: a stranger asking
  // for Ann's link with Host: evil.example would have Ann sent a link that hands them her token.
  if ((options.onSignInRequested !== undefined || options.emailSignIn) && publicUrl === undefined) {
    throw new TypeError('publicUrl is required with onSignInRequested and emailSignIn: emailed sign-in links must point at your site, never at the host a request names')
  }
  if (options.locale !== undefined && !isLocale(options.locale)) throw new TypeError(`locale must be one of ${LOCALES.join(', ')}`)
  const theme = resolveTheme(options.theme)
  const stylesheet = staticAsset(theme.variables + STYLESHEET, 'text/css; charset=utf-8')
  const script = staticAsset(ENHANCEMENT_SCRIPT, 'text/javascript; charset=utf-8')
  const state = options.state ?? ('keyedState' in options.sessions ? (options.sessions as { keyedState: KeyedStateStore }).keyedState : memoryKeyedState())
  const limitOf = (name: keyof NonNullable<PortalOptions['limits']>, limit: number, windowSeconds: number) =>
    subjectLimit(state, { surface: 'portal', projectId: program.projectId }, name, options.limits?.[name], { limit, windowSeconds })
  return {
    program,
    options,
    clock,
    sessions: webSessions(store, 'portal', clock, options.session),
    base,
    publicUrl,
    theme,
    stylesheet,
    script,
    paths: portalPaths(base, { stylesheet: stylesheet.version, script: script.version }),
    security: securityHeaders(theme.logoOrigin),
    emailForm: options.onSignInRequested !== undefined || options.emailSignIn === true,
    limits: {
      emailsPerAddress: limitOf('emailPerAddress', 3, 900),
      emailRequestsPerClient: limitOf('emailPerClient', 10, 900),
      signInsPerClient: limitOf('signInPerClient', 20, 300),
      applyPerClient: limitOf('applyPerClient', 5, 3600),
      applyPerEmail: limitOf('applyPerEmail', 3, 86_400),
      embedPerClient: limitOf('embedPerClient', 120, 300),
    },
    application: resolveApplication(options.application),
    formClock: formClock(state, `portal.apply:${program.projectId}`),
    onError: options.onError ?? ((error: unknown) => console.error('affiliate-kit portal:', error)),
    cookieScope: (url) => ({ path: base || '/', secure: options.secureCookies ?? url.protocol === 'https:' }),
  }
}

/** The link the affiliate shares: never from the request's origin, always the configured site. */
function referralLinkOf(setup: PortalSetup, affiliate: AffiliateView): string | null {
  const { options, publicUrl } = setup
  if (options.referralLink) return options.referralLink(affiliate.referralCode, affiliate)
  return publicUrl ? `${publicUrl}/?ref=${encodeURIComponent(affiliate.referralCode)}` : null
}

/** A page in the portal's frame; signed in, with the navigation of the page table. */
export function portalPage(setup: PortalSetup, title: string, body: Html, status: number, extra: { cookies?: string[]; signedIn?: SignedInContext; lang?: string } = {}): Response {
  const { theme, paths } = setup
  const signedIn = extra.signedIn
    ? {
        nav: tableNav(PORTAL_PAGES, setup.base, extra.signedIn.current),
        who: extra.signedIn.affiliate.name ?? extra.signedIn.affiliate.email,
        signOutUrl: paths.signOut,
        csrfToken: extra.signedIn.csrf,
      }
    : undefined
  return pageResponse(frame({ theme, title, stylesheetUrl: paths.stylesheet, scriptUrl: paths.script, ...(signedIn ? { signedIn } : {}), ...(extra.lang ? { lang: extra.lang } : {}), body }), status, {
    security: setup.security,
    cookies: extra.cookies ?? [],
  })
}

/** Blocked affiliates and pending ones (not approved yet: docs/onboarding.md) cannot sign in. */
const mayNotSignIn = (affiliate: AffiliateView) => affiliate.status === 'blocked' || affiliate.status === 'pending'

/** A one-time sign-in link for the affiliate with this email (a blocked or pending one gets none). */
export async function issueSignInLink(setup: PortalSetup, email: string): Promise<{ url: string; expiresAt: Date; affiliate: AffiliateView }> {
  const affiliate = await setup.program.affiliates.get(email)
  if (mayNotSignIn(affiliate)) throw new ValidationError('email', `this affiliate is ${affiliate.status}`)
  const { token, expiresAt } = await setup.sessions.issueSignInToken(setup.program.projectId, String(affiliate.id))
  return { url: `${setup.publicUrl ?? ''}${setup.paths.signIn}?token=${token}`, expiresAt, affiliate }
}

function signedOut(setup: PortalSetup, request: Request, url: URL, state: Parameters<typeof signInPage>[1], status = 200, cookies: string[] = []): Response {
  const pre = preSession.issue(request, setup.cookieScope(url))
  const locale = chooseLocale(null, request.headers.get('accept-language'), setup.options.locale)
  const t = translator(locale)
  const applyUrl = setup.application.signup === 'closed' ? null : setup.paths.apply
  const body = signInPage({ paths: setup.paths, csrf: pre.csrf, emailForm: setup.emailForm, t, applyUrl }, state)
  return portalPage(setup, t('portal.sign_in.title'), body, status, { cookies: [...cookies, ...pre.cookies], lang: locale })
}

/** The 429 page when the client is over `perClient`; null when it may go on (or is unknown). */
function limitedClient(setup: PortalSetup, perClient: SubjectLimit | null, request: Request, url: URL, client: ClientInfo | undefined, token?: string): Promise<Response | null> {
  const address = clientAddress(request, client, setup.options.trustProxy === true)
  return overClientLimit(perClient, address, setup.clock.now(), () => signedOut(setup, request, url, { ...(isSecretShaped(token) ? { token } : {}), error: TOO_MANY_ATTEMPTS }, 429))
}

/** A signed-out form's request: its form, once its pre-session CSRF token is checked. */
interface SignedOutCall extends PageCall {
  form: URLSearchParams | null
}

/** The sign-in forms (POST /sign-in, /sign-in/email): CSRF protection by the pre-session, then the form. */
export function portalSignInForms(setup: PortalSetup): (call: PageCall, exchange: Exchange) => Promise<Response> {
  const run = chain<SignedOutCall, Response>(
    [
      csrfProtection({
        read: (call) => readForm(call.request),
        matches: (call, form) => preSession.verify(call.request, form),
        refuse({ request, url, route }, form) {
          // The sign-in form keeps the link's token it came with, so the affiliate may submit it again.
          const token = route === '/sign-in' ? (form.get('token') ?? undefined) : undefined
          return signedOut(setup, request, url, { ...(isSecretShaped(token) ? { token } : {}), error: FORM_EXPIRED }, 403)
        },
      }),
    ],
    (call) => (call.route === '/sign-in' ? portalSignIn(setup, call) : requestSignInLink(setup, call)),
  )
  return (call, exchange) => run({ ...call, form: null }, exchange)
}

/** POST /sign-in: redeems a sign-in link's token for a portal session. */
async function portalSignIn(setup: PortalSetup, { request, url, client, form }: SignedOutCall): Promise<Response> {
  const { program, sessions } = setup
  const token = form!.get('token') ?? undefined
  const limited = await limitedClient(setup, setup.limits.signInsPerClient, request, url, client, token)
  if (limited) return limited
  const record = await sessions.redeemSignInToken(token ?? null)
  const affiliate = record && record.projectId === program.projectId ? await findAffiliate(program, Number(record.subject)) : null
  if (!affiliate || mayNotSignIn(affiliate)) return signedOut(setup, request, url, { error: LINK_INVALID }, 400)
  return startSession(setup, request, url, affiliate.id)
}

/** Replaces the browser's session (if any) with a new one for the affiliate; to the overview. */
async function startSession(setup: PortalSetup, request: Request, url: URL, affiliateId: number): Promise<Response> {
  const { program, sessions } = setup
  await sessions.end(readCookie(request, SESSION_COOKIE))
  const { id } = await sessions.start(program.projectId, String(affiliateId))
  const scope = setup.cookieScope(url)
  return redirectResponse(setup.paths.overview, {
    security: setup.security,
    cookies: [cookieHeader(SESSION_COOKIE, id, scope, setup.options.session?.absoluteTimeoutSeconds ?? 43_200), preSession.clear(scope)],
  })
}

/** POST /sign-in/email: emails a sign-in link; the answer is the same whether one went out or not. */
async function requestSignInLink(setup: PortalSetup, { request, url, client, form }: SignedOutCall): Promise<Response> {
  const limited = await limitedClient(setup, setup.limits.emailRequestsPerClient, request, url, client)
  if (limited) return limited
  const email = (form!.get('email') ?? '').trim()
  const { emailsPerAddress } = setup.limits
  try {
    // An address over its limit is answered like any other: the page never says whether a link went out.
    if (emailsPerAddress && !(await emailsPerAddress(email.toLowerCase(), setup.clock.now())).allowed) return signedOut(setup, request, url, { message: LINK_SENT })
    const { url: link, expiresAt, affiliate } = await issueSignInLink(setup, email)
    const locale = chooseLocale(null, request.headers.get('accept-language'), setup.options.locale)
    if (setup.options.emailSignIn) await setup.program.portal.recordSignInRequest({ affiliateId: affiliate.id, link, expiresAt, locale })
    await setup.options.onSignInRequested?.({ affiliateId: affiliate.id, email: affiliate.email, link, expiresAt, locale })
  } catch (error) {
    // Unknown, malformed and blocked addresses get the same answer as known ones.
    if (!(error instanceof AffiliateError)) setup.onError(error)
  }
  return signedOut(setup, request, url, { message: LINK_SENT })
}

async function findAffiliate(program: PortalProgram, id: number): Promise<AffiliateView | null> {
  try {
    return await program.affiliates.get(id)
  } catch (error) {
    if (error instanceof NotFoundError) return null
    throw error
  }
}

/**
 * Makes the affiliate's Connect onboarding link, Stripe sending it back to the Payouts page. The
 * address is built on the configured publicUrl only, never on a request's Host: without one the
 * offer is not shown.
 */
function stripeOnboardingOf(setup: PortalSetup, affiliateId: number): SignedInRequest['stripeOnboarding'] {
  const connect = setup.options.stripeConnect
  if (!connect || !setup.publicUrl) return null
  const payouts = `${setup.publicUrl}${setup.paths.payouts}`
  return async () => (await connect.onboardingLink(affiliateId, { returnUrl: `${payouts}?stripe=return`, refreshUrl: `${payouts}?stripe=refresh` })).url
}

/** The affiliate a portal session signs in, with the session's id (its forms' CSRF token derives from it). */
interface PortalSession {
  id: string
  affiliate: AffiliateView
}

/** A portal request behind the session: whose it is, and the form a POST carried (its CSRF token checked). */
interface PortalCall extends PageCall {
  session: PortalSession | null
  form: URLSearchParams | null
}

/** The pages behind a session: session authentication → CSRF protection, then the page or action. */
export function portalSignedInPages(setup: PortalSetup): (call: PageCall, exchange: Exchange) => Promise<Response> {
  const run = chain<PortalCall, Response>(
    [
      sessionAuthentication((call) => portalSession(setup, call.request, call.url)),
      csrfProtection({
        read: (call) => readForm(call.request),
        matches: (call, form) => csrfTokenMatches(call.session!.id, form.get('csrf')),
        refuse({ request, session }) {
          const { affiliate, id } = session!
          const t = translator(chooseLocale(affiliate.locale, request.headers.get('accept-language'), setup.options.locale))
          return portalPage(setup, 'Form expired', html`<h1>Form expired</h1><p class="error" role="alert">${t(FORM_EXPIRED)}</p>`, 403, { signedIn: { affiliate, csrf: csrfTokenFor(id), current: '' } })
        },
      }),
    ],
    (call) => portalSignedInRoute(setup, call),
  )
  return (call, exchange) => run({ ...call, session: null, form: null }, exchange)
}

/** The affiliate the session cookie signs in (web/session-resume.ts says what happens otherwise). */
async function portalSession(setup: PortalSetup, request: Request, url: URL): Promise<{ session: PortalSession } | { refused: Response }> {
  const outcome = await resumeSignedIn(setup, {
    request,
    url,
    cookie: SESSION_COOKIE,
    async whoIs(subject) {
      const affiliate = await findAffiliate(setup.program, Number(subject))
      return affiliate && !mayNotSignIn(affiliate) ? affiliate : null
    },
    signedOut: (cookies) => signedOut(setup, request, url, { message: SESSION_ENDED }, 401, cookies),
  })
  return 'refused' in outcome ? outcome : { session: { id: outcome.sessionId, affiliate: outcome.signedIn } }
}

/** A page or action of the table (or sign-out), for the affiliate signed in (its session and CSRF token checked by the steps before). */
async function portalSignedInRoute(setup: PortalSetup, { request, url, route, client, session, form }: PortalCall): Promise<Response> {
  const { program, sessions, paths, security } = setup
  const { id: sessionId, affiliate } = session!
  const csrf = csrfTokenFor(sessionId)
  const locale = chooseLocale(affiliate.locale, request.headers.get('accept-language'), setup.options.locale)
  const context: SignedInRequest = { url, program, affiliate, paths, csrf, referralLink: referralLinkOf(setup, affiliate), locale, t: translator(locale), stripeOnboarding: stripeOnboardingOf(setup, affiliate.id) }
  let result: PageResult
  if (form !== null) {
    if (route === '/sign-out') {
      await sessions.end(sessionId)
      return redirectResponse(`${paths.signIn}?signed_out=1`, { security, cookies: [cookieHeader(SESSION_COOKIE, '', setup.cookieScope(url), 0)] })
    }
    const { row, id, ref } = matchPage(PORTAL_PAGES, route, 'POST')!
    result = await row.action!(context, form, id, ref)
  } else {
    if (route === '/') await recordOwnVisit(setup, request, client, affiliate.id)
    const { row, id, ref } = matchPage(PORTAL_PAGES, route, 'GET')!
    result = await row.page!(context, id, ref)
  }
  if ('redirect' in result) return redirectResponse(result.redirect, { security })
  if ('download' in result) {
    const { filename, contentType, body } = result.download
    return new Response(body, { status: 200, headers: { ...security, 'content-type': contentType, 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' } })
  }
  const current = route.startsWith('/conversions') ? paths.conversions : `${setup.base}${route}`
  return portalPage(setup, result.title, result.body, result.status ?? 200, { signedIn: { affiliate, csrf, current } })
}

/**
 * The overview, where a sign-in lands, records the affiliate's browser of the day (hashed like a
 * visitor): a click on its own link from it trips the sameVisitor fraud rule (docs/fraud.md).
 */
async function recordOwnVisit(setup: PortalSetup, request: Request, client: ClientInfo | undefined, affiliateId: number): Promise<void> {
  const address = clientAddress(request, client, setup.options.trustProxy === true) ?? ''
  await setup.program.tracking.ownVisit({ affiliateId, address, userAgent: request.headers.get('user-agent') ?? '' })
}

/** Which methods each route answers; anything else under the base path is a 404. */
export function portalAllowed(setup: PortalSetup, route: string, embed: EmbedPages | null): string[] | null {
  const embedded = embed?.allowed(route)
  if (embedded) return embedded
  if (route === '/sign-in') return ['GET', 'POST']
  if (route === '/sign-out' || (route === '/sign-in/email' && setup.emailForm)) return ['POST']
  if (route === '/assets/portal.css' || route === '/assets/portal.js') return ['GET']
  if (route === '/unsubscribe' && setup.options.mailSecret) return ['GET', 'POST']
  return tableMethods(PORTAL_PUBLIC_PAGES, route) ?? tableMethods(PORTAL_PAGES, route)
}

/** A page of the signed-out table (the application pages); null for a 404. */
async function publicRoute(setup: PortalSetup, request: Request, url: URL, route: string, method: 'GET' | 'POST', client: ClientInfo | undefined): Promise<Response | null> {
  const { row, id, ref } = matchPage(PORTAL_PUBLIC_PAGES, route, method)!
  const pre = preSession.issue(request, setup.cookieScope(url))
  const locale = chooseLocale(null, request.headers.get('accept-language'), setup.options.locale)
  const context: PublicRequest = {
    setup,
    request,
    url,
    client,
    locale,
    t: translator(locale),
    csrf: pre.csrf,
    csrfMatches: (form) => preSession.verify(request, form),
    page(title, body, status, headers = {}) {
      const response = portalPage(setup, title, body, status, { cookies: pre.cookies, lang: locale })
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
      return response
    },
    signIn: (affiliateId) => startSession(setup, request, url, affiliateId),
  }
  if (method === 'GET') return row.page!(context, id, ref)
  return row.action!(context, await readForm(request), id, ref)
}

/** GET /sign-in: the form, holding the token of a sign-in link when it came with one. */
function signInForm(setup: PortalSetup, request: Request, url: URL): Response {
  const token = url.searchParams.get('token') ?? undefined
  if (token !== undefined && !isSecretShaped(token)) return signedOut(setup, request, url, { error: LINK_INVALID }, 400)
  const message = url.searchParams.has('signed_out') ? SIGNED_OUT : url.searchParams.has('ended') ? SESSION_ENDED : null
  return signedOut(setup, request, url, { ...(token ? { token } : {}), message })
}

export function createPortal(program: PortalProgram, options: PortalOptions): Portal {
  const setup = portalSetup(program, options)
  const { paths, security } = setup
  const page = (title: string, body: Html, status: number) => portalPage(setup, title, body, status)
  const signInForms = portalSignInForms(setup)
  const signedIn = portalSignedInPages(setup)
  const embed = options.embed
    ? embedPages(
        {
          program,
          base: setup.base,
          clock: setup.clock,
          security,
          theme: options.theme,
          locale: options.locale,
          trustProxy: options.trustProxy === true,
          perClient: setup.limits.embedPerClient,
          referralLink: (affiliate) => referralLinkOf(setup, affiliate),
        },
        options.embed.allowedOrigins,
      )
    : null
  const notFound = () => page('Not found', html`<h1>Not found</h1><p>There is no such page.</p><p><a href="${paths.overview}">Go to the overview</a></p>`, 404)
  const portal = mountedPages({
    base: setup.base,
    surface: 'portal',
    observer: options,
    paths,
    allowed: (route) => portalAllowed(setup, route, embed),
    page,
    notFound,
    refusal(error) {
      if (error instanceof FormError) return page('Bad request', html`<h1>Bad request</h1><p class="error" role="alert">${error.message}</p>`, error.status)
      if (error instanceof NotFoundError) return notFound()
      if (error instanceof ValidationError) return page('Bad request', html`<h1>Bad request</h1><p class="error" role="alert">${error.message}</p>`, 400)
      return null
    },
    onError: setup.onError,
    async answer(call, exchange) {
      const { request, url, route, pageMethod: method, client } = call
      if (embed?.allowed(route)) return embed.answer({ request, url, route, client })
      if (route === '/assets/portal.css') return assetResponse(setup.stylesheet, request, security)
      if (route === '/assets/portal.js') return assetResponse(setup.script, request, security)
      if (route === '/sign-in' && method === 'GET') return signInForm(setup, request, url)
      if (route === '/sign-in' || route === '/sign-in/email') return signInForms(call, exchange)
      if (route === '/unsubscribe') {
        const result = await unsubscribePage({ program, secret: options.mailSecret!, locale: options.locale, title: setup.theme.title, action: `${setup.base}/unsubscribe` }, request, url)
        return portalPage(setup, result.title, result.body, result.status, { lang: result.lang })
      }
      if (matchPage(PORTAL_PUBLIC_PAGES, route, method as 'GET' | 'POST')) return (await publicRoute(setup, request, url, route, method as 'GET' | 'POST', client)) ?? notFound()
      return signedIn(call, exchange)
    },
  }) as Portal
  portal.createSignInLink = async (email) => {
    const { url, expiresAt } = await issueSignInLink(setup, email)
    return { url, expiresAt }
  }
  portal.embedUrl = (token) => (embed && setup.publicUrl ? `${setup.publicUrl}${paths.base}/embed?token=${encodeURIComponent(token)}` : null)
  portal.signOutEverywhere = async (email) => {
    const affiliate = await program.affiliates.get(email)
    return setup.sessions.endAll(program.projectId, String(affiliate.id))
  }
  return Object.assign(portal, { projectId: program.projectId, publicUrl: setup.publicUrl ?? null })
}
