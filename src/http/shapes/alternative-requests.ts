// valibot schemas of the alternative shape's request bodies and queries (docs/api.md "The
// alternative shape"), under the names affiliate-kit/http publishes them by in `schemas`
// (routes/index.ts adds them to the shared ones).
import * as v from 'valibot'
import { EMBED_SECTIONS } from '../../core/model/embed-token.js'
import { affiliateStatus, commissionSettings, couponStatus, incentiveSettings, locale } from '../../core/model/schemas.js'
import { createPayoutBody, linkFields, listQuery, updateReferralBody } from '../schemas.js'
import { email, id as positiveId, limit, money, offset, processorCouponIds, str } from '../wire.js'

export const listQueryAlternative = listQuery

export const listAffiliatesQueryAlternative = v.strictObject({ limit, offset, status: v.optional(v.picklist(['active', 'pending', 'blocked'], 'must be active, pending or blocked')) })

/** An id in this shape: `aff_12`, `12` or 12. */
export const alternativeId = v.pipe(
  v.union([positiveId, v.pipe(v.string(), v.regex(/^(aff_)?[1-9]\d{0,14}$/))], 'must be an id such as aff_12'),
  v.transform((input) => (typeof input === 'number' ? input : Number(input.replace(/^aff_/, '')))),
)

/** docs/embed.md: POST /embed-tokens, its fields in this shape's camelCase. */
export const createEmbedTokenBodyAlternative = v.strictObject({
  email: v.optional(email),
  externalId: v.optional(str(200)),
  name: v.optional(v.nullable(str(200))),
  group: v.optional(v.nullable(str(64))),
  ttlSeconds: v.optional(v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer'), v.minValue(60, 'must be at least 60'), v.maxValue(86_400, 'must be at most 86400 (24 hours)'))),
  hide: v.optional(v.array(v.picklist(EMBED_SECTIONS, `must be ${EMBED_SECTIONS.join(', ')}`))),
})

export const createAffiliateBodyAlternative = v.strictObject({
  email,
  name: str(200),
  referralCode: v.optional(str(64)),
  parent_referral_code: v.optional(str(64)),
  parent_affiliate_id: v.optional(alternativeId),
  customFields: v.optional(v.record(v.string(), v.unknown(), 'must be an object')),
  locale: v.optional(locale),
  commission: v.optional(v.nullable(commissionSettings)),
  incentives: v.optional(v.nullable(incentiveSettings)),
})
export const updateAffiliateBodyAlternative = v.strictObject({
  email: v.optional(email),
  name: v.optional(v.nullable(str(200))),
  referralCode: v.optional(str(64)),
  status: v.optional(affiliateStatus),
  paymentMethod: v.optional(v.nullable(str(100))),
  paymentDetails: v.optional(v.nullable(str(2000))),
  customFields: v.optional(v.nullable(v.record(v.string(), v.unknown(), 'must be an object'))),
  locale: v.optional(v.nullable(locale)),
  commission: v.optional(v.nullable(commissionSettings)),
  incentives: v.optional(v.nullable(incentiveSettings)),
})
export const createReferralBodyAlternative = v.strictObject({ email, referral_code: str(64) })
export const updateReferralBodyAlternative = v.strictObject({ ...updateReferralBody.entries, affiliate_id: v.optional(v.nullable(alternativeId)) })
export const createConversionBodyAlternative = v.strictObject({
  customer_email: email,
  amount: money,
  referral_code: v.optional(str(64)),
  click: v.optional(str(200)),
})
export const createCouponBodyAlternative = v.strictObject({
  code: str(64),
  affiliate_email: email,
  discount_type: v.optional(str(50)),
  discount_value: v.optional(str(50)),
  status: v.optional(couponStatus),
  ...processorCouponIds,
})
export const createPayoutBodyAlternative = v.strictObject({ ...createPayoutBody.entries, affiliate_id: v.optional(alternativeId) })
/** POST /links: the affiliate by email, `aff_12` or `12`. */
export const createLinkBodyAlternative = v.strictObject({ affiliate: str(254), ...linkFields })
export const listLinksQueryAlternative = v.strictObject({ limit, offset, affiliate: v.optional(str(254)) })
