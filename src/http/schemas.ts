// valibot schemas of the REST request bodies and query strings, in the wire's own field names
// (snake_case; camelCase where the alternative shape of docs/api.md says so). Exported by name so the
// OpenAPI document can be generated from them. Queries arrive as strings and are parsed strictly.
import * as v from 'valibot'
import { affiliateStatus, conversionStatusChange, conversionType, couponStatus, DATE_RANGE_MESSAGE, deliveryStatus, eventType, inDateRange, MAX_OFFSET, payoutMethod, providerEventStatus, providerName, referralStatus } from '../core/schemas.js'

const str = (max: number) => v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`))
const email = v.pipe(v.string('must be a string'), v.maxLength(254, 'must be at most 254 characters'))
const id = v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer'), v.minValue(1, 'must be a positive integer'))
/** Money travels as a JSON number; its decimal text is read exactly by the core. */
const money = v.pipe(v.number('must be a number'), v.finite('must be a finite number'))
const bool = v.boolean('must be a boolean')

/** An id in the alternative shape: `aff_12`, `12` or 12. */
export const alternativeId = v.pipe(
  v.union([id, v.pipe(v.string(), v.regex(/^(aff_)?[1-9]\d{0,14}$/))], 'must be an id such as aff_12'),
  v.transform((input) => (typeof input === 'number' ? input : Number(input.replace(/^aff_/, '')))),
)

// Query strings -------------------------------------------------------------------------------

const intParam = (min: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,15}$/, 'must be an integer'),
    v.transform((text: string) => Number(text)),
    v.minValue(min, min === 0 ? 'must not be negative' : `must be at least ${min}`),
  )
const limit = v.optional(intParam(1))
const offset = v.optional(v.pipe(intParam(0), v.maxValue(MAX_OFFSET, `must be at most ${MAX_OFFSET}`)))
const idParam = v.optional(intParam(1))
const boolParam = v.optional(
  v.pipe(
    v.picklist(['true', 'false'], 'must be true or false'),
    v.transform((input) => input === 'true'),
  ),
)
const dateParam = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/, 'must be an ISO 8601 date'),
    v.transform((input) => new Date(input)),
    v.check((date) => !Number.isNaN(date.getTime()), 'must be an ISO 8601 date'),
    v.check(inDateRange, DATE_RANGE_MESSAGE),
  ),
)

export const listAffiliatesQuery = v.strictObject({ limit, offset, status: v.optional(v.picklist(['active', 'inactive'], 'must be active or inactive')) })
export const listAffiliatesQueryAlternative = v.strictObject({ limit, offset, status: v.optional(v.picklist(['active', 'pending', 'blocked'], 'must be active, pending or blocked')) })
export const listConversionsQuery = v.strictObject({
  limit,
  offset,
  type: v.optional(conversionType),
  affiliate_id: idParam,
  referred_user_id: idParam,
  paid: boolParam,
  from: dateParam,
  to: dateParam,
})
export const listReferralsQuery = v.strictObject({ limit, offset, affiliate_id: idParam, status: v.optional(referralStatus) })
export const listCouponsQuery = v.strictObject({ limit, offset, affiliate_id: idParam, coupon_code: v.optional(str(64)), status: v.optional(couponStatus) })
export const listPayoutsQuery = v.strictObject({ limit, offset, affiliate_id: idParam })
export const listQueryAlternative = v.strictObject({ limit, offset })

// Primary bodies ------------------------------------------------------------------------------

export const createAffiliateBody = v.strictObject({
  email,
  referral_code: v.optional(str(64)),
  partner_slug: v.optional(str(64)),
  payment_method: v.optional(str(100)),
  payment_details: v.optional(str(2000)),
  payout_method: v.optional(v.picklist(['paypal', 'wise', 'manual'], 'must be paypal, wise or manual')),
  paypal_email: v.optional(email),
  parent_referral_code: v.optional(str(64)),
  parent_affiliate_id: v.optional(id),
})
export const updateAffiliateBody = v.strictObject({
  email: v.optional(email),
  referral_code: v.optional(str(64)),
  status: v.optional(v.picklist(['active', 'inactive'], 'must be active or inactive')),
  partner_slug: v.optional(v.nullable(str(64))),
  payout_method: v.optional(v.nullable(v.picklist(['paypal', 'wise', 'manual'], 'must be paypal, wise or manual'))),
  paypal_email: v.optional(v.nullable(email)),
  payment_method: v.optional(v.nullable(str(100))),
  payment_details: v.optional(v.nullable(str(2000))),
})
export const createConversionBody = v.strictObject({
  type: conversionType,
  affiliate_id: v.optional(id),
  referral_code: v.optional(str(64)),
  email: v.optional(email),
  referred_user_id: v.optional(id),
  value: v.optional(money),
  base_value: v.optional(money),
  base_value_currency: v.optional(str(3)),
  paid: v.optional(bool),
  reference: v.optional(str(255)),
  coupon_code_used: v.optional(str(64)),
  payment_processor: v.optional(str(100)),
  product_id: v.optional(str(255)),
})
export const updateConversionBody = v.strictObject({
  value: v.optional(money),
  base_value: v.optional(money),
  base_value_currency: v.optional(str(3)),
  type: v.optional(conversionType),
  paid: v.optional(bool),
  reference: v.optional(str(255)),
  coupon_code_used: v.optional(v.nullable(str(64))),
  status: v.optional(conversionStatusChange),
  refund_amount: v.optional(money),
  reason: v.optional(str(500)),
})
export const createReferralBody = v.strictObject({
  email,
  affiliate_id: v.optional(v.nullable(id)),
  status: v.optional(referralStatus),
  user_agent: v.optional(str(1000)),
  ip_address: v.optional(str(100)),
})
export const updateReferralBody = v.strictObject({
  email: v.optional(email),
  affiliate_id: v.optional(v.nullable(id)),
  status: v.optional(referralStatus),
})
/** The processor's coupon id under its generic name and the names clients of Stripe and Lemon Squeezy send. */
const processorCouponIds = {
  processor_coupon_id: v.optional(v.nullable(str(255))),
  stripe_coupon_id: v.optional(v.nullable(str(255))),
  lemonsqueezy_discount_code: v.optional(v.nullable(str(255))),
}
export const createCouponBody = v.strictObject({
  affiliate_id: id,
  coupon_code: str(64),
  status: v.optional(couponStatus),
  ...processorCouponIds,
})
export const updateCouponBody = v.strictObject({
  affiliate_id: v.optional(id),
  coupon_code: v.optional(str(64)),
  status: v.optional(couponStatus),
  ...processorCouponIds,
})
export const createPayoutBody = v.strictObject({
  affiliate_id: v.optional(id),
  affiliate_email: v.optional(email),
  amount: money,
  method: v.optional(payoutMethod),
  payment_date: v.optional(str(40)),
})
export const trackClickBody = v.strictObject({
  referral_code: str(64),
  ip_address: v.optional(str(100)),
  user_agent: v.optional(str(1000)),
  landing_url: v.optional(str(2000)),
})
export const webhookTestBody = v.strictObject({ eventType })

// Alternative bodies (docs/api.md "The alternative shape") ---------------------------------------

export const createAffiliateBodyAlternative = v.strictObject({
  email,
  name: str(200),
  referralCode: v.optional(str(64)),
  parent_referral_code: v.optional(str(64)),
  parent_affiliate_id: v.optional(alternativeId),
  customFields: v.optional(v.record(v.string(), v.unknown(), 'must be an object')),
})
export const updateAffiliateBodyAlternative = v.strictObject({
  email: v.optional(email),
  name: v.optional(v.nullable(str(200))),
  referralCode: v.optional(str(64)),
  status: v.optional(affiliateStatus),
  paymentMethod: v.optional(v.nullable(str(100))),
  paymentDetails: v.optional(v.nullable(str(2000))),
  customFields: v.optional(v.nullable(v.record(v.string(), v.unknown(), 'must be an object'))),
})
export const createReferralBodyAlternative = v.strictObject({ email, referral_code: str(64) })
export const updateReferralBodyAlternative = v.strictObject({
  email: v.optional(email),
  affiliate_id: v.optional(v.nullable(alternativeId)),
  status: v.optional(referralStatus),
})
export const createConversionBodyAlternative = v.strictObject({
  customer_email: email,
  amount: money,
  referral_code: v.optional(str(64)),
})
export const createCouponBodyAlternative = v.strictObject({
  code: str(64),
  affiliate_email: email,
  discount_type: v.optional(str(50)),
  discount_value: v.optional(str(50)),
  status: v.optional(couponStatus),
  ...processorCouponIds,
})
export const createPayoutBodyAlternative = v.strictObject({
  affiliate_id: v.optional(alternativeId),
  affiliate_email: v.optional(email),
  amount: money,
  method: v.optional(payoutMethod),
  payment_date: v.optional(str(40)),
})

// The webhook delivery log ------------------------------------------------------------------

export const listDeliveriesQuery = v.strictObject({
  limit,
  offset,
  status: v.optional(deliveryStatus),
  event_type: v.optional(eventType),
})

/** GET /provider-events (both shapes): paged, filtered by provider, status and reference. */
export const listProviderEventsQuery = v.strictObject({
  ...listQueryAlternative.entries,
  provider: v.optional(providerName),
  status: v.optional(providerEventStatus),
  reference: v.optional(v.pipe(v.string(), v.maxLength(255, 'must be at most 255 characters'))),
})
