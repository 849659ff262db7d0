// The primary shape (docs/api.md): snake_case records, integer ids, `{ success, data, pagination }`
// lists, and the `{ success: false, error: "message" }` error form.
import type { AffiliateView, ConversionView, CouponView, PayoutView, ReferralView } from '../../core/views.js'
import type { ErrorInfo } from '../../server/errors.js'

export interface ListPage {
  total: number
  limit: number
  offset: number
}

export function primaryError(info: ErrorInfo): unknown {
  return { success: false, error: info.message }
}

export function primaryData(data: unknown): unknown {
  return { success: true, data }
}

export function primaryList(items: unknown[], page: ListPage): unknown {
  const { total, limit, offset } = page
  return { success: true, data: items, pagination: { limit, offset, total, has_more: offset + items.length < total } }
}

/** pending and blocked exist only in the alternative shape; the primary one calls them inactive. */
const primaryStatus = (status: AffiliateView['status']) => (status === 'active' ? 'active' : 'inactive')

/** The create response: earnings null, no stats (docs/api.md "POST /affiliates"). */
export function primaryAffiliateCreated(view: AffiliateView): unknown {
  return {
    id: view.id,
    user_email: view.email,
    referral_code: view.referralCode,
    unpaid_earnings: null,
    total_earnings: null,
    created_at: view.createdAt.toISOString(),
    status: primaryStatus(view.status),
  }
}

export function primaryAffiliate(view: AffiliateView): unknown {
  const record: Record<string, unknown> = {
    id: view.id,
    user_email: view.email,
    referral_code: view.referralCode,
    created_at: view.createdAt.toISOString(),
    status: primaryStatus(view.status),
    clicks: view.clicks,
    signups: view.signups,
    purchases: view.purchases,
    unpaid_earnings: view.earnings.unpaid,
    total_earnings: view.earnings.total,
  }
  if (view.holdPeriod) {
    record.eligible_earnings = view.earnings.eligible
    record.held_earnings = view.earnings.held
    record.next_release_date = view.earnings.nextReleaseDate
  }
  return record
}

export function primaryConversion(view: ConversionView): unknown {
  return {
    id: view.id,
    type: view.type,
    affiliate_id: view.affiliateId,
    referred_user_id: view.referredUserId,
    value: Number(view.value),
    base_value: view.baseValue === null ? null : Number(view.baseValue),
    base_value_currency: view.baseValueCurrency,
    paid: view.paid,
    created_at: view.createdAt.toISOString(),
    reference: view.reference,
    coupon_code_used: view.couponCodeUsed,
    status: view.status,
  }
}

export function primaryReferral(view: ReferralView, withCode: boolean): unknown {
  return {
    id: view.id,
    user_email: view.email,
    affiliate_id: view.affiliateId,
    conversion_status: view.conversionStatus,
    conversion_date: view.conversionDate ? view.conversionDate.toISOString() : null,
    created_at: view.createdAt.toISOString(),
    ...(withCode ? { affiliate_code: view.affiliateCode } : {}),
  }
}

/** The processor coupon id under every name clients read it by (one stored value). */
export function processorCouponIds(view: CouponView) {
  const id = view.processorCouponId
  return { processor_coupon_id: id, stripe_coupon_id: id, lemonsqueezy_discount_code: id }
}

export function primaryCoupon(view: CouponView): unknown {
  return {
    id: view.id,
    affiliate_id: view.affiliateId,
    coupon_code: view.code,
    status: view.status,
    ...processorCouponIds(view),
    created_at: view.createdAt.toISOString(),
  }
}

export function primaryPayout(view: PayoutView): unknown {
  return {
    id: view.id,
    affiliate_id: view.affiliateId,
    affiliate_email: view.affiliateEmail,
    amount: view.amount,
    status: view.status,
    payment_method: view.method,
    payment_date: view.paymentDate.toISOString(),
    conversions_settled: view.conversionsSettled,
    unpaid_earnings_after: Number(view.unpaidAfter),
  }
}
