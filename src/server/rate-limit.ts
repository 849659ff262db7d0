// Per-key rate limiting (docs/limits.md "Rate limit"): GCRA over the handler's keyed-state store,
// and the X-RateLimit-* headers every authenticated response carries (plus Retry-After on 429).
import { StorageFullError } from '../core/errors.js'
import { gcra, type RateLimitDecision } from './gcra.js'
import type { KeyedStateStore } from '../core/keyed-state.js'

export interface RateLimitOptions {
  /** Requests allowed per window and key. @default 100 */
  limit?: number
  /** Window length in seconds. @default 60 */
  windowSeconds?: number
}

export interface RateLimitOutcome {
  allowed: boolean
  headers: Record<string, string>
}

export type RateLimiter = (key: string, now: number) => Promise<RateLimitOutcome>

export function createRateLimiter(options: RateLimitOptions | false | undefined, store: KeyedStateStore): RateLimiter | null {
  if (options === false) return null
  const limit = options?.limit ?? 100
  const windowMs = (options?.windowSeconds ?? 60) * 1000
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError('rateLimit.limit must be a positive integer')
  if (!(windowMs > 0)) throw new TypeError('rateLimit.windowSeconds must be positive')
  return async (key, now) => {
    let decision: RateLimitDecision
    try {
      decision = await store.update<RateLimitDecision>(key, (state) => gcra(state, now, limit, windowMs))
    } catch (error) {
      // The embedded database's disk is full: its writes are refused, this one too, yet reads must
      // go on. The limit is not counted until space is freed.
      if (error instanceof StorageFullError) return { allowed: true, headers: {} }
      throw error
    }
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
    }
    if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)))
    return { allowed: decision.allowed, headers }
  }
}
