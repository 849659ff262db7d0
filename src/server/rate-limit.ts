// The one rate limit every surface enforces (docs/limits.md): GCRA (gcra.ts) over a keyed-state
// store, so every process of a SQL database shares the counters. `keyedLimit` takes one request
// from a key's allowance; the API's and the tracking reports' per-key limit (`createRateLimiter`)
// adds the X-RateLimit-* headers (plus Retry-After on 429), the sign-in pages' limits
// (web/sign-in-limits.ts) and the visitors an address may add (tracking/address-budget.ts) count
// through it too.
import { StorageFullError } from '../core/model/errors.js'
import { gcraDecision, type RateLimitDecision } from './gcra.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'

export interface RateLimitOptions {
  /** Requests allowed per window and key. @default 100 */
  limit?: number
  /** Window length in seconds. @default 60 */
  windowSeconds?: number
}

/** `limit` requests per `windowMs` and key, counted in a keyed-state store. */
export interface KeyedLimit {
  /** Takes one from the key's allowance when there is one left; the decision says whether it did. */
  take(key: string, now: number): Promise<RateLimitDecision>
  /** Gives back what take() spent (a request that did not count after all). */
  giveBack(key: string): Promise<void>
}

export function keyedLimit(store: KeyedStateStore, limit: number, windowMs: number): KeyedLimit {
  const interval = windowMs / limit
  return {
    async take(key, now) {
      const { state, changed } = await store.update(key, { kind: 'take', now, interval, windowMs })
      return gcraDecision(changed, state, now, limit, windowMs)
    },
    async giveBack(key) {
      await store.update(key, { kind: 'giveBack', amount: interval })
    },
  }
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
  const counted = keyedLimit(store, limit, windowMs)
  return async (key, now) => {
    let decision: RateLimitDecision
    try {
      decision = await counted.take(key, now)
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
