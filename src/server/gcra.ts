// GCRA (generic cell rate algorithm): a smooth limit of `limit` requests per window with no
// double burst at window edges. The step itself (store the later of the stored time and now, plus
// one interval, unless that is a window ahead) is the keyed-state store's `take`, made in one
// atomic step there; this file turns its outcome into the decision the surfaces answer with.

export interface RateLimitDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Unix ms when the full allowance is back. */
  resetAt: number
  /** Ms to wait before the next request is allowed; 0 when allowed. */
  retryAfterMs: number
}

/**
 * The decision after a step: `allowed` with `tat` the time it stored, or refused with `tat` the
 * stored time it met (null when none).
 */
export function gcraDecision(allowed: boolean, tat: number | null, now: number, limit: number, windowMs: number): RateLimitDecision {
  const interval = windowMs / limit
  const current = tat ?? now
  if (!allowed) {
    const allowAt = Math.max(current, now) + interval - windowMs
    return { allowed: false, limit, remaining: 0, resetAt: Math.ceil(current), retryAfterMs: Math.max(1, Math.ceil(allowAt - now)) }
  }
  const remaining = Math.floor((windowMs - (current - now)) / interval)
  return { allowed: true, limit, remaining, resetAt: Math.ceil(current), retryAfterMs: 0 }
}

/**
 * The whole step on a stored time, in memory.
 * @param tat the stored theoretical arrival time (Unix ms) or null for a new key
 * @returns the new stored state and the decision
 */
export function gcra(tat: number | null, now: number, limit: number, windowMs: number): { state: number; result: RateLimitDecision } {
  const next = Math.max(tat ?? now, now) + windowMs / limit
  const allowed = next - windowMs <= now
  const state = allowed ? next : (tat ?? now)
  return { state, result: gcraDecision(allowed, state, now, limit, windowMs) }
}
