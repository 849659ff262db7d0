// The one lock order of every write (docs/architecture.md "Lock order"): affiliates by ascending
// id (a tier-2 parent after its child), then the referred user, then the conversion, then the
// payout; the project's shared day counters last, written just before COMMIT by the storage. A
// write that decides from a row's state reads it under that row's lock, taken in this order.
import { NotFoundError } from '../model/errors.js'
import type { StorageTx } from './storage.js'
import type { Affiliate } from '../model/types.js'

/** Locks these affiliates in ascending id order; the ones that exist, by id. */
export async function lockAffiliates(tx: StorageTx, projectId: string, ids: ReadonlyArray<number | null>): Promise<Map<number, Affiliate>> {
  const locked = new Map<number, Affiliate>()
  const ordered = [...new Set(ids.filter((id): id is number => id !== null))].sort((a, b) => a - b)
  for (const id of ordered) {
    const affiliate = await tx.affiliates.lockForUpdate(projectId, id)
    if (affiliate) locked.set(id, affiliate)
  }
  return locked
}

/** Locks the affiliate read before the lock: a 404 when a concurrent request deleted it since. */
export async function lockAffiliate(tx: StorageTx, projectId: string, id: number): Promise<Affiliate> {
  const affiliate = await tx.affiliates.lockForUpdate(projectId, id)
  if (!affiliate) throw new NotFoundError('affiliate not found (deleted by a concurrent request)', 'affiliateId')
  return affiliate
}
