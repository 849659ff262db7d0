// The rate limit as a pipeline step (docs/limits.md "Rate limit"): the limiter's X-RateLimit-*
// headers go on whatever answer follows (exchange.headers), and a request over its key's
// allowance is refused with 429 and Retry-After.
import { HttpError } from './errors.js'
import type { Step } from './pipeline.js'
import type { RateLimiter } from './rate-limit.js'

/** Counts each request against `keyOf(request)`; null (the step left out) when the limit is off. */
export function rateLimited<Req, Res>(limiter: RateLimiter | null, keyOf: (request: Req) => string, now: () => number): Step<Req, Res> | null {
  if (limiter === null) return null
  return async (request, exchange, next) => {
    const outcome = await limiter(keyOf(request), now())
    Object.assign(exchange.headers, outcome.headers)
    if (!outcome.allowed) throw new HttpError('rate_limit_exceeded', 'rate limit exceeded; retry after the Retry-After seconds')
    return next(request, exchange)
  }
}
