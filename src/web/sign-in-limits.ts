// Limits on what a stranger can make the sign-in pages do (docs/limits.md "Sign-in"): links
// emailed per address, link requests and sign-in attempts per client. GCRA counters in the
// keyed-state store (the one rate limit, server/rate-limit.ts), so every process of a SQL database
// shares them, kept under digests: the store holds neither emails nor client addresses.
import { createHash } from 'node:crypto'
import { keyedLimit } from '../server/rate-limit.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import { addressBlock } from './client-address.js'

/** How many per window; `false` turns the limit off. */
export type LimitOption = { limit: number; windowSeconds: number } | false

export type LimitOutcome = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/** Takes one from `subject`'s allowance (an email, a client address block) when there is one left. */
export type SubjectLimit = (subject: string, now: Date) => Promise<LimitOutcome>

/**
 * The limit `name` (its option key, as errors name it) of a surface's project, or null when
 * turned off. Throws TypeError for a limit that is not a positive whole number or a window that
 * is not positive.
 */
export function subjectLimit(
  state: KeyedStateStore,
  scope: { surface: 'portal' | 'admin'; projectId: string },
  name: string,
  option: LimitOption | undefined,
  fallback: { limit: number; windowSeconds: number },
): SubjectLimit | null {
  if (option === false) return null
  const { limit, windowSeconds } = option ?? fallback
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`limits.${name}.limit must be a positive whole number`)
  if (!(typeof windowSeconds === 'number' && windowSeconds > 0 && Number.isFinite(windowSeconds))) throw new TypeError(`limits.${name}.windowSeconds must be positive`)
  const counted = keyedLimit(state, limit, windowSeconds * 1000)
  return async (subject, now) => {
    const key = `sign-in:${scope.surface}.${name}:${createHash('sha256').update(`${scope.projectId}\u0000${subject}`).digest('base64url')}`
    const decision = await counted.take(key, now.getTime())
    return decision.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)) }
  }
}

/**
 * The refusal of a client over `perClient` (its address block counted): `refuse()`'s page with
 * Retry-After; null when it may go on, or when its address is unknown. Every page a stranger can
 * make act (sign-in, sign-in links, applications) is limited through it.
 */
export async function overClientLimit(perClient: SubjectLimit | null, address: string | null, now: Date, refuse: () => Response | Promise<Response>): Promise<Response | null> {
  if (perClient === null || address === null) return null
  const outcome = await perClient(addressBlock(address), now)
  if (outcome.allowed) return null
  const response = await refuse()
  response.headers.set('retry-after', String(outcome.retryAfterSeconds))
  return response
}
