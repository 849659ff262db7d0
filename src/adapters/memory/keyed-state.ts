// The keyed-state store in process memory: Idempotency-Key claims and rate-limiter numbers in
// two Maps, the default of a handler given no `state`. Every operation is synchronous inside, so
// each is atomic.
import type { KeyClaim, KeyedNumberChange, KeyedStateStore } from '../../core/ports/keyed-state.js'
import type { ScrubbedElsewhere } from './repositories/erasure.js'

/** Whether `claim` may take the key of `existing` (see KeyedStateStore.claim). */
const keyFree = (existing: KeyClaim, claim: KeyClaim): boolean =>
  existing.expiresAt <= claim.createdAt ||
  (existing.response === null && existing.fingerprint === claim.fingerprint && existing.leaseUntil <= claim.createdAt)

/** The number `change` stores over `stored`, or null when it makes no change (KeyedNumberChange). */
function changedNumber(stored: number | null, change: KeyedNumberChange): number | null {
  switch (change.kind) {
    case 'take': {
      const next = Math.max(stored ?? change.now, change.now) + change.interval
      return next - change.windowMs <= change.now ? next : null
    }
    case 'giveBack':
      return stored === null ? null : stored - change.amount
    case 'initialize':
      return stored === null ? change.value : null
  }
}

/** The store, and the pruning of its expired claims (the memory adapter's retention port). */
export type MemoryKeyedState = KeyedStateStore & ScrubbedElsewhere & { pruneExpired(before: Date, limit: number): number }

export function memoryKeyedState(): MemoryKeyedState {
  const claims = new Map<string, KeyClaim>()
  const numbers = new Map<string, number>()

  /** The claim of the key when it is still the one taken at `claimedAt`. */
  const ownClaim = (projectId: string, key: string, claimedAt: Date): KeyClaim | undefined => {
    const existing = claims.get(`${projectId}|${key}`)
    return existing?.createdAt.getTime() === claimedAt.getTime() ? existing : undefined
  }

  return {
    async claim(claim) {
      const mapKey = `${claim.projectId}|${claim.key}`
      const existing = claims.get(mapKey)
      if (existing && !keyFree(existing, claim)) return { ...existing }
      claims.set(mapKey, { ...claim })
      return null
    },
    async renew(projectId, key, claimedAt, leaseUntil) {
      const existing = ownClaim(projectId, key, claimedAt)
      if (existing?.response === null) existing.leaseUntil = leaseUntil
    },
    async settle(projectId, key, claimedAt, response) {
      const existing = ownClaim(projectId, key, claimedAt)
      if (existing) existing.response = response
    },
    async release(projectId, key, claimedAt) {
      if (ownClaim(projectId, key, claimedAt)) claims.delete(`${projectId}|${key}`)
    },
    // Erasure (docs/privacy.md): the stored answers of the project's Idempotency-Keys.
    scrubText(projectId, scrub) {
      for (const claim of claims.values()) {
        if (claim.projectId === projectId && claim.response) claim.response = { ...claim.response, body: scrub.apply(claim.response.body) }
      }
    },
    storedText: () => JSON.stringify([...claims.values()]),
    async update(key, change) {
      const changed = changedNumber(numbers.get(key) ?? null, change)
      if (changed !== null) numbers.set(key, changed)
      return { state: numbers.get(key) ?? null, changed: changed !== null }
    },
    pruneExpired(before, limit) {
      let count = 0
      for (const [mapKey, claim] of claims) {
        if (count === limit) break
        if (claim.expiresAt <= before && claims.delete(mapKey)) count += 1
      }
      return count
    },
  }
}
