// GCRA (generic cell rate algorithm): a smooth limit of `limit` requests per window with no
// double burst at window edges. Pure, so every keyed-state store shares the same arithmetic.

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
 * @param tat the stored theoretical arrival time (Unix ms) or null for a new key
 * @returns the new stored state and the decision
 */
export function gcra(tat: number | null, now: number, limit: number, windowMs: number): { state: number; result: RateLimitDecision } {
  const interval = windowMs / limit
  const start = Math.max(tat ?? now, now)
  const next = start + interval
  const allowAt = next - windowMs
  if (allowAt > now) {
    const current = tat ?? now
    return {
      state: current,
      result: { allowed: false, limit, remaining: 0, resetAt: Math.ceil(current), retryAfterMs: Math.ceil(allowAt - now) },
    }
  }
  const remaining = Math.floor((windowMs - (next - now)) / interval)
  return { state: next, result: { allowed: true, limit, remaining, resetAt: Math.ceil(next), retryAfterMs: 0 } }
}
