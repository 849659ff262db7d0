// createAdminConsole(program, options): the program owner's console as a Fetch handler mounted
// under a path (default /admin). Sign-in exchanges an API key with every scope for a session of
// its own kind (a portal session never opens it), or the host's authorize hook says who is
// there. Every change goes through the program's public calls and lands in the audit log; every
// POST carries a CSRF token. See docs/admin.md.
import { AffiliateError } from '../core/errors.js'
import { systemClock, type Clock } from '../core/clock.js'
import { hasScope } from '../core/keys.js'
import type { KeyedStateStore } from '../core/keyed-state.js'
import { memoryKeyedState } from '../adapters/memory/keyed-state.js'
import { clientAddress, type ClientInfo } from '../web/client-address.js'
import type { SignInLinkMaker } from '../core/portal-sign-in.js'
import type { Handler } from '../server/fetch-handler.js'
import { cookieHeader, readCookie, type CookieScope } from '../web/cookies.js'
import { ENHANCEMENT_SCRIPT } from '../web/enhancement-script.js'
import { FormError, readForm } from '../web/forms.js'
import { html, type Html } from '../web/html.js'
import { frame, type NavItem } from '../web/layout.js'
import { mountedPages, normalizeBasePath, type PagesHandler } from '../web/mounted-pages.js'
import { assetResponse, pageResponse, redirectResponse, securityHeaders, staticAsset } from '../web/responses.js'
import { csrfTokenFor, csrfTokenMatches, isSecretShaped, newSecret } from '../web/secrets.js'
import type { SessionStore, WithSessionStore } from '../core/session-store.js'
import { webSessions, type SessionPolicy } from '../web/sessions.js'
import { clientWait, subjectLimit, type LimitOption } from '../web/sign-in-limits.js'
import { STYLESHEET } from '../web/stylesheet.js'
import { resolveTheme, type Theme } from '../web/theme.js'
import type { AuditLog, WithAuditLog } from '../core/audit-log.js'
import type { AdminActor, AdminRequest, AdminResult } from './page.js'
import { affiliateEditPage, saveAffiliate } from './pages/affiliate-edit.js'
import { createAffiliate, newAffiliatePage } from './pages/affiliate-new.js'
import { affiliatesPage, changeAffiliateStatus, exportAffiliates } from './pages/affiliates.js'
import { auditLogPage } from './pages/audit-log.js'
import { conversionPage, conversionsPage, exportConversions, refundConversion } from './pages/conversions.js'
import { changeCouponStatus, couponsPage, createCoupon } from './pages/coupons.js'
import { dashboardPage } from './pages/dashboard.js'
import { createKey, createPublishableKey, keysPage, revokeKey } from './pages/keys.js'
import { createPortalLink } from './pages/portal-link.js'
import { exportBatch, markBatchPaid, payoutsPage, recordPayout } from './pages/payouts.js'
import { providerEventsPage, replayProviderEvent } from './pages/provider-events.js'
import { decideReview, reviewPage } from './pages/review.js'
import { settingsPage } from './pages/settings.js'
import { FORM_EXPIRED, KEY_REFUSED, SESSION_ENDED, SIGNED_OUT, signInPage, TOO_MANY_ATTEMPTS } from './pages/sign-in.js'
import { retryDelivery, rotateSecret, sendTest, webhooksPage } from './pages/webhooks.js'
import { adminPaths } from './paths.js'
import type { AdminProgram } from './program.js'
import { refusalOf } from './refusal.js'
import type { ConsoleProviderEvents } from './provider-events.js'
import type { ConsoleWebhooks } from './webhooks.js'

export interface AdminConsoleOptions {
  /** Where console sessions live: the storage object (each adapter carries one) or its `sessions`. Needed unless `authorize` is given. */
  sessions?: SessionStore | WithSessionStore
  /** Where every console action is recorded: the storage object (each adapter carries one) or its `auditLog`. */
  auditLog: AuditLog | WithAuditLog
  /** The webhook dispatcher: retried deliveries are sent at once and test events can be sent. @default none */
  webhooks?: ConsoleWebhooks
  /**
   * Replays provider events from the provider events page: `providerEventReplay({ program, storage })`
   * from affiliate-kit/stripe (or paddle, lemon-squeezy). @default none: no replay button
   */
  providerEvents?: ConsoleProviderEvents
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
}

/** A fetch handler, callable itself and as `fetch`, with `node` for node:http and Express. */
export type AdminConsole = PagesHandler

const SESSION_COOKIE = 'ak_admin'
const PRE_SESSION_COOKIE = 'ak_admin_pre'
const KEY_SUBJECT = /^key:([1-9][0-9]{0,14})$/
const ID = '([1-9][0-9]{0,14})'

type Action = (context: AdminRequest, form: URLSearchParams, id: number) => Promise<AdminResult>
type PageHandler = (context: AdminRequest, id: number) => Promise<AdminResult>

/** The console's POST actions by path pattern; the id in the path, when there is one, is passed on. */
const ACTIONS: Array<[RegExp, Action]> = [
  [/^\/affiliates\/new$/, (context, form) => createAffiliate(context, form)],
  [/^\/affiliates\/export$/, (context, form) => exportAffiliates(context, form)],
  [new RegExp(`^/affiliates/${ID}$`), (context, form, id) => saveAffiliate(context, id, form)],
  [new RegExp(`^/affiliates/${ID}/status$`), (context, form, id) => changeAffiliateStatus(context, id, form)],
  [new RegExp(`^/affiliates/${ID}/portal-link$`), (context, _form, id) => createPortalLink(context, id)],
  [/^\/review$/, (context, form) => decideReview(context, form)],
  [new RegExp(`^/conversions/${ID}/refund$`), (context, form, id) => refundConversion(context, id, form)],
  [/^\/conversions\/export$/, (context, form) => exportConversions(context, form)],
  [/^\/coupons$/, (context, form) => createCoupon(context, form)],
  [new RegExp(`^/coupons/${ID}/status$`), (context, form, id) => changeCouponStatus(context, id, form)],
  [/^\/payouts$/, (context, form) => recordPayout(context, form)],
  [/^\/payouts\/export$/, (context, form) => exportBatch(context, form)],
  [/^\/payouts\/batch$/, (context, form) => markBatchPaid(context, form)],
  [new RegExp(`^/webhooks/deliveries/${ID}/retry$`), (context, _form, id) => retryDelivery(context, id)],
  [new RegExp(`^/webhooks/${ID}/test$`), (context, form, id) => sendTest(context, id, form)],
  [new RegExp(`^/webhooks/${ID}/rotate-secret$`), (context, _form, id) => rotateSecret(context, id)],
  [/^\/keys$/, (context, form) => createKey(context, form)],
  [/^\/keys\/publishable$/, (context, form) => createPublishableKey(context, form)],
  [new RegExp(`^/keys/${ID}/revoke$`), (context, _form, id) => revokeKey(context, id)],
  [new RegExp(`^/provider-events/${ID}/replay$`), (context, _form, id) => replayProviderEvent(context, id)],
]

/** The first route whose pattern matches, with the match (its group 1 is the id, when there is one). */
function matchRoute<T>(routes: Array<[RegExp, T]>, route: string): [RegExpExecArray, T] | null {
  for (const [pattern, handler] of routes) {
    const match = pattern.exec(route)
    if (match) return [match, handler]
  }
  return null
}

export function createAdminConsole(program: AdminProgram, options: AdminConsoleOptions): AdminConsole {
  const { authorize } = options
  if (!options.sessions && !authorize) throw new TypeError('createAdminConsole needs sessions (for the API key sign-in) or an authorize hook')
  const clock = options.clock ?? program.clock ?? systemClock
  const store = options.sessions === undefined ? null : 'sessions' in options.sessions ? options.sessions.sessions : options.sessions
  const sessions = store ? webSessions(store, 'admin', clock, options.session) : null
  const auditLog = 'auditLog' in options.auditLog ? options.auditLog.auditLog : options.auditLog
  const base = normalizeBasePath(options.basePath, '/admin')
  const theme = resolveTheme({ title: 'Admin console', ...options.theme })
  const stylesheet = staticAsset(theme.variables + STYLESHEET, 'text/css; charset=utf-8')
  const script = staticAsset(ENHANCEMENT_SCRIPT, 'text/javascript; charset=utf-8')
  const paths = adminPaths(base, { stylesheet: stylesheet.version, script: script.version })
  const security = securityHeaders(theme.logoOrigin)
  const onError = options.onError ?? ((error: unknown) => console.error('affiliate-kit admin console:', error))
  const cookieScope = (url: URL): CookieScope => ({ path: base || '/', secure: options.secureCookies ?? url.protocol === 'https:' })
  const storageState = [options.sessions, options.auditLog].find((given) => given !== undefined && 'keyedState' in given) as { keyedState: KeyedStateStore } | undefined
  const state = options.state ?? storageState?.keyedState ?? memoryKeyedState()
  const signInsPerClient = subjectLimit(state, { surface: 'admin', projectId: program.projectId }, 'signInPerClient', options.limits?.signInPerClient, { limit: 10, windowSeconds: 300 })

  interface SignedIn {
    actor: AdminActor
    csrf: string
    current: string
  }
  const NAV: Array<[string, string]> = [
    [paths.dashboard, 'Dashboard'],
    [paths.affiliates, 'Affiliates'],
    [paths.coupons, 'Coupons'],
    [paths.review, 'Review'],
    [paths.conversions, 'Conversions'],
    [paths.payouts, 'Payouts'],
    [paths.webhooks, 'Webhooks'],
    [paths.keys, 'API keys'],
    [paths.providerEvents, 'Provider events'],
    [paths.auditLog, 'Audit log'],
    [paths.settings, 'Settings'],
  ]
  const page = (title: string, body: Html, status: number, extra: { cookies?: string[]; signedIn?: SignedIn } = {}) => {
    const signedIn = extra.signedIn
      ? {
          nav: NAV.map(([href, label]): NavItem => ({ href, label, current: href === extra.signedIn!.current })),
          who: extra.signedIn.actor.name,
          csrfToken: extra.signedIn.csrf,
          ...(sessions && !authorize ? { signOutUrl: paths.signOut } : {}),
        }
      : undefined
    return pageResponse(
      frame({ theme, title, stylesheetUrl: paths.stylesheet, scriptUrl: paths.script, ...(signedIn ? { signedIn } : {}), wide: true, body }),
      status,
      { security, cookies: extra.cookies ?? [] },
    )
  }

  /** The console's pages by path pattern; the id in the path, when there is one, is passed on. */
  const PAGES: Array<[RegExp, PageHandler]> = [
    [/^\/$/, (context) => affiliatesPage(context)],
    [/^\/dashboard$/, (context) => dashboardPage(context)],
    [/^\/affiliates\/new$/, (context) => newAffiliatePage(context)],
    [new RegExp(`^/affiliates/${ID}$`), (context, id) => affiliateEditPage(context, id)],
    [/^\/review$/, (context) => reviewPage(context)],
    [/^\/conversions$/, (context) => conversionsPage(context)],
    [new RegExp(`^/conversions/${ID}$`), (context, id) => conversionPage(context, id)],
    [/^\/payouts$/, (context) => payoutsPage(context)],
    [/^\/webhooks$/, (context) => webhooksPage(context)],
    [/^\/keys$/, (context) => keysPage(context)],
    [/^\/provider-events$/, (context) => providerEventsPage(context)],
    [/^\/audit-log$/, (context) => auditLogPage(context, auditLog)],
    [/^\/coupons$/, (context) => couponsPage(context)],
    [/^\/settings$/, (context) => settingsPage(context)],
  ]

  /** The pre-session secret of the sign-in form (and, with the authorize hook, of every form). */
  function preSession(request: Request, url: URL): { secret: string; cookies: string[] } {
    const existing = readCookie(request, PRE_SESSION_COOKIE)
    if (isSecretShaped(existing)) return { secret: existing, cookies: [] }
    const secret = newSecret()
    return { secret, cookies: [cookieHeader(PRE_SESSION_COOKIE, secret, cookieScope(url), authorize ? undefined : 3600)] }
  }

  function signedOut(request: Request, url: URL, state: Parameters<typeof signInPage>[2], status = 200, cookies: string[] = []): Response {
    const pre = preSession(request, url)
    return page('Sign in', signInPage(paths, csrfTokenFor(pre.secret), state), status, { cookies: [...cookies, ...pre.cookies] })
  }

  /** The key's id and name when it is active, of this project, and has every scope. */
  async function adminKey(keyId: number): Promise<AdminActor | null> {
    const key = (await program.keys.list()).find((candidate) => candidate.id === keyId)
    if (!key || key.revokedAt !== null || !hasScope(key.scopes, '*')) return null
    return { id: `key:${key.id}`, name: key.name ? `${key.name} (key ${key.prefix}…)` : `key ${key.prefix}…` }
  }

  async function signIn(request: Request, url: URL, client: ClientInfo | undefined): Promise<Response> {
    const form = await readForm(request)
    const pre = readCookie(request, PRE_SESSION_COOKIE)
    if (!isSecretShaped(pre) || !csrfTokenMatches(pre, form.get('csrf'))) return signedOut(request, url, { error: FORM_EXPIRED }, 403)
    const address = clientAddress(request, client, options.trustProxy === true)
    const wait = await clientWait(signInsPerClient, address, clock.now())
    if (wait !== null) {
      const response = signedOut(request, url, { error: TOO_MANY_ATTEMPTS }, 429)
      response.headers.set('retry-after', String(wait))
      return response
    }
    const verified = await program.verifyApiKey((form.get('key') ?? '').trim())
    const ownKey = verified && verified.projectId === program.projectId ? verified.keyId : null
    const actor = ownKey === null ? null : await adminKey(ownKey)
    if (!actor) {
      // Who tried is the client address; the key typed is never written down, only which of the project's keys it was.
      const from = address ?? 'unknown address'
      await auditLog.record({
        projectId: program.projectId,
        actorId: `client:${from}`,
        actorName: from,
        action: 'console.sign_in_failed',
        target: ownKey === null ? null : `api_key:${ownKey}`,
        detail: ownKey === null ? 'not a key of this project' : 'the key lacks the * scope',
        at: clock.now(),
      })
      return signedOut(request, url, { error: KEY_REFUSED }, 401)
    }
    await sessions!.end(readCookie(request, SESSION_COOKIE))
    const { id } = await sessions!.start(program.projectId, actor.id)
    await auditLog.record({ projectId: program.projectId, actorId: actor.id, actorName: actor.name, action: 'console.sign_in', target: null, detail: null, at: clock.now() })
    const scope = cookieScope(url)
    return redirectResponse(paths.affiliates, {
      security,
      cookies: [cookieHeader(SESSION_COOKIE, id, scope, options.session?.absoluteTimeoutSeconds ?? 43_200), cookieHeader(PRE_SESSION_COOKIE, '', scope, 0)],
    })
  }

  /** Who is there and the secret their CSRF tokens derive from; or the response refusing them. */
  async function identify(request: Request, url: URL): Promise<{ actor: AdminActor; secret: string; cookies: string[] } | Response> {
    if (authorize) {
      const actor = await authorize(request)
      if (!actor || typeof actor.id !== 'string' || typeof actor.name !== 'string') {
        return page('Not allowed', html`<h1>Not allowed</h1><p>You are not allowed to use the admin console.</p>`, 403)
      }
      const pre = preSession(request, url)
      return { actor, secret: pre.secret, cookies: pre.cookies }
    }
    const sessionId = readCookie(request, SESSION_COOKIE)
    const session = await sessions!.resume(sessionId)
    const keyId = session && session.projectId === program.projectId ? KEY_SUBJECT.exec(session.subject)?.[1] : undefined
    const actor = keyId === undefined ? null : await adminKey(Number(keyId))
    if (!session || !actor) {
      if (session) await sessions!.end(sessionId)
      const cookies = sessionId ? [cookieHeader(SESSION_COOKIE, '', cookieScope(url), 0)] : []
      if (request.method === 'GET') return redirectResponse(paths.signIn + (sessionId ? '?ended=1' : ''), { security, cookies })
      return signedOut(request, url, { message: SESSION_ENDED }, 401, cookies)
    }
    return { actor, secret: sessionId!, cookies: [] }
  }

  async function signedInRoute(request: Request, url: URL, route: string): Promise<Response> {
    const who = await identify(request, url)
    if (who instanceof Response) return who
    const { actor, secret, cookies } = who
    const csrf = csrfTokenFor(secret)
    const context: AdminRequest = {
      request,
      url,
      program,
      actor,
      paths,
      csrf,
      webhooks: options.webhooks ?? null,
      providerEvents: options.providerEvents ?? null,
      portal: options.portal ?? null,
      audit: async (action, target, detail = null) => {
        await auditLog.record({ projectId: program.projectId, actorId: actor.id, actorName: actor.name, action, target, detail, at: clock.now() })
      },
    }
    const section = route.split('/')[1]
    const current = section === '' || section === 'affiliates' ? paths.affiliates : `${base}/${section}`
    const signedIn: SignedIn = { actor, csrf, current }
    let result: AdminResult
    try {
      if (request.method === 'POST') {
        const form = await readForm(request)
        if (!csrfTokenMatches(secret, form.get('csrf'))) {
          return page('Form expired', html`<h1>Form expired</h1><p class="error" role="alert">${FORM_EXPIRED}</p>`, 403, { signedIn, cookies })
        }
        if (route === '/sign-out') {
          await sessions!.end(readCookie(request, SESSION_COOKIE))
          return redirectResponse(`${paths.signIn}?signed_out=1`, { security, cookies: [cookieHeader(SESSION_COOKIE, '', cookieScope(url), 0)] })
        }
        const [match, run] = matchRoute(ACTIONS, route)!
        result = await run(context, form, Number(match[1] ?? 0))
      } else {
        const [match, show] = matchRoute(PAGES, route)!
        result = await show(context, Number(match[1] ?? 0))
      }
    } catch (error) {
      if (!(error instanceof AffiliateError) && !(error instanceof FormError)) throw error
      const { status, message } = error instanceof FormError ? error : refusalOf(error)
      const title = status === 404 ? 'Not found' : 'Not done'
      return page(title, html`<h1>${title}</h1><p class="error" role="alert">${message}</p><p>Nothing was changed.</p><p><a href="${current}">Go back</a></p>`, status, { signedIn, cookies })
    }
    if ('redirect' in result) return redirectResponse(result.redirect, { security, cookies })
    if ('download' in result) {
      const { filename, contentType, body } = result.download
      const headers = new Headers({ ...security, 'content-type': contentType, 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' })
      return new Response(body, { status: 200, headers })
    }
    return page(result.title, result.body, result.status ?? 200, { signedIn, cookies })
  }

  /** Which methods each route answers; anything else under the base path is a 404. */
  function allowed(route: string): string[] | null {
    if (route === '/assets/admin.css' || route === '/assets/admin.js') return ['GET']
    if (route === '/sign-in') return authorize ? null : ['GET', 'POST']
    if (route === '/sign-out') return authorize ? null : ['POST']
    const methods = [...(matchRoute(PAGES, route) ? ['GET'] : []), ...(matchRoute(ACTIONS, route) ? ['POST'] : [])]
    return methods.length === 0 ? null : methods
  }

  return mountedPages({
    base,
    allowed,
    page,
    notFound: () => page('Not found', html`<h1>Not found</h1><p>There is no such page.</p><p><a href="${paths.affiliates}">Go to the console</a></p>`, 404),
    refusal: (error) => (error instanceof FormError ? page('Bad request', html`<h1>Bad request</h1><p class="error" role="alert">${error.message}</p>`, error.status) : null),
    onError,
    async answer(request, url, route, method, client) {
      if (route === '/assets/admin.css') return assetResponse(stylesheet, request, security)
      if (route === '/assets/admin.js') return assetResponse(script, request, security)
      if (route === '/sign-in' && method === 'GET') {
        const message = url.searchParams.has('signed_out') ? SIGNED_OUT : url.searchParams.has('ended') ? SESSION_ENDED : null
        return signedOut(request, url, { message })
      }
      if (route === '/sign-in') return signIn(request, url, client)
      return signedInRoute(request, url, route)
    },
  })
}
