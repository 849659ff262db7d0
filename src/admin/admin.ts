// createAdminConsole(program, options): the program owner's console as a Fetch handler mounted
// under a path (default /admin). Sign-in exchanges an API key with every scope for a session of
// its own kind (a portal session never opens it), or the host's authorize hook says who is
// there. Every change goes through the program's public calls and lands in the audit log in the
// same transaction (AdminRequest.changes, over program.transaction); every POST carries a CSRF
// token. See docs/admin.md.
import { AffiliateError } from '../core/model/errors.js'
import { systemClock, type Clock } from '../core/model/clock.js'
import { hasScope } from '../core/project/keys.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import { memoryKeyedState } from '../adapters/memory/keyed-state.js'
import { clientAddress, type ClientInfo } from '../web/client-address.js'
import type { SignInLinkMaker } from '../core/affiliates/portal-sign-in.js'
import { cookieHeader, readCookie, type CookieScope } from '../web/cookies.js'
import { ENHANCEMENT_SCRIPT } from '../web/enhancement-script.js'
import { FormError, readForm } from '../web/forms.js'
import { html, type Html } from '../web/html.js'
import { frame } from '../web/layout.js'
import { mountedPages, normalizeBasePath, type PageCall, type PagesHandler } from '../web/mounted-pages.js'
import { csrfProtection } from '../server/csrf-protection.js'
import { chain, errorAnswer, type Exchange } from '../server/pipeline.js'
import { sessionAuthentication } from '../server/session-authentication.js'
import type { Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import { assetResponse, pageResponse, redirectResponse, securityHeaders, staticAsset } from '../web/responses.js'
import { csrfTokenFor, csrfTokenMatches } from '../web/secrets.js'
import { preSessionCsrf } from '../web/pre-session.js'
import { matchPage, tableMethods, tableNav } from '../web/page-table.js'
import type { SessionStore, WithSessionStore } from '../core/ports/session-store.js'
import { webSessions, type SessionPolicy, type WebSessions } from '../web/sessions.js'
import { resumeSignedIn } from '../web/session-resume.js'
import { overClientLimit, subjectLimit, type LimitOption, type SubjectLimit } from '../web/sign-in-limits.js'
import { STYLESHEET } from '../web/stylesheet.js'
import { resolveTheme, type Theme } from '../web/theme.js'
import type { AuditLog, WithAuditLog } from '../core/ports/audit-log.js'
import type { AuditRecord } from '../core/project/audit-entries.js'
import type { AdminActor, AdminRequest, AdminResult } from './page.js'
import { FORM_EXPIRED, KEY_REFUSED, SESSION_ENDED, SIGNED_OUT, signInPage, TOO_MANY_ATTEMPTS } from './pages/sign-in.js'
import type { AdminPaths } from './paths.js'
import { ADMIN_PAGES, adminPaths } from './routes.js'
import type { AdminProgram } from './program.js'
import { refusalOf } from './refusal.js'
import type { ConsolePayoutRuns } from './payout-runs.js'
import type { ConsoleProviderEvents } from './provider-events.js'
import type { ConsoleWebhooks } from './webhooks.js'

export interface AdminConsoleOptions {
  /** Where console sessions live: the storage object (each adapter carries one) or its `sessions`. Needed unless `authorize` is given. */
  sessions?: SessionStore | WithSessionStore
  /**
   * Not needed: the console records and reads its audit log through the program's storage, each
   * entry in the transaction of the change it records. Still accepted (a storage object given
   * here lends its `keyedState`, as `sessions` does). @default the program's storage
   */
  auditLog?: AuditLog | WithAuditLog
  /** The webhook dispatcher: retried deliveries are sent at once and test events can be sent. @default none */
  webhooks?: ConsoleWebhooks
  /**
   * Replays provider events from the provider events page: `providerEventReplay({ program, storage })`
   * from affiliate-kit/stripe (or any provider's entry: paddle, lemon-squeezy, polar, braintree, chargebee, recurly). @default none: no replay button
   */
  providerEvents?: ConsoleProviderEvents
  /**
   * Payout runs from the Pay now page: payoutRunner(program, { paypal, stripe }) from
   * affiliate-kit/payouts (docs/payouts.md "Payout runs"). @default none: the page says how to configure them
   */
  payoutRuns?: ConsolePayoutRuns
  /**
   * The affiliate portal (createPortal, with its publicUrl): each affiliate's page gets a button
   * that makes a one-time sign-in link to it. @default none: no button
   */
  portal?: SignInLinkMaker
  /**
   * For a console embedded behind the host's own sign-in: who is making this request (an id and a
   * name for the audit log), or null to refuse it (403). Replaces the API key sign-in. @default none
   */
  authorize?: (request: Request) => AdminActor | null | Promise<AdminActor | null>
  /** Path the console is served under. @default '/admin' */
  basePath?: string
  /** Colours, font, logo and title. @default title 'Admin console' */
  theme?: Theme
  /** Session lifetimes (signInLinkTtlSeconds is not used). */
  session?: SessionPolicy
  /** Whether cookies carry Secure. @default true when the request URL is https */
  secureCookies?: boolean
  /** Key sign-ins per client (docs/limits.md "Sign-in"); over it the form answers 429; `false` turns it off. @default 10 per 5 minutes */
  limits?: { signInPerClient?: LimitOption }
  /** Where the limit counts. @default the `keyedState` of the storage object given as `sessions` or `auditLog`, else this console's memory */
  state?: KeyedStateStore
  /** Count clients by the last X-Forwarded-For entry, the one your reverse proxy appends. @default false: the connected address */
  trustProxy?: boolean
  /** @default the program's clock */
  clock?: Clock
  /** Unexpected errors (the page shows a generic message). @default console.error */
  onError?: (error: unknown) => void
  /** Gets one line per request (method, route pattern, status, duration in ms, request id; 5xx as errors); never an id, email or token. @default none */
  logger?: Logger
  /** Counts the requests and their latency by route pattern (createMetrics). @default none */
  metrics?: Metrics
  /**
   * The application page's own fields (the portal's `application.fields`): the console shows each
   * answer under its label. @default none: an answer is shown under its field's name
   */
  applicationFields?: ReadonlyArray<{ name: string; label: string }>
}

/** A fetch handler, callable itself and as `fetch`, with `node` for node:http and Express. */
export type AdminConsole = PagesHandler

const SESSION_COOKIE = 'ak_admin'
const KEY_SUBJECT = /^key:([1-9][0-9]{0,14})$/

/** What the console's functions share: the options resolved once, at creation. */
export interface AdminSetup {
  program: AdminProgram
  options: AdminConsoleOptions
  clock: Clock
  /** Null with the authorize hook and no session store. */
  sessions: WebSessions | null
  /** Records an entry through the program, on its own (sign-ins; actions record through their request's audit). */
  record(entry: AuditRecord): Promise<void>
  base: string
  theme: ReturnType<typeof resolveTheme>
  stylesheet: ReturnType<typeof staticAsset>
  script: ReturnType<typeof staticAsset>
  paths: AdminPaths
  security: Record<string, string>
  preSession: ReturnType<typeof preSessionCsrf>
  signInsPerClient: SubjectLimit | null
  cookieScope(url: URL): CookieScope
  /** The labels of the application fields, by name. */
  fieldLabels: ReadonlyMap<string, string>
}

interface SignedIn {
  actor: AdminActor
  csrf: string
  current: string
}

/** Resolves the options: session store, audit log, mount path, theme, assets, limits. */
export function adminSetup(program: AdminProgram, options: AdminConsoleOptions): AdminSetup {
  if (!options.sessions && !options.authorize) throw new TypeError('createAdminConsole needs sessions (for the API key sign-in) or an authorize hook')
  const clock = options.clock ?? program.clock ?? systemClock
  const store = options.sessions === undefined ? null : 'sessions' in options.sessions ? options.sessions.sessions : options.sessions
  const base = normalizeBasePath(options.basePath, '/admin')
  const theme = resolveTheme({ title: 'Admin console', ...options.theme })
  const stylesheet = staticAsset(theme.variables + STYLESHEET, 'text/css; charset=utf-8')
  const script = staticAsset(ENHANCEMENT_SCRIPT, 'text/javascript; charset=utf-8')
  const storageState = [options.sessions, options.auditLog].find((given) => given !== undefined && 'keyedState' in given) as { keyedState: KeyedStateStore } | undefined
  const state = options.state ?? storageState?.keyedState ?? memoryKeyedState()
  return {
    program,
    options,
    clock,
    fieldLabels: new Map((options.applicationFields ?? []).map((field) => [field.name, field.label])),
    sessions: store ? webSessions(store, 'admin', clock, options.session) : null,
    record: (entry) => recordThrough(program, clock, entry),
    base,
    theme,
    stylesheet,
    script,
    paths: adminPaths(base, { stylesheet: stylesheet.version, script: script.version }),
    security: securityHeaders(theme.logoOrigin),
    preSession: preSessionCsrf('ak_admin_pre', { browserSession: options.authorize !== undefined }),
    signInsPerClient: subjectLimit(state, { surface: 'admin', projectId: program.projectId }, 'signInPerClient', options.limits?.signInPerClient, { limit: 10, windowSeconds: 300 }),
    cookieScope: (url) => ({ path: base || '/', secure: options.secureCookies ?? url.protocol === 'https:' }),
  }
}

/** A page in the console's frame; signed in, with the navigation of the page table. */
export function adminPage(setup: AdminSetup, title: string, body: Html, status: number, extra: { cookies?: string[]; signedIn?: SignedIn } = {}): Response {
  const { theme, paths, sessions, options } = setup
  const signedIn = extra.signedIn
    ? {
        nav: tableNav(ADMIN_PAGES, setup.base, extra.signedIn.current),
        who: extra.signedIn.actor.name,
        csrfToken: extra.signedIn.csrf,
        ...(sessions && !options.authorize ? { signOutUrl: paths.signOut } : {}),
      }
    : undefined
  return pageResponse(
    frame({ theme, title, stylesheetUrl: paths.stylesheet, scriptUrl: paths.script, ...(signedIn ? { signedIn } : {}), wide: true, body }),
    status,
    { security: setup.security, cookies: extra.cookies ?? [] },
  )
}

/** The sign-in page, with the pre-session cookie its form's CSRF token derives from. */
function signedOut(setup: AdminSetup, request: Request, url: URL, state: Parameters<typeof signInPage>[2], status = 200, cookies: string[] = []): Response {
  const pre = setup.preSession.issue(request, setup.cookieScope(url))
  return adminPage(setup, 'Sign in', signInPage(setup.paths, pre.csrf, state), status, { cookies: [...cookies, ...pre.cookies] })
}

/** The key's id and name when it is active, of this project, and has every scope. */
export async function adminKey(program: AdminProgram, keyId: number): Promise<AdminActor | null> {
  const key = (await program.keys.list()).find((candidate) => candidate.id === keyId)
  if (!key || key.revokedAt !== null || !hasScope(key.scopes, '*')) return null
  return { id: `key:${key.id}`, name: key.name ? `${key.name} (key ${key.prefix}…)` : `key ${key.prefix}…` }
}

/** POST /sign-in: CSRF protection by the pre-session, then the sign-in. */
export function adminSignInForm(setup: AdminSetup): (call: PageCall, exchange: Exchange) => Promise<Response> {
  const run = chain<SignInCall, Response>(
    [
      csrfProtection({
        read: (call) => readForm(call.request),
        matches: (call, form) => setup.preSession.verify(call.request, form),
        refuse: ({ request, url }) => signedOut(setup, request, url, { error: FORM_EXPIRED }, 403),
      }),
    ],
    (call) => adminSignIn(setup, call),
  )
  return (call, exchange) => run({ ...call, form: null }, exchange)
}

/** The sign-in form's request: its form, once its pre-session CSRF token is checked. */
interface SignInCall extends PageCall {
  form: URLSearchParams | null
}

/** Exchanges an API key with every scope for a console session. */
async function adminSignIn(setup: AdminSetup, { request, url, client, form }: SignInCall): Promise<Response> {
  const { program, options, record, clock, sessions } = setup
  const address = clientAddress(request, client, options.trustProxy === true)
  const limited = await overClientLimit(setup.signInsPerClient, address, clock.now(), () => signedOut(setup, request, url, { error: TOO_MANY_ATTEMPTS }, 429))
  if (limited) return limited
  const verified = await program.verifyApiKey((form!.get('key') ?? '').trim())
  const ownKey = verified && verified.projectId === program.projectId ? verified.keyId : null
  const actor = ownKey === null ? null : await adminKey(program, ownKey)
  if (!actor) {
    // Who tried is the client address; the key typed is never written down, only which of the project's keys it was.
    const from = address ?? 'unknown address'
    await record({
      actorId: `client:${from}`,
      actorName: from,
      action: 'console.sign_in_failed',
      target: ownKey === null ? null : `api_key:${ownKey}`,
      detail: ownKey === null ? 'not a key of this project' : 'the key lacks the * scope',
    })
    return signedOut(setup, request, url, { error: KEY_REFUSED }, 401)
  }
  await sessions!.end(readCookie(request, SESSION_COOKIE))
  const { id } = await sessions!.start(program.projectId, actor.id)
  await record({ actorId: actor.id, actorName: actor.name, action: 'console.sign_in', target: null, detail: null })
  const scope = setup.cookieScope(url)
  return redirectResponse(setup.paths.affiliates, {
    security: setup.security,
    cookies: [cookieHeader(SESSION_COOKIE, id, scope, options.session?.absoluteTimeoutSeconds ?? 43_200), setup.preSession.clear(scope)],
  })
}

interface Identified {
  actor: AdminActor
  /** The token this page's forms carry. */
  csrf: string
  /** Whether a posted form carries it. */
  verify(form: URLSearchParams): boolean
  cookies: string[]
}

/** Who is there and how their forms are checked; or the response refusing them. */
export async function identifyAdmin(setup: AdminSetup, request: Request, url: URL): Promise<Identified | Response> {
  const { authorize } = setup.options
  if (authorize) {
    const actor = await authorize(request)
    if (!actor || typeof actor.id !== 'string' || typeof actor.name !== 'string') {
      return adminPage(setup, 'Not allowed', html`<h1>Not allowed</h1><p>You are not allowed to use the admin console.</p>`, 403)
    }
    const pre = setup.preSession.issue(request, setup.cookieScope(url))
    return { actor, csrf: pre.csrf, verify: (form) => setup.preSession.verify(request, form), cookies: pre.cookies }
  }
  const outcome = await resumeSignedIn({ ...setup, sessions: setup.sessions! }, {
    request,
    url,
    cookie: SESSION_COOKIE,
    async whoIs(subject) {
      const keyId = KEY_SUBJECT.exec(subject)?.[1]
      return keyId === undefined ? null : adminKey(setup.program, Number(keyId))
    },
    signedOut: (cookies) => signedOut(setup, request, url, { message: SESSION_ENDED }, 401, cookies),
  })
  if ('refused' in outcome) return outcome.refused
  const { sessionId, signedIn: actor } = outcome
  return { actor, csrf: csrfTokenFor(sessionId), verify: (form) => csrfTokenMatches(sessionId, form.get('csrf')), cookies: [] }
}

async function recordThrough(program: Pick<AdminProgram, 'auditLog'>, clock: Clock, entry: AuditRecord): Promise<void> {
  await program.auditLog.record({ ...entry, at: clock.now() })
}

/** What a page handler of the table gets for this request: over the program, or (changes) over one transaction's scope of it. */
function adminRequest(setup: AdminSetup, program: AdminProgram, request: Request, url: URL, actor: AdminActor, csrf: string): AdminRequest {
  const { options } = setup
  return {
    request,
    url,
    program,
    actor,
    paths: setup.paths,
    csrf,
    webhooks: options.webhooks ?? null,
    providerEvents: options.providerEvents ?? null,
    payoutRuns: options.payoutRuns ?? null,
    portal: options.portal ?? null,
    fieldLabels: setup.fieldLabels,
    audit: (action, target, detail = null) => recordThrough(program, setup.clock, { actorId: actor.id, actorName: actor.name, action, target, detail }),
    changes: (fn) =>
      program.transaction((scope) => fn(adminRequest(setup, { ...scope, clock: program.clock, verifyApiKey: program.verifyApiKey }, request, url, actor, csrf))),
  }
}

/** A console request behind the session: who is there, and the form a POST carried (its CSRF token checked). */
interface AdminCall extends PageCall {
  session: Identified | null
  form: URLSearchParams | null
}

/**
 * The pages behind a session: session authentication → refusals as a page of the signed-in frame
 * (a bad form, a change the program refuses) → CSRF protection, then the page or action.
 */
export function signedInPages(setup: AdminSetup): (call: PageCall, exchange: Exchange) => Promise<Response> {
  const run = chain<AdminCall, Response>(
    [
      sessionAuthentication<Identified, AdminCall, Response>(async (call) => {
        const who = await identifyAdmin(setup, call.request, call.url)
        return who instanceof Response ? { refused: who } : { session: who }
      }),
      errorAnswer<AdminCall, Response>((error, { session, route }) => {
        if (!(error instanceof AffiliateError) && !(error instanceof FormError)) throw error
        const { status, message } = error instanceof FormError ? error : refusalOf(error)
        const title = status === 404 ? 'Not found' : 'Not done'
        const signedIn = signedInAs(setup, session!, route)
        const body = html`<h1>${title}</h1><p class="error" role="alert">${message}</p><p>Nothing was changed.</p><p><a href="${signedIn.current}">Go back</a></p>`
        return adminPage(setup, title, body, status, { signedIn, cookies: session!.cookies })
      }),
      csrfProtection({
        read: (call) => readForm(call.request),
        matches: (call, form) => call.session!.verify(form),
        refuse: ({ session, route }) =>
          adminPage(setup, 'Form expired', html`<h1>Form expired</h1><p class="error" role="alert">${FORM_EXPIRED}</p>`, 403, { signedIn: signedInAs(setup, session!, route), cookies: session!.cookies }),
      }),
    ],
    (call) => signedInRoute(setup, call),
  )
  return (call, exchange) => run({ ...call, session: null, form: null }, exchange)
}

/** Who the page's frame shows signed in, and the section of the navigation it is in. */
function signedInAs(setup: AdminSetup, { actor, csrf }: Identified, route: string): SignedIn {
  const section = route.split('/')[1]
  const current = section === '' || section === 'affiliates' ? setup.paths.affiliates : `${setup.base}/${section}`
  return { actor, csrf, current }
}

/** A page or action of the table (or sign-out), for whoever is signed in (its session and CSRF token checked by the steps before). */
async function signedInRoute(setup: AdminSetup, { request, url, route, session, form }: AdminCall): Promise<Response> {
  const { actor, csrf, cookies } = session!
  const { paths, security } = setup
  const context = adminRequest(setup, setup.program, request, url, actor, csrf)
  let result: AdminResult
  if (form !== null) {
    if (route === '/sign-out') {
      await setup.sessions!.end(readCookie(request, SESSION_COOKIE))
      return redirectResponse(`${paths.signIn}?signed_out=1`, { security, cookies: [cookieHeader(SESSION_COOKIE, '', setup.cookieScope(url), 0)] })
    }
    const { row, id, ref } = matchPage(ADMIN_PAGES, route, 'POST')!
    result = await row.action!(context, form, id, ref)
  } else {
    const { row, id, ref } = matchPage(ADMIN_PAGES, route, 'GET')!
    result = await row.page!(context, id, ref)
  }
  return adminResponse(setup, result, signedInAs(setup, session!, route), cookies)
}

/** A page handler's result as the response: a redirect, a download or a page. */
function adminResponse(setup: AdminSetup, result: AdminResult, signedIn: SignedIn, cookies: string[]): Response {
  if ('redirect' in result) return redirectResponse(result.redirect, { security: setup.security, cookies })
  if ('download' in result) {
    const { filename, contentType, body } = result.download
    const headers = new Headers({ ...setup.security, 'content-type': contentType, 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' })
    return new Response(body, { status: 200, headers })
  }
  return adminPage(setup, result.title, result.body, result.status ?? 200, { signedIn, cookies })
}

/** Which methods each route answers; anything else under the base path is a 404. */
export function adminAllowed(setup: AdminSetup, route: string): string[] | null {
  const { authorize } = setup.options
  if (route === '/assets/admin.css' || route === '/assets/admin.js') return ['GET']
  if (route === '/sign-in') return authorize ? null : ['GET', 'POST']
  if (route === '/sign-out') return authorize ? null : ['POST']
  return tableMethods(ADMIN_PAGES, route)
}

export function createAdminConsole(program: AdminProgram, options: AdminConsoleOptions): AdminConsole {
  const setup = adminSetup(program, options)
  const { paths, security } = setup
  const signInForm = adminSignInForm(setup)
  const signedIn = signedInPages(setup)
  return mountedPages({
    base: setup.base,
    surface: 'console',
    observer: options,
    paths,
    allowed: (route) => adminAllowed(setup, route),
    page: (title, body, status) => adminPage(setup, title, body, status),
    notFound: () => adminPage(setup, 'Not found', html`<h1>Not found</h1><p>There is no such page.</p><p><a href="${paths.affiliates}">Go to the console</a></p>`, 404),
    refusal: (error) => (error instanceof FormError ? adminPage(setup, 'Bad request', html`<h1>Bad request</h1><p class="error" role="alert">${error.message}</p>`, error.status) : null),
    onError: options.onError ?? ((error: unknown) => console.error('affiliate-kit admin console:', error)),
    async answer(call, exchange) {
      const { request, url, route, pageMethod, client } = call
      if (route === '/assets/admin.css') return assetResponse(setup.stylesheet, request, security)
      if (route === '/assets/admin.js') return assetResponse(setup.script, request, security)
      if (route === '/sign-in' && pageMethod === 'GET') {
        const message = url.searchParams.has('signed_out') ? SIGNED_OUT : url.searchParams.has('ended') ? SESSION_ENDED : null
        return signedOut(setup, request, url, { message })
      }
      if (route === '/sign-in') return signInForm(call, exchange)
      return signedIn(call, exchange)
    },
  })
}
