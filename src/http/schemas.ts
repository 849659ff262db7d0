// valibot schemas of the REST request bodies and query strings, in the wire's own field names
// (snake_case), shared by the shapes; a shape's own bodies are in its file (shapes/). Exported by
// name so the OpenAPI document can be generated from them. Queries arrive as strings and are parsed strictly.
import * as v from 'valibot'
import { EMBED_SECTIONS } from '../core/model/embed-token.js'
import { CLICK_DIMENSIONS } from '../core/ports/analytics.js'
import { email, id, intParam, limit, money, offset, processorCouponIds, str } from './wire.js'
import { RFC3339, RFC3339_MESSAGE, affiliateStatus, commissionSettings, incentiveSettings, locale, conversionStatusChange, conversionType, couponStatus, listedConversionType, DATE_RANGE_MESSAGE, deliveryStatus, eventType, inDateRange, MAX_OFFSET, namesRealDay, payoutMethod, providerEventStatus, providerName, referralStatus } from '../core/model/schemas.js'

const bool = v.boolean('must be a boolean')

// Query strings -------------------------------------------------------------------------------

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
    v.check(namesRealDay, 'must be an ISO 8601 date'),
    v.transform((input) => new Date(input)),
    v.check((date) => !Number.isNaN(date.getTime()), 'must be an ISO 8601 date'),
    v.check(inDateRange, DATE_RANGE_MESSAGE),
  ),
)

export const listAffiliatesQuery = v.strictObject({ limit, offset, status: v.optional(v.picklist(['active', 'inactive'], 'must be active or inactive')) })
export const listConversionsQuery = v.strictObject({
  limit,
  offset,
  type: v.optional(listedConversionType),
  affiliate_id: idParam,
  referred_user_id: idParam,
  paid: boolParam,
  from: dateParam,
  to: dateParam,
})
export const listReferralsQuery = v.strictObject({ limit, offset, affiliate_id: idParam, status: v.optional(referralStatus) })
export const listCouponsQuery = v.strictObject({ limit, offset, affiliate_id: idParam, coupon_code: v.optional(str(64)), status: v.optional(couponStatus) })
const instant = v.pipe(v.string('must be a date-time'), v.regex(RFC3339, RFC3339_MESSAGE))
export const listPayoutsQuery = v.strictObject({ limit, offset, affiliate_id: idParam, as_of: v.optional(instant) })
export const listPayoutRequestsQuery = v.strictObject({ limit, offset, affiliate_id: idParam, status: v.optional(v.picklist(['open', 'paid'], 'must be open or paid')) })
/** Reads that answer as things stood at a moment (docs/payouts.md "The ledger as of a date"). */
export const asOfQuery = v.strictObject({ as_of: v.optional(instant) })
export const ledgerQuery = v.strictObject({ from: instant, to: instant })
export const listQuery = v.strictObject({ limit, offset })
/** GET /analytics (docs/analytics.md): `metric` is a comma-separated list (the route splits it; the core checks each name). */
export const analyticsQuery = v.strictObject({
  metric: v.optional(str(200)),
  group_by: v.optional(v.picklist(CLICK_DIMENSIONS, `must be one of ${CLICK_DIMENSIONS.join(', ')}`)),
  interval: v.optional(v.picklist(['day', 'week', 'month'], 'must be day, week or month')),
  from: v.optional(v.string()),
  to: v.optional(v.string()),
  timezone: v.optional(str(64)),
  affiliate: v.optional(str(254)),
  link: idParam,
})
export const taxSummaryQuery = v.strictObject({ year: v.optional(v.pipe(intParam(2000), v.maxValue(9999, 'must be a four-digit year'))) })

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
  locale: v.optional(locale),
  commission: v.optional(v.nullable(commissionSettings)),
  /** The affiliate's own incentives for the customers it refers (docs/incentives.md); null removes them. */
  incentives: v.optional(v.nullable(incentiveSettings)),
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
  locale: v.optional(v.nullable(locale)),
  /** The affiliate's own rules, in the settings' form (docs/commissions.md "Per-affiliate rules"); null removes them. */
  commission: v.optional(v.nullable(commissionSettings)),
  /** The affiliate's own incentives for the customers it refers (docs/incentives.md); null removes them. */
  incentives: v.optional(v.nullable(incentiveSettings)),
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
  click: v.optional(str(200)),
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
/** A link's fields (docs/links.md), alike in every shape: null clears one; the core checks their values. */
export const linkFields = {
  key: v.optional(str(64)),
  destination: v.optional(v.nullable(str(2048))),
  domain: v.optional(v.nullable(str(253))),
  utm_source: v.optional(v.nullable(str(200))),
  utm_medium: v.optional(v.nullable(str(200))),
  utm_campaign: v.optional(v.nullable(str(200))),
  utm_term: v.optional(v.nullable(str(200))),
  utm_content: v.optional(v.nullable(str(200))),
}
/** POST /links: the affiliate by email (`affiliate`) or id (`affiliate_id`). */
export const createLinkBody = v.strictObject({ affiliate: v.optional(email), affiliate_id: v.optional(id), ...linkFields })
export const updateLinkBody = v.strictObject(linkFields)
export const listLinksQuery = v.strictObject({ limit, offset, affiliate: v.optional(email), affiliate_id: idParam })
/** GET /links/{id}/qr: the image's format and side in pixels (64 to 1024). */
export const linkQrQuery = v.strictObject({ format: v.optional(v.picklist(['svg', 'png'], 'must be svg or png')), size: v.optional(intParam(1)) })
/** POST /affiliates/{email}/reject, alike in every shape. */
/** docs/embed.md: POST /embed-tokens. */
export const createEmbedTokenBody = v.strictObject({
  email: v.optional(email),
  external_id: v.optional(str(200)),
  name: v.optional(v.nullable(str(200))),
  group: v.optional(v.nullable(str(64))),
  ttl_seconds: v.optional(v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer'), v.minValue(60, 'must be at least 60'), v.maxValue(86_400, 'must be at most 86400 (24 hours)'))),
  hide: v.optional(v.array(v.picklist(EMBED_SECTIONS, `must be ${EMBED_SECTIONS.join(', ')}`))),
})

/** docs/incentives.md "Promotion codes": the code, and the Stripe coupon when not the affiliate's incentive's. */
export const createPromotionCodeBody = v.strictObject({ code: str(64), coupon: v.optional(str(200)) })
export const rejectAffiliateBody = v.strictObject({ reason: v.optional(v.nullable(str(1000))) })
export const createPayoutBody = v.strictObject({
  affiliate_id: v.optional(id),
  affiliate_email: v.optional(email),
  amount: money,
  method: v.optional(payoutMethod),
  payment_date: v.optional(str(40)),
})
/** POST /payouts/runs (docs/payouts.md "Payout runs"). */
export const payoutRunBody = v.strictObject({ dry_run: v.optional(v.boolean('must be a boolean')) })
export const trackClickBody = v.strictObject({
  referral_code: str(64),
  ip_address: v.optional(str(100)),
  user_agent: v.optional(str(1000)),
  landing_url: v.optional(str(2000)),
})
export const webhookTestBody = v.strictObject({ eventType })

// The webhook delivery log ------------------------------------------------------------------

export const listDeliveriesQuery = v.strictObject({
  limit,
  offset,
  status: v.optional(deliveryStatus),
  event_type: v.optional(eventType),
})

/** GET /provider-events (both shapes): paged, filtered by provider, status and reference. */
export const listProviderEventsQuery = v.strictObject({
  ...listQuery.entries,
  provider: v.optional(providerName),
  status: v.optional(providerEventStatus),
  reference: v.optional(v.pipe(v.string(), v.maxLength(255, 'must be at most 255 characters'))),
})
