// The alternative shape (docs/api.md): `aff_` string ids for affiliates, camelCase affiliate fields,
// lists nested under data.<name> with total/limit/offset, single records under data.<name>, and
// the `{ success: false, error: { code, message, details: { field, issue } } }` error form.
import type { AffiliateView, ConversionView, CouponView, PayoutView, ReferralView } from '../../core/views.js'
import type { ErrorInfo, HttpErrorCode } from '../../server/errors.js'
import { processorCouponIds, type ListPage } from './primary.js'

const ALTERNATIVE_CODES: Record<HttpErrorCode, string> = {
  invalid_request: 'invalid_request',
  authentication_error: 'authentication_error',
  permission_denied: 'permission_denied',
  not_found: 'resource_not_found',
  method_not_allowed: 'method_not_allowed',
  conflict: 'conflict',
  payload_too_large: 'payload_too_large',
  unsupported_media_type: 'unsupported_media_type',
  rate_limit_exceeded: 'rate_limit_exceeded',
  server_error: 'server_error',
  not_implemented: 'not_implemented',
}

export function alternativeError(info: ErrorInfo): unknown {
  const field = info.field
  const issue = field && info.message.startsWith(`${info.field}: `) ? info.message.slice(info.field!.length + 2) : info.message
  return { success: false, error: { code: ALTERNATIVE_CODES[info.code], message: info.message, details: { field, issue } } }
}

export function alternativeData(name: string, record: unknown): unknown {
  return { success: true, data: { [name]: record } }
}

export function alternativeList(name: string, items: unknown[], page: ListPage): unknown {
  return { success: true, data: { [name]: items, total: page.total, limit: page.limit, offset: page.offset } }
}

export const affiliateId = (id: number) => `aff_${id}`

export function alternativeAffiliate(view: AffiliateView, detail: boolean): unknown {
  const record: Record<string, unknown> = {
    id: affiliateId(view.id),
    email: view.email,
    name: view.name,
    status: view.status,
    createdAt: view.createdAt.toISOString(),
    totalEarnings: Number(view.earnings.total),
    pendingEarnings: Number(view.earnings.unpaid),
    paidEarnings: Number(view.earnings.paid),
    // Purchases per hundred clicks, two decimals; 0 before the first click.
    conversionRate: view.clicks === 0 ? 0 : Math.round((view.purchases * 10_000) / view.clicks) / 100,
    clickCount: view.clicks,
    conversionCount: view.purchases,
  }
  if (detail) {
    record.referralCode = view.referralCode
    record.paymentMethod = view.paymentMethod
    record.paymentDetails = view.paymentDetails
  }
  return record
}

export function alternativeConversion(view: ConversionView, referralCode: string | null): unknown {
  return {
    id: view.id,
    customer_email: view.customerEmail,
    amount: view.baseValue === null ? null : Number(view.baseValue),
    commission_amount: Number(view.value),
    status: view.status,
    created_at: view.createdAt.toISOString(),
    referral_code: referralCode,
  }
}

export function alternativeReferral(view: ReferralView): unknown {
  return {
    email: view.email,
    referral_code: view.affiliateCode,
    affiliate_email: view.affiliateEmail,
    created_at: view.createdAt.toISOString(),
  }
}

export function alternativeCoupon(view: CouponView): unknown {
  return {
    id: view.id,
    code: view.code,
    affiliate_email: view.affiliateEmail,
    discount_type: view.discountType,
    discount_value: view.discountValue,
    status: view.status,
    ...processorCouponIds(view),
    created_at: view.createdAt.toISOString(),
  }
}

export function alternativePayout(view: PayoutView): unknown {
  return {
    id: view.id,
    affiliateId: affiliateId(view.affiliateId),
    affiliateEmail: view.affiliateEmail,
    amount: Number(view.amount),
    status: view.status,
    paymentMethod: view.method,
    paymentDate: view.paymentDate.toISOString(),
    conversionsSettled: view.conversionsSettled,
    unpaidEarningsAfter: Number(view.unpaidAfter),
  }
}
