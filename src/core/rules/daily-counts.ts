// Bumps the per-day counters stats read (docs/stats.md), inside the transaction of the event
// that counts, on the event's day in the project's time zone.
import type { ProjectContext } from './context.js'
import type { StorageTx } from '../ports/storage.js'
import type { DailyCounts } from '../ports/tracking-storage.js'

export async function countDay(ctx: ProjectContext, tx: StorageTx, affiliateId: number, at: Date, delta: Partial<DailyCounts>): Promise<void> {
  await tx.tracking.addDaily(ctx.projectId, affiliateId, await ctx.dayOf(at), delta)
}
