// The pipeline's first step on every surface: the request's id, then, once it is answered, its
// log line and metrics (ops/request-log.ts), with the same fields whichever surface answered. The
// route is the pattern a later step names (exchange.route), never the raw path.
import { randomUUID } from 'node:crypto'
import type { Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import { recordRequest, type Surface } from '../ops/request-log.js'
import type { RequestLine, Step } from './pipeline.js'

/** Where a surface's request records go. */
export interface RequestObserver {
  logger?: Logger | null | undefined
  metrics?: Metrics | null | undefined
}

/** An X-Request-Id a proxy in front set, kept when it is a plain token; anything else is replaced. */
const GIVEN_ID = /^[A-Za-z0-9._:-]{8,128}$/

function requestId(request: RequestLine): string {
  const given = request.header('x-request-id')
  return given !== null && GIVEN_ID.test(given) ? given : randomUUID()
}

/**
 * Records each request of `surface`: a log line (5xx as errors, quiet ones at debug level) and the
 * request metrics; an error no step answered is recorded as the 500 it becomes. Null (the step
 * left out) without a logger or metrics.
 */
export function observe<Req extends RequestLine, Res extends { status: number }>(surface: Surface, { logger, metrics }: RequestObserver): Step<Req, Res> | null {
  if (!logger && !metrics) return null
  return async (request, exchange, next) => {
    const started = performance.now()
    exchange.requestId = requestId(request)
    let status = 500
    try {
      const response = await next(request, exchange)
      status = response.status
      return response
    } finally {
      const { route, quiet } = exchange
      recordRequest(logger, metrics, { surface, method: request.method, route, status, ms: performance.now() - started, requestId: exchange.requestId, ...(quiet ? { quiet } : {}) })
    }
  }
}
