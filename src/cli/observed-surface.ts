// The standalone server's surfaces beside the API (payment-provider events, referral links, the
// affiliate portal, the admin console) with one request log line and metrics per answered
// request, like the API's own (ops/request-log.ts). Each surface names its routes by pattern:
// codes, ids, emails and tokens never reach the log, and made-up paths cannot grow the metrics
// (a 404 is `unmatched`).
import type { NodeHandler } from '../server/node.js'
import type { Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import { recordRequest, UNMATCHED, type Surface } from '../ops/request-log.js'

/** Where the server's request records go. */
export interface RequestObserver {
  logger: Logger
  metrics?: Metrics | undefined
}

/** The route pattern of a request's path (no query), given the status it was answered with. */
export type RouteOf = (path: string, status: number) => string

/** `node`, recording each request once its answer is sent; `node` itself without an observer. */
export function observed(node: NodeHandler, surface: Surface, routeOf: RouteOf, observer: RequestObserver | undefined): NodeHandler {
  if (!observer) return node
  return (req, res, next) => {
    const started = performance.now()
    res.once('finish', () => {
      const path = (req.url ?? '/').split('?')[0]!
      const status = res.statusCode
      recordRequest(observer.logger, observer.metrics, { surface, method: req.method ?? 'GET', route: routeOf(path, status), status, ms: performance.now() - started })
    })
    return node(req, res, next)
  }
}

/**
 * Routes of pages (the portal, the console): a path's segments that occur in the pages' own
 * paths stay, any other (an id) becomes `:id`. `paths` is the pages' paths object (portalPaths,
 * adminPaths): its strings, and its functions called with an id.
 */
export function pageRoutes(paths: object): RouteOf {
  const words = new Set<string>()
  for (const value of Object.values(paths) as unknown[]) {
    const path = typeof value === 'function' ? (value as (id: number) => unknown)(0) : value
    if (typeof path !== 'string') continue
    for (const segment of path.split('?')[0]!.split('/')) if (!/^\d+$/.test(segment)) words.add(segment)
  }
  return (path, status) =>
    status === 404
      ? UNMATCHED
      : path
          .split('/')
          .map((segment) => (words.has(segment) ? segment : ':id'))
          .join('/')
}

/** Routes of referral links under `prefix` (tracking/handler.ts): `<prefix>/:code`, `<prefix>/:partner_slug/:code`, `<prefix>/-/<name>`. */
export function trackingRoutes(prefix: string): RouteOf {
  return (path, status) => {
    const segments = path.slice(prefix.length).split('/').filter((segment) => segment !== '')
    if (status === 404 || segments.length === 0) return UNMATCHED
    if (segments[0] === '-') return segments.length === 2 && /^[a-z][a-z.-]*$/.test(segments[1]!) ? `${prefix}/-/${segments[1]}` : UNMATCHED
    if (segments.length === 1) return `${prefix}/:code`
    return segments.length === 2 ? `${prefix}/:partner_slug/:code` : `${prefix}/:code/...`
  }
}
