// The owner's decision on a pending affiliate (docs/onboarding.md): approved (active) or rejected
// (blocked, with the reason kept on its application), with its event in the same transaction.
// Shared by the applications' approve and reject and by affiliates.update setting status active.
import type { ProjectContext } from '../rules/context.js'
import { affiliateApproved, affiliateRejected } from '../ports/events.js'
import type { StorageTx } from '../ports/storage.js'
import type { Affiliate } from '../model/types.js'

export async function decideApplication(
  ctx: ProjectContext,
  tx: StorageTx,
  affiliate: Affiliate,
  decision: { approve: true } | { approve: false; reason: string | null },
): Promise<Affiliate> {
  const at = ctx.clock.now()
  // A pending affiliate the owner created (no application) gets a record too, to keep the reason.
  const application = {
    ...(affiliate.application ?? { website: null, promotion: null, fields: {}, appliedAt: affiliate.createdAt.toISOString(), termsAcceptedAt: null }),
    decidedAt: at.toISOString(),
    rejectionReason: decision.approve ? null : decision.reason,
  }
  const updated = (await tx.affiliates.update(ctx.projectId, affiliate.id, { status: decision.approve ? 'active' : 'blocked', application }))!
  await tx.outbox.enqueue(decision.approve ? affiliateApproved(updated, { at }) : affiliateRejected(updated, { at, reason: decision.reason }))
  return updated
}
