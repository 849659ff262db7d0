// The attribution settings (docs/attribution.md "First click, last click and the window"): who keeps
// a referred customer when another affiliate's code shows up, and how long a referral counts for
// the customer's first purchase.
import { addDays } from '../model/clock.js'
import type { Attribution } from './attribution.js'
import type { ProjectContext } from './context.js'
import { countDay } from './daily-counts.js'
import { ValidationError } from '../model/errors.js'
import type { StorageTx } from '../ports/storage.js'
import type { Affiliate, AttributionSettings, Referral } from '../model/types.js'

export interface ModelledAttribution extends Attribution {
  /** The referred user moves to the credited affiliate (a newer referral took over). */
  moveReferral: boolean
}

/** When the referred user's current referral ends: windowDays after it was last referred. */
export async function referralExpiry(tx: StorageTx, projectId: string, referral: Referral, settings: AttributionSettings): Promise<Date> {
  const since = (await tx.tracking.referredAt(projectId, referral.id)) ?? referral.createdAt
  return addDays(since, settings.windowDays)
}

/**
 * Whether the model can change what attribute() found: only a referred user not yet converted,
 * matched by a referral code or by email, under a configured model.
 */
export function attributionModelApplies(found: Attribution, settings: AttributionSettings | undefined): settings is AttributionSettings {
  const { matchedBy, referral } = found
  return settings !== undefined && referral !== null && referral.affiliateId !== null && referral.firstPurchaseAt === null && (matchedBy === 'referral_code' || matchedBy === 'email')
}

/**
 * Applies the project's attribution settings to what the request's fields matched. Only referred
 * users linked to an affiliate and not yet converted by a purchase are concerned; conversions
 * credited by `affiliate_id` or a coupon are the caller's explicit choice and pass unchanged.
 */
export async function applyAttributionModel(
  tx: StorageTx,
  projectId: string,
  found: Attribution,
  settings: AttributionSettings | undefined,
  at: Date,
): Promise<ModelledAttribution> {
  const { affiliate, matchedBy, referral } = found
  const unchanged = { ...found, moveReferral: false }
  if (!attributionModelApplies(found, settings) || !referral || referral.affiliateId === null) return unchanged
  const expiry = await referralExpiry(tx, projectId, referral, settings)
  const inside = at.getTime() < expiry.getTime()
  if (matchedBy === 'referral_code' && referral.affiliateId !== affiliate.id) {
    if (settings.model === 'last_click' || !inside) return { ...found, moveReferral: true }
    const keeper = await tx.affiliates.get(projectId, referral.affiliateId)
    return keeper ? { affiliate: keeper, matchedBy: 'email', referral, moveReferral: false } : { ...found, moveReferral: true }
  }
  if (!inside) {
    throw new ValidationError(
      'email',
      (name) =>
        `the referral of ${referral.email} ended on ${expiry.toISOString().slice(0, 10)} (${settings.windowDays}-day attribution window) ` +
        `before its first purchase; send ${name('affiliateId')} to credit an affiliate anyway`,
    )
  }
  return unchanged
}

/** Moves a referred user to `affiliate` (a newer referral won): signups follow, and its window starts again at `at`. */
export async function moveReferredUser(ctx: ProjectContext, tx: StorageTx, referral: Referral, affiliate: Affiliate, at: Date): Promise<Referral> {
  const { projectId } = ctx
  const moved = await tx.referrals.update(projectId, referral.id, { affiliateId: affiliate.id })
  if (referral.affiliateId !== null) await tx.affiliates.adjustTotals(projectId, referral.affiliateId, { signups: -1 })
  await tx.affiliates.adjustTotals(projectId, affiliate.id, { signups: 1 })
  await tx.tracking.setReferredAt(projectId, referral.id, at)
  await countDay(ctx, tx, affiliate.id, at, { signups: 1 })
  return moved ?? referral
}
