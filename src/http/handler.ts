// createHandler(program, options): the REST API of docs/api.md as a fetch handler
// `(Request) => Promise<Response>`: auth and scopes, rate limit, body limits, JSON parsing,
// Idempotency-Key, routing, and the error forms of both shapes. No input produces a 500.
// Optionally: a log line and metrics per request, and the operator endpoints (operations.ts).
// Its pipeline (server/pipeline.ts): observe → error answer → target → public answers → within
// the API → key → rate limit, then the route.
import { openApiDocument, type ShapeName } from './openapi.js'
import type { AffiliateProgram } from '../core/program.js'
import { hasScope, type VerifiedKey } from '../core/project/keys.js'
import { fromFetchRequest, toFetchResponse, type IncomingRequest, type OutgoingResponse, type Respond } from '../server/bodies.js'
import { errorInfo, GENERIC_ERROR, HttpError, snakeField, type ErrorInfo } from '../server/errors.js'
import type { FieldNames } from '../core/model/errors.js'
import type { SignInLinkMaker } from '../core/affiliates/portal-sign-in.js'
import { parseJson, readBody } from './json-body.js'
import { checkIdempotencyKey, idempotencyFingerprint, withIdempotency, type StoredResponse } from './idempotency.js'
import { createRateLimiter, type RateLimitOptions } from '../server/rate-limit.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import { memoryKeyedState } from '../adapters/memory/keyed-state.js'
import { errorFields, type Logger } from '../ops/logger.js'
import { createMetrics, type Metrics } from '../ops/metrics.js'
import { OUTSIDE } from '../ops/request-log.js'
import { logThrottle, type LogThrottle } from '../ops/log-throttle.js'
import { operationAnswers, type OperationAnswer } from './operations.js'
import { serveNode } from '../server/node.js'
import type { FetchHandler, Handler } from '../server/fetch-handler.js'
import SHAPES from './routes/index.js'
import { parseBody, parseQuery, type RouteDef, type RouteResult } from './route.js'
import { Router } from '../server/router.js'
import { parseTarget } from '../server/target.js'
import { errorAnswer, pipeline, type Exchange, type Step } from '../server/pipeline.js'
import { observe } from '../server/observe.js'
import { keyAuthentication, type KeyedRequest } from '../server/key-authentication.js'
import { rateLimited } from '../server/rate-limited.js'
import { webhookTestRoute, type TestDeliverySender } from './webhook-test.js'
import type { PayoutRunService } from './routes/payouts.js'
import type { ProviderEventReplayer } from './routes/provider-events.js'
import type { AuditLog, WithAuditLog } from '../core/ports/audit-log.js'

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
   * storage })` from affiliate-kit/stripe (or any provider's entry: paddle, lemon-squeezy, polar, braintree, chargebee, recurly). @default none: that route answers 501
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
  /** Gets one line per request (method, route pattern, status, duration in ms, request id; 5xx as errors). @default none */
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


/** A request to the API as its steps learn it: its path, then its key. */
interface ApiCall extends KeyedRequest {
  incoming: IncomingRequest
  path: string
  query: URLSearchParams
  /** The path below the base path, or below the API root for the routes there (`/project/...`). */
  inner: string
  atRoot: boolean
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

/** A route's answer: JSON, or text or bytes of their own type (a CSV export, an image), never cached. */
function storedAnswer(stored: StoredResponse, headers: Record<string, string>): OutgoingResponse {
  if (stored.contentType) {
    const body = stored.base64 ? Buffer.from(stored.body, 'base64') : stored.body
    return { status: stored.status, headers: { ...headers, 'Content-Type': stored.contentType, 'Cache-Control': 'no-store' }, body }
  }
  return json(stored.status, stored.status === 204 ? null : stored.body, headers)
}

function toStored(result: RouteResult): StoredResponse {
  if (result.text) return { status: result.status, body: result.text.content, contentType: result.text.contentType }
  if (result.bytes) return { status: result.status, body: Buffer.from(result.bytes.content).toString('base64'), contentType: result.bytes.contentType, base64: true }
  return { status: result.status, body: result.body === undefined ? '' : JSON.stringify(result.body) }
}

function errorStored(handler: HandlerState, info: ErrorInfo): StoredResponse {
  return { status: info.status, body: JSON.stringify(handler.renderError(info)) }
}

/** Health, readiness, metrics and the OpenAPI document: answered before authentication. */
function publicAnswers(handler: HandlerState): Step<ApiCall, OutgoingResponse> {
  return (call, exchange, next) => {
    const operation = handler.operations !== null && call.method === 'GET' ? handler.operations.get(call.path) : undefined
    if (operation) {
      exchange.route = call.path
      exchange.quiet = true
      return Promise.resolve(operation())
    }
    if (under(call.path, handler.basePath) === '/openapi.json' && call.method === 'GET') {
      // Public, like any API description: no key, no rate limit.
      exchange.route = `${handler.basePath}/openapi.json`
      handler.openApiText ??= JSON.stringify(openApiDocument(handler.basePath, handler.shape))
      return Promise.resolve(json(200, handler.openApiText, exchange.headers))
    }
    return next(call, exchange)
  }
}

/** Refuses a path outside the API (a browser's /favicon.ico: noise, not an API 404); else notes the path below it. */
function withinApi(handler: HandlerState): Step<ApiCall, OutgoingResponse> {
  return (call, exchange, next) => {
    const inner = under(call.path, handler.basePath)
    const rootInner = inner === null ? under(call.path, handler.apiRoot) : null
    if (inner === null && (rootInner === null || !rootInner.startsWith('/project/'))) {
      if (rootInner === null) {
        exchange.route = OUTSIDE
        exchange.quiet = true
      }
      throw new HttpError('not_found', `no route for ${call.method} ${call.path}`)
    }
    call.inner = inner ?? rootInner!
    call.atRoot = inner === null
    return next(call, exchange)
  }
}

/** The route a request reached, once its key may call it. */
function admit(handler: HandlerState, call: ApiCall, exchange: Exchange) {
  const key = call.key!
  const { route, params } = (call.atRoot ? handler.rootRouter : handler.router).match(call.method, call.inner)
  exchange.route = handler.routeLabels.get(route)!
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

/** The route, its body read and parsed, run once (or answered from its Idempotency-Key). */
async function serve(handler: HandlerState, call: ApiCall, exchange: Exchange): Promise<OutgoingResponse> {
  const { incoming: request } = call
  const { headers } = exchange
  const { key, route, params } = admit(handler, call, exchange)
  const raw = route.body ? await readBody(request, handler.maxBodyBytes) : ''
  const input = route.body ? parseJson(raw) : undefined
  const run = () => runRoute(handler, route, key, params, call.query, input, request.header('accept') ?? '')
  const idempotencyKey = request.header('idempotency-key')
  if (route.method === 'POST' && idempotencyKey !== null && !route.secretAnswer && !route.writesNothing) {
    const claim = {
      projectId: key.projectId,
      key: checkIdempotencyKey(idempotencyKey),
      fingerprint: idempotencyFingerprint(request.method, call.path, raw),
      now: handler.program.clock.now(),
    }
    const stored = await withIdempotency(handler.state, claim, run)
    if (stored.replayed) headers['Idempotent-Replayed'] = 'true'
    return storedAnswer(stored, headers)
  }
  return storedAnswer(await run(), headers)
}

/** An error as the shape's error form; an unexpected one goes to onError and is answered with a generic 500. */
function apiError(handler: HandlerState, error: unknown, call: ApiCall, exchange: Exchange): OutgoingResponse {
  let info = errorInfo(error)
  if (info && info.status >= 500) {
    const logged = handler.unavailable.event(info.code)
    if (logged) handler.logger?.warn(`${info.message.split(';')[0]}: answering ${info.status} with Retry-After`, { status: info.status, requests: logged.count })
  }
  if (!info) {
    try {
      handler.onError(error, { method: call.method, url: call.incoming.url(), operation: `${call.method} ${exchange.route}` })
    } catch {
      // A failing logger must not turn into an unanswered request.
    }
    info = GENERIC_ERROR
  }
  const stored = errorStored(handler, info)
  return json(stored.status, stored.body, { ...exchange.headers, ...info.headers })
}

/** The request's path and query; a malformed target is refused (400). */
const located: Step<ApiCall, OutgoingResponse> = (call, exchange, next) => {
  const { path, query } = parseTarget(call.target)
  call.path = path
  call.query = query
  return next(call, exchange)
}

const NO_QUERY = new URLSearchParams()

export function createHandler(program: AffiliateProgram, options: HandlerOptions = {}): Handler {
  const handler = handlerState(program, options)
  const run = pipeline<ApiCall, OutgoingResponse>(
    [
      observe('api', handler),
      errorAnswer<ApiCall, OutgoingResponse>((error, call, exchange) => apiError(handler, error, call, exchange)),
      located,
      publicAnswers(handler),
      withinApi(handler),
      keyAuthentication(handler.verifyApiKey),
      rateLimited(handler.limiter, (call: ApiCall) => `key:${call.key!.keyId}`, () => program.clock.now().getTime()),
    ],
    (call, exchange) => serve(handler, call, exchange),
  )
  const respond: Respond = (request) =>
    run({ incoming: request, method: request.method, target: request.target, header: request.header, key: null, path: '', query: NO_QUERY, inner: '', atRoot: false })
  const fetch: FetchHandler = async (request) => toFetchResponse(await respond(fromFetchRequest(request)))
  return Object.assign(fetch, { fetch, node: serveNode(respond) })
}
