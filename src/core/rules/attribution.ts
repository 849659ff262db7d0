// Which affiliate a conversion credits (docs/attribution.md): affiliate_id, then referral_code, then
// the referred user (by referred_user_id or email), then the coupon used.
import { NotFoundError } from '../model/errors.js'
import type { StorageTx } from '../ports/storage.js'
import type { Affiliate, Referral } from '../model/types.js'

export type MatchedBy = 'affiliate_id' | 'referral_code' | 'email' | 'coupon'

export interface AttributionInput {
  affiliateId?: number | undefined
  referralCode?: string | undefined
  email?: string | undefined
  referredUserId?: number | undefined
  couponCodeUsed?: string | undefined
}

export interface Attribution {
  affiliate: Affiliate
  matchedBy: MatchedBy
  /** The referred user the conversion belongs to, when one exists already. */
  referral: Referral | null
}

export async function attribute(tx: StorageTx, projectId: string, input: AttributionInput): Promise<Attribution> {
  const referral = input.referredUserId === undefined && input.email === undefined ? null : await findReferral(tx, projectId, input)
  return creditedAffiliate(tx, projectId, input, referral)
}

async function findReferral(tx: StorageTx, projectId: string, input: AttributionInput): Promise<Referral | null> {
  if (input.referredUserId !== undefined) {
    const referral = await tx.referrals.get(projectId, input.referredUserId)
    if (!referral) throw new NotFoundError('referred user not found', 'referredUserId')
    return referral
  }
  return input.email === undefined ? null : tx.referrals.first(projectId, { email: input.email })
}

async function creditedAffiliate(tx: StorageTx, projectId: string, input: AttributionInput, referral: Referral | null): Promise<Attribution> {
  if (input.affiliateId !== undefined) {
    const affiliate = await tx.affiliates.get(projectId, input.affiliateId)
    if (!affiliate) throw new NotFoundError('affiliate not found', 'affiliateId')
    return { affiliate, matchedBy: 'affiliate_id', referral }
  }
  if (input.referralCode !== undefined) {
    const affiliate = await tx.affiliates.getByCode(projectId, input.referralCode)
    if (!affiliate) throw new NotFoundError('no affiliate has this referral code', 'referralCode')
    return { affiliate, matchedBy: 'referral_code', referral }
  }
  if (referral?.affiliateId != null) {
    const affiliate = await tx.affiliates.get(projectId, referral.affiliateId)
    if (affiliate) return { affiliate, matchedBy: 'email', referral }
  }
  if (input.couponCodeUsed !== undefined) {
    const coupon = await tx.coupons.first(projectId, { code: input.couponCodeUsed })
    const affiliate = coupon?.status === 'active' ? await tx.affiliates.get(projectId, coupon.affiliateId) : null
    if (affiliate) return { affiliate, matchedBy: 'coupon', referral }
  }
  throw new NotFoundError('affiliate or referred user not found')
}
