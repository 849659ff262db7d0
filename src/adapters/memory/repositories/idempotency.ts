// The in-memory Idempotency-Key records: claims with leases, answers, releases.
import type { IdempotencyRepository } from '../../../core/storage.js'
import type { IdempotencyRecord } from '../../../core/types.js'
import { setMapEntry, type MemoryState } from '../state.js'
import type { UndoLog } from '../table.js'

/** Whether `claim` may take the key of `existing` (see IdempotencyRepository.claim). */
const idempotencyKeyFree = (existing: IdempotencyRecord, claim: IdempotencyRecord): boolean =>
  existing.expiresAt <= claim.createdAt ||
  (existing.response === null && existing.fingerprint === claim.fingerprint && existing.leaseUntil <= claim.createdAt)

/** The record of the key when it is still the claim taken at `claimedAt`. */
const ownClaim = (state: MemoryState, projectId: string, key: string, claimedAt: Date): IdempotencyRecord | undefined => {
  const existing = state.idempotency.get(`${projectId}|${key}`)
  return existing?.createdAt.getTime() === claimedAt.getTime() ? existing : undefined
}

export function idempotencyRepository(state: MemoryState, log: UndoLog): IdempotencyRepository {
  return {
    async claim(record) {
      const key = `${record.projectId}|${record.key}`
      const existing = state.idempotency.get(key)
      if (existing && !idempotencyKeyFree(existing, record)) return { ...existing }
      setMapEntry(state.idempotency, key, { ...record }, log)
      return null
    },
    async renew(projectId, key, claimedAt, leaseUntil) {
      const existing = ownClaim(state, projectId, key, claimedAt)
      if (existing?.response === null) setMapEntry(state.idempotency, `${projectId}|${key}`, { ...existing, leaseUntil }, log)
    },
    async complete(projectId, key, claimedAt, response) {
      const existing = ownClaim(state, projectId, key, claimedAt)
      if (existing) setMapEntry(state.idempotency, `${projectId}|${key}`, { ...existing, response }, log)
    },
    async release(projectId, key, claimedAt) {
      if (ownClaim(state, projectId, key, claimedAt)) setMapEntry(state.idempotency, `${projectId}|${key}`, undefined, log)
    },
  }
}
