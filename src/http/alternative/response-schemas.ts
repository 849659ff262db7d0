// valibot schemas of the alternative shape's response bodies (docs/api.md "The alternative
// shape"): the alternative OpenAPI document is generated from them, and tests check real
// responses against them.
import * as v from 'valibot'
import { DELIVERY_STATUSES, PROVIDER_NAMES } from '../../core/types.js'
import { couponProcessorIds, paymentMethod } from '../response-schemas.js'

const timestamp = v.pipe(v.string(), v.isoTimestamp())
const id = v.pipe(v.number(), v.integer())
const affiliateId = v.pipe(v.string(), v.regex(/^aff_\d+$/))

const affiliateFields = {
  id: affiliateId,
  email: v.string(),
  name: v.nullable(v.string()),
  status: v.picklist(['active', 'inactive', 'pending', 'blocked']),
  createdAt: timestamp,
  totalEarnings: v.number(),
  pendingEarnings: v.number(),
  paidEarnings: v.number(),
  conversionRate: v.number(),
  clickCount: v.number(),
  conversionCount: v.number(),
}
export const affiliateSummary = v.strictObject(affiliateFields)
export const affiliateRecord = v.strictObject({
  ...affiliateFields,
  referralCode: v.string(),
  paymentMethod: v.nullable(v.string()),
  paymentDetails: v.nullable(v.string()),
})

export const conversionRecord = v.strictObject({
  id,
  customer_email: v.nullable(v.string()),
  amount: v.nullable(v.number()),
  commission_amount: v.number(),
  status: v.picklist(['pending', 'active', 'review', 'refunded', 'rejected']),
  created_at: timestamp,
  referral_code: v.nullable(v.string()),
})

export const referralRecord = v.strictObject({
  email: v.string(),
  referral_code: v.nullable(v.string()),
  affiliate_email: v.nullable(v.string()),
  created_at: timestamp,
})

export const couponRecord = v.strictObject({
  id,
  code: v.string(),
  affiliate_email: v.nullable(v.string()),
  discount_type: v.nullable(v.string()),
  discount_value: v.nullable(v.string()),
  status: v.picklist(['active', 'inactive']),
  ...couponProcessorIds,
  created_at: timestamp,
})

export const payoutRecord = v.strictObject({
  id,
  affiliateId,
  affiliateEmail: v.string(),
  amount: v.number(),
  status: v.literal('Paid'),
  paymentMethod,
  paymentDate: timestamp,
  conversionsSettled: v.number(),
  unpaidEarningsAfter: v.number(),
})

export const clickRecord = v.strictObject({ id, affiliateId, createdAt: timestamp })

export const deliveryRecord = v.strictObject({
  id,
  webhookId: id,
  eventType: v.string(),
  status: v.picklist(DELIVERY_STATUSES),
  attempts: v.number(),
  lastStatusCode: v.nullable(v.number()),
  nextAttemptAt: v.nullable(timestamp),
  createdAt: timestamp,
  updatedAt: timestamp,
})
const attemptRecord = v.strictObject({
  attemptedAt: timestamp,
  statusCode: v.nullable(v.number()),
  durationMs: v.number(),
  responseExcerpt: v.nullable(v.string()),
  error: v.nullable(v.string()),
})
export const deliveryDetailRecord = v.strictObject({ ...deliveryRecord.entries, attemptHistory: v.array(attemptRecord) })

export const providerEventRecord = v.strictObject({
  id,
  provider: v.picklist(PROVIDER_NAMES),
  eventId: v.string(),
  type: v.string(),
  reference: v.nullable(v.string()),
  status: v.picklist(['processing', 'applied', 'ignored', 'waiting']),
  detail: v.nullable(v.string()),
  conversionId: v.nullable(id),
  refundAmount: v.nullable(v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/))),
  waitingFor: v.nullable(v.string()),
  occurredAt: timestamp,
  receivedAt: timestamp,
  updatedAt: timestamp,
})

const auditEntryRecord = v.strictObject({
  id,
  actorId: v.string(),
  actorName: v.string(),
  action: v.string(),
  target: v.nullable(v.string()),
  detail: v.nullable(v.string()),
  at: timestamp,
})

const portalLinkRecord = v.strictObject({ url: v.pipe(v.string(), v.url()), expiresAt: timestamp })

const item = <S extends v.GenericSchema>(name: string, record: S) => v.strictObject({ success: v.literal(true), data: v.strictObject({ [name]: record }) })
const list = <S extends v.GenericSchema>(name: string, record: S) =>
  v.strictObject({ success: v.literal(true), data: v.strictObject({ [name]: v.array(record), total: v.number(), limit: v.number(), offset: v.number() }) })

export const errorBody = v.strictObject({
  success: v.literal(false),
  error: v.strictObject({
    code: v.string(),
    message: v.string(),
    details: v.strictObject({ field: v.nullable(v.string()), issue: v.string() }),
  }),
})

const named = <S extends v.GenericSchema>(name: string, schema: S) => ({ name, schema })
export const affiliateResponse = named('AffiliateResponse', item('affiliate', affiliateRecord))
export const affiliateList = named('AffiliateList', list('affiliates', affiliateSummary))
export const conversionResponse = named('ConversionResponse', item('conversion', conversionRecord))
export const conversionList = named('ConversionList', list('conversions', conversionRecord))
export const referralResponse = named('ReferralResponse', item('referral', referralRecord))
export const referralList = named('ReferralList', list('referrals', referralRecord))
export const couponResponse = named('CouponResponse', item('coupon', couponRecord))
export const couponList = named('CouponList', list('coupons', couponRecord))
export const payoutResponse = named('PayoutResponse', item('payout', payoutRecord))
export const payoutList = named('PayoutList', list('payouts', payoutRecord))
export const clickResponse = named('ClickResponse', item('click', clickRecord))
export const deliveryResponse = named('DeliveryResponse', item('delivery', deliveryDetailRecord))
export const deliveryList = named('DeliveryList', list('deliveries', deliveryRecord))
export const providerEventList = named('ProviderEventList', list('providerEvents', providerEventRecord))
export const providerEventReplayResponse = named(
  'ProviderEventReplayResponse',
  v.strictObject({ success: v.literal(true), data: v.strictObject({ replayed: v.boolean(), message: v.string(), providerEvent: providerEventRecord }) }),
)
export const auditLogList = named('AuditLogList', list('auditLog', auditEntryRecord))
export const portalLinkResponse = named('PortalLinkResponse', item('portalLink', portalLinkRecord))
