// One answered request as a log line and metrics, the same for every surface of a server: the
// REST API, payment-provider events, referral links, the affiliate portal and the admin console.
// Only a route pattern is recorded, never the raw path (emails, codes, tokens) or a query.
import type { Logger } from './logger.js'
import type { Metrics } from './metrics.js'

/** Which part of the server answered: `api`, `provider`, `tracking`, `portal` or `console`. */
export type Surface = 'api' | 'provider' | 'tracking' | 'portal' | 'console'

/** The route label of requests refused before a route was found (401, 404, 429...). */
export const UNMATCHED = 'unmatched'

/**
 * The route label of requests for a path of no surface at all (`/favicon.ico`, `/robots.txt`,
 * `/`): browsers' and scanners' noise, answered 404 and logged at debug level.
 */
export const OUTSIDE = 'outside'

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export interface AnsweredRequest {
  surface: Surface
  method: string
  /** The route pattern (`/api/v1/affiliates/:email`), or UNMATCHED. */
  route: string
  status: number
  ms: number
  /** The request's id (server/observe.ts): its log line's `request_id`. */
  requestId: string
  /** Polled often (/healthz, /readyz, /metrics, assets), or noise outside every surface: logged at debug level. */
  quiet?: boolean
}

/** Logs (5xx as errors) and counts one request; a failing logger or registry never breaks a request. */
export function recordRequest(logger: Logger | null | undefined, metrics: Metrics | null | undefined, request: AnsweredRequest): void {
  const method = KNOWN_METHODS.has(request.method) ? request.method : 'OTHER'
  const { surface, route, status } = request
  try {
    metrics?.observeRequest(method, route, status, request.ms / 1000, surface)
    if (!logger) return
    const fields = { surface, method, route, status, duration_ms: Math.round(request.ms * 100) / 100, request_id: request.requestId }
    if (status >= 500) logger.error('request', fields)
    else if (request.quiet) logger.debug('request', fields)
    else logger.info('request', fields)
  } catch {
    // A failing logger must not turn into an unanswered request.
  }
}
