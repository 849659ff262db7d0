// The Idempotency-Key header on POST: the first request claims the key, its answer is stored for
// 24 h and replayed to repeats; the same key with another body, or while the first is still
// running, is 409. 5xx answers are not stored (the claim is released so a retry can run).
// A claim is leased: when the process holding it dies before answering, a repeat of the same
// request after the lease runs it again (what a rerun answers per route: docs/idempotency.md).
import { sha256Hex } from '../core/model/random.js'
import { HttpError } from '../server/errors.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/** How long an unanswered claim blocks repeats before one of them may take the key over. */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000

export interface StoredResponse {
  status: number
  body: string
  /** Set for an answer that is not JSON. */
  contentType?: string
  /** The body is bytes (an image) written in base64, so that a stored answer stays text. */
  base64?: true
}

export function idempotencyFingerprint(method: string, path: string, body: string): string {
  return `${method} ${path} ${sha256Hex(body)}`
}

export function checkIdempotencyKey(key: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new HttpError('invalid_request', 'Idempotency-Key: must be 1 to 255 visible ASCII characters', 'Idempotency-Key')
  }
  return key
}

/**
 * Runs `run` once per key; a replay returns the stored response instead. While `run` is in
 * progress the claim's lease is renewed, so only a dead process's claim can be taken over.
 */
export async function withIdempotency(
  state: KeyedStateStore,
  claim: { projectId: string; key: string; fingerprint: string; now: Date; leaseMs?: number },
  run: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const { projectId, key, fingerprint, now } = claim
  const leaseMs = claim.leaseMs ?? IDEMPOTENCY_LEASE_MS
  const existing = await state.claim({
    projectId,
    key,
    fingerprint,
    response: null,
    createdAt: now,
    leaseUntil: new Date(now.getTime() + leaseMs),
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  })
  if (existing) {
    if (existing.fingerprint !== fingerprint) {
      throw new HttpError('conflict', 'Idempotency-Key: this key was used with a different request', 'Idempotency-Key')
    }
    if (!existing.response) throw new HttpError('conflict', 'Idempotency-Key: a request with this key is still being processed', 'Idempotency-Key')
    return { ...existing.response, replayed: true }
  }
  const stopRenewing = renewWhileRunning(state, { projectId, key, now, leaseMs })
  let response: StoredResponse
  try {
    response = await run()
  } catch (error) {
    stopRenewing()
    // When the database is down this fails too: the error of the request is the one that counts.
    await state.release(projectId, key, now).catch(() => {})
    throw error
  }
  stopRenewing()
  if (response.status >= 500) await state.release(projectId, key, now)
  else await state.settle(projectId, key, now, response)
  return { ...response, replayed: false }
}

/** Pushes the lease forward every third of it (on the claim's clock plus the time elapsed here). */
function renewWhileRunning(state: KeyedStateStore, claim: { projectId: string; key: string; now: Date; leaseMs: number }): () => void {
  const started = Date.now()
  const timer = setInterval(() => {
    const leaseUntil = new Date(claim.now.getTime() + (Date.now() - started) + claim.leaseMs)
    // A failed renewal only shortens the lease; the request itself goes on.
    state.renew(claim.projectId, claim.key, claim.now, leaseUntil).catch(() => {})
  }, claim.leaseMs / 3)
  timer.unref?.()
  return () => clearInterval(timer)
}
