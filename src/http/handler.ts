// createHandler(program, options): the REST API of docs/api.md as a fetch handler
// `(Request) => Promise<Response>`: auth and scopes, rate limit, body limits, JSON parsing,
// Idempotency-Key, routing, and the error forms of both shapes. No input produces a 500.
// Optionally: a log line and metrics per request, and the operator endpoints (operations.ts).
import { openApiDocument, type ShapeName } from './openapi.js'
import type { AffiliateProgram } from '../core/program.js'
import { hasScope, type VerifiedKey } from '../core/keys.js'
import { fromFetchRequest, toFetchResponse, type IncomingRequest, type OutgoingResponse, type Respond } from '../server/bodies.js'
import { errorInfo, GENERIC_ERROR, HttpError, snakeField, type ErrorInfo } from '../server/errors.js'
import type { FieldNames } from '../core/errors.js'
import type { SignInLinkMaker } from '../core/portal-sign-in.js'
import { parseJson, readBody } from './json-body.js'
import { checkIdempotencyKey, idempotencyFingerprint, withIdempotency, type StoredResponse } from './idempotency.js'
import { createRateLimiter, type RateLimitOptions } from '../server/rate-limit.js'
import type { KeyedStateStore } from '../core/keyed-state.js'
import { memoryKeyedState } from '../adapters/memory/keyed-state.js'
import { errorFields, type Logger } from '../ops/logger.js'
import { createMetrics, type Metrics } from '../ops/metrics.js'
import { OUTSIDE, recordRequest, UNMATCHED } from '../ops/request-log.js'
import { logThrottle, type LogThrottle } from '../ops/log-throttle.js'
import { operationAnswers, type OperationAnswer } from './operations.js'
import { serveNode } from '../server/node.js'
import type { FetchHandler, Handler } from '../server/fetch-handler.js'
import SHAPES from './routes/index.js'
import { parseBody, parseQuery, type RouteDef, type RouteResult } from './route.js'
import { Router } from '../server/router.js'
import { parseTarget } from '../server/target.js'
import { webhookTestRoute, type TestDeliverySender } from './webhook-test.js'
import type { PayoutRunService } from './routes/payouts.js'
import type { ProviderEventReplayer } from './routes/provider-events.js'
import type { AuditLog, WithAuditLog } from '../core/audit-log.js'

export interface HandlerOptions {
  /**
   * Where Idempotency-Key claims and rate-limit counters live: pass your storage's
   * (`storage.keyedState`) so that every process serving the API shares them. @default a store in
   * this handler's own memory (enough for one process)
   */
  state?: KeyedStateStore
  /**
   * The webhook dispatcher (createWebhookDispatcher) that sends test deliveries
   * (POST /api/project/{projectId}/webhooks/{webhookId}/test). @default none: that route answers 501
   */
  webhooks?: TestDeliverySender
  /**
   * Replays provider events (POST /provider-events/{id}/replay): `providerEventReplay({ program,
   * storage })` from affiliate-kit/stripe (or paddle, lemon-squeezy). @default none: that route answers 501
   */
  providerEvents?: ProviderEventReplayer
  /**
   * Runs payout runs (POST /payouts/runs) through PayPal Payouts and Stripe Connect: the standalone
   * server hands in its configured providers (docs/payouts.md "Payout runs"). @default none: that route answers 501
   */
  payoutRuns?: PayoutRunService
  /** Path prefix of every route; the webhook test route lives at its parent (`/api/project/...`). @default '/api/v1' */
  basePath?: string
  /** Request and response shapes (docs/api.md "Base path and shapes"). @default 'primary' */
  shape?: ShapeName
  /** Per-key rate limit; false turns it off. @default { limit: 100, windowSeconds: 60 } */
  rateLimit?: RateLimitOptions | false
  /** Largest accepted request body in bytes; larger is 413. @default 1048576 (1 MiB) */
  maxBodyBytes?: number
  /**
   * Called with every unexpected error (answered with a generic 500); `operation` is the route's
   * pattern (`POST /api/v1/conversions`). @default logger.error with the error's class, message,
   * code and stack and the operation (never the request's body or headers), or console.error without a logger
   */
  onError?: (error: unknown, request: { method: string; url: string; operation: string }) => void
  /** Gets one line per request (method, route pattern, status, duration in ms; 5xx as errors). @default none */
  logger?: Logger
  /** Serves GET /healthz (liveness) and GET /readyz (503 while the database is unreachable) at the server root, without a key. @default false */
  health?: boolean
  /**
   * Serves GET /metrics (Prometheus text) at the server root, without a key: requests by route and
   * status, latency, the outbox backlog. Pass a Metrics of your own to share it with the webhook
   * dispatcher (createWebhookDispatcher's `metrics`). @default false
   */
  metrics?: boolean | Metrics
  /**
   * The admin console's audit log, served at GET /audit-log (docs/admin.md): the storage object
   * (each adapter carries one) or its `auditLog`. @default none: the route answers 404
   */
  auditLog?: AuditLog | WithAuditLog
  /**
   * The affiliate portal (createPortal from affiliate-kit/portal, with its publicUrl) that makes the
   * one-time sign-in links of POST /affiliates/{email}/portal-link. @default none: that route answers 409
   */
  portal?: SignInLinkMaker
}


/** Which route a request reached, for its log line and metrics. */
interface Trace {
  route: string
  started: number
  /** /healthz, /readyz or /metrics: polled often, so logged at debug level. */
  operation?: true
}

function normalizeBase(path: string): string {
  const trimmed = `/${path}`.replace(/\/+/g, '/').replace(/\/$/, '')
  return trimmed
}

/** Strips `base` only at a "/" boundary; null when path is not under it. */
function under(path: string, base: string): string | null {
  if (base === '') return path
  if (path === base) return '/'
  return path.startsWith(`${base}/`) ? path.slice(base.length) : null
}

/** What a handler holds, built once by createHandler from its options. */
interface HandlerState {
  program: AffiliateProgram
  basePath: string
  apiRoot: string
  shape: ShapeName
  maxBodyBytes: number
  logger: Logger | null
  metrics: Metrics | null
  auditLog: AuditLog | null
  onError: NonNullable<HandlerOptions['onError']>
  /** Requests answered 503 / 507 for the database: logged once per 10 s with a count. */
  unavailable: LogThrottle
  operations: Map<string, OperationAnswer> | null
  state: KeyedStateStore
  limiter: ReturnType<typeof createRateLimiter>
  webhooks: TestDeliverySender | null
  providerEvents: ProviderEventReplayer | null
  payoutRuns: PayoutRunService | null
  portal: SignInLinkMaker | null
  verifyApiKey: ReturnType<AffiliateProgram['keyVerifier']>
  renderError: (info: ErrorInfo) => unknown
  router: Router<RouteDef>
  rootRouter: Router<RouteDef>
  routeLabels: Map<RouteDef, string>
  fieldNames: Map<RouteDef, FieldNames>
  openApiText?: string
}

function handlerState(program: AffiliateProgram, options: HandlerOptions): HandlerState {
  const basePath = normalizeBase(options.basePath ?? '/api/v1')
  const apiRoot = basePath.replace(/\/v\d+$/, '')
  const shape = options.shape ?? 'primary'
  const logger = options.logger ?? null
  const metrics = options.metrics === true ? createMetrics() : options.metrics || null
  const onError =
    options.onError ??
    (logger
      ? (error: unknown, request: { method: string; operation: string }) => logger.error('unexpected error', { operation: request.operation, ...errorFields(error) })
      : (error: unknown) => console.error('affiliate-kit: unexpected error', error))
  const state = options.state ?? memoryKeyedState()
  const { routes, error } = SHAPES[shape]
  const router = new Router<RouteDef>()
  for (const route of routes) router.add(route.method, route.path, route)
  const routeLabels = new Map<RouteDef, string>(routes.map((route) => [route, `${basePath}${route.path}`]))
  routeLabels.set(webhookTestRoute, `${apiRoot}${webhookTestRoute.path}`)
  const fieldNames = new Map<RouteDef, FieldNames>()
  for (const route of routes) {
    const names = route.fieldNames
    if (names) fieldNames.set(route, (field) => names[field] ?? snakeField(field))
  }
  return {
    program,
    basePath,
    apiRoot,
    shape,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    logger,
    metrics,
    auditLog: options.auditLog === undefined ? null : 'auditLog' in options.auditLog ? options.auditLog.auditLog : options.auditLog,
    onError,
    unavailable: logThrottle(10_000),
    operations: operationAnswers(program, { health: options.health === true, metrics, logger }),
    state,
    limiter: createRateLimiter(options.rateLimit, state),
    webhooks: options.webhooks ?? null,
    providerEvents: options.providerEvents ?? null,
    payoutRuns: options.payoutRuns ?? null,
    portal: options.portal ?? null,
    verifyApiKey: program.keyVerifier(),
    renderError: error,
    router,
    rootRouter: new Router<RouteDef>().add(webhookTestRoute.method, webhookTestRoute.path, webhookTestRoute),
    routeLabels,
    fieldNames,
  }
}

/** The response, its JSON Content-Type added to `headers` (each request's own object). */
function json(status: number, body: string | null, headers: Record<string, string>): OutgoingResponse {
  if (body !== null) headers['Content-Type'] = 'application/json; charset=utf-8'
  return { status, headers, body }
}

/** A route's answer: JSON, or text of its own type (a CSV export), never cached. */
function storedAnswer(stored: StoredResponse, headers: Record<string, string>): OutgoingResponse {
  if (stored.contentType) return { status: stored.status, headers: { ...headers, 'Content-Type': stored.contentType, 'Cache-Control': 'no-store' }, body: stored.body }
  return json(stored.status, stored.status === 204 ? null : stored.body, headers)
}

function toStored(result: RouteResult): StoredResponse {
  if (result.text) return { status: result.status, body: result.text.content, contentType: result.text.contentType }
  return { status: result.status, body: result.body === undefined ? '' : JSON.stringify(result.body) }
}

function errorStored(handler: HandlerState, info: ErrorInfo): StoredResponse {
  return { status: info.status, body: JSON.stringify(handler.renderError(info)) }
}

async function authenticate(handler: HandlerState, request: IncomingRequest): Promise<VerifiedKey> {
  const header = request.header('authorization')
  const match = header ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null
  if (!match) throw new HttpError('authentication_error', 'missing API key: send Authorization: Bearer rgk_...')
  const key = await handler.verifyApiKey(match[1]!)
  if (!key) throw new HttpError('authentication_error', 'invalid or revoked API key')
  return key
}

/** Health, readiness, metrics and the OpenAPI document: answered before authentication, or null. */
function publicAnswer(handler: HandlerState, request: IncomingRequest, path: string, headers: Record<string, string>, trace: Trace | null): Promise<OutgoingResponse> | OutgoingResponse | null {
  const operation = handler.operations !== null && request.method === 'GET' ? handler.operations.get(path) : undefined
  if (operation) {
    if (trace) {
      trace.route = path
      trace.operation = true
    }
    return operation()
  }
  if (under(path, handler.basePath) === '/openapi.json' && request.method === 'GET') {
    // Public, like any API description: no key, no rate limit.
    if (trace) trace.route = `${handler.basePath}/openapi.json`
    handler.openApiText ??= JSON.stringify(openApiDocument(handler.basePath, handler.shape))
    return json(200, handler.openApiText, headers)
  }
  return null
}

/** The route a request reached and its key, once authenticated, rate-limited and scope-checked. */
async function admit(handler: HandlerState, request: IncomingRequest, path: string, headers: Record<string, string>, trace: Trace | null) {
  const inner = under(path, handler.basePath)
  const rootInner = inner === null ? under(path, handler.apiRoot) : null
  if (inner === null && (rootInner === null || !rootInner.startsWith('/project/'))) {
    // Not under the API's path at all (a browser's /favicon.ico): noise, not an API 404.
    if (trace && rootInner === null) trace.route = OUTSIDE
    throw new HttpError('not_found', `no route for ${request.method} ${path}`)
  }
  const key = await authenticate(handler, request)
  if (handler.limiter) {
    const outcome = await handler.limiter(`key:${key.keyId}`, handler.program.clock.now().getTime())
    Object.assign(headers, outcome.headers)
    if (!outcome.allowed) throw new HttpError('rate_limit_exceeded', 'rate limit exceeded; retry after the Retry-After seconds')
  }
  const { route, params } = inner !== null ? handler.router.match(request.method, inner) : handler.rootRouter.match(request.method, rootInner!)
  if (trace) trace.route = handler.routeLabels.get(route)!
  if (params.projectId !== undefined && params.projectId !== key.projectId) throw new HttpError('not_found', 'project not found')
  if (key.publishable) throw new HttpError('permission_denied', 'publishable keys (rgp_) may only record clicks and signups through the tracking handler')
  if (!hasScope(key.scopes, route.scope)) throw new HttpError('permission_denied', `this API key lacks the ${route.scope} scope`)
  return { key, route, params }
}

/** Runs a route on parsed input; the errors the program and the route raise become its error form. */
async function runRoute(handler: HandlerState, route: RouteDef, key: VerifiedKey, params: Record<string, string>, query: URLSearchParams, input: unknown, accept: string): Promise<StoredResponse> {
  try {
    const ctx = {
      api: handler.program.project(key.projectId),
      webhooks: handler.webhooks,
      providerEvents: handler.providerEvents,
      payoutRuns: handler.payoutRuns,
      projectId: key.projectId,
      params,
      query: route.query ? parseQuery(route.query, query) : undefined,
      body: route.body ? parseBody(route.body, input) : undefined,
      auditLog: handler.auditLog,
      portal: handler.portal,
      accept,
    }
    return toStored(await route.run(ctx))
  } catch (error) {
    const info = errorInfo(error, handler.fieldNames.get(route))
    // A 503 or 507 (the database) carries Retry-After, which a stored answer has no room for.
    if (!info || info.status >= 500) throw error
    return errorStored(handler, info)
  }
}

async function serve(handler: HandlerState, request: IncomingRequest, headers: Record<string, string>, trace: Trace | null): Promise<OutgoingResponse> {
  const { path, query } = parseTarget(request.target)
  const early = publicAnswer(handler, request, path, headers, trace)
  if (early) return early
  const { key, route, params } = await admit(handler, request, path, headers, trace)
  const raw = route.body ? await readBody(request, handler.maxBodyBytes) : ''
  const input = route.body ? parseJson(raw) : undefined
  const run = () => runRoute(handler, route, key, params, query, input, request.header('accept') ?? '')
  const idempotencyKey = request.header('idempotency-key')
  if (route.method === 'POST' && idempotencyKey !== null && !route.secretAnswer && !route.writesNothing) {
    const claim = {
      projectId: key.projectId,
      key: checkIdempotencyKey(idempotencyKey),
      fingerprint: idempotencyFingerprint(request.method, path, raw),
      now: handler.program.clock.now(),
    }
    const stored = await withIdempotency(handler.state, claim, run)
    if (stored.replayed) headers['Idempotent-Replayed'] = 'true'
    return storedAnswer(stored, headers)
  }
  return storedAnswer(await run(), headers)
}

/** Serves a request; an unexpected error goes to onError and is answered with a generic 500. */
async function answer(handler: HandlerState, request: IncomingRequest, trace: Trace | null): Promise<OutgoingResponse> {
  const headers: Record<string, string> = {}
  try {
    return await serve(handler, request, headers, trace)
  } catch (error) {
    let info = errorInfo(error)
    if (info && info.status >= 500) {
      const logged = handler.unavailable.event(info.code)
      if (logged) handler.logger?.warn(`${info.message.split(';')[0]}: answering ${info.status} with Retry-After`, { status: info.status, requests: logged.count })
    }
    if (!info) {
      try {
        handler.onError(error, { method: request.method, url: request.url(), operation: `${request.method} ${trace?.route ?? UNMATCHED}` })
      } catch {
        // A failing logger must not turn into an unanswered request.
      }
      info = GENERIC_ERROR
    }
    const stored = errorStored(handler, info)
    return json(stored.status, stored.body, { ...headers, ...info.headers })
  }
}

/** Answers with the request's log line and metrics. */
async function observed(handler: HandlerState, request: IncomingRequest): Promise<OutgoingResponse> {
  const trace: Trace = { route: UNMATCHED, started: performance.now() }
  const response = await answer(handler, request, trace)
  const ms = performance.now() - trace.started
  const line = { surface: 'api', method: request.method, route: trace.route, status: response.status, ms, ...(trace.operation || trace.route === OUTSIDE ? { quiet: true } : {}) } as const
  recordRequest(handler.logger, handler.metrics, line)
  return response
}

export function createHandler(program: AffiliateProgram, options: HandlerOptions = {}): Handler {
  const handler = handlerState(program, options)
  // Without a logger or metrics, requests go straight to answer(): nothing timed, nothing traced.
  const respond: Respond =
    handler.logger === null && handler.metrics === null ? (request) => answer(handler, request, null) : (request) => observed(handler, request)
  const fetch: FetchHandler = async (request) => toFetchResponse(await respond(fromFetchRequest(request)))
  return Object.assign(fetch, { fetch, node: serveNode(respond) })
}
