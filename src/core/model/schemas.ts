// valibot schemas of every core method input, and `validate`, which turns the first issue into
// a ValidationError naming the field. Money stays unparsed here (number or decimal text): it is
// read exactly by money.ts once the currency, and so the allowed decimals, is known.
import * as v from 'valibot'
import { SIGNED_REFERRAL } from './signed-referral.js'
import { EMBED_SECTIONS } from './embed-token.js'
import { isCalendarDay } from './calendar.js'
import { LOCALES } from './i18n/locales.js'
import { OPTIONAL_TOPICS } from './mail-kinds.js'
import { ValidationError, type ErrorMessage } from './errors.js'
import { DELIVERY_STATUSES, EVENT_TYPES, PROVIDER_NAMES, SCOPES } from './types.js'

/** Parses input; the first issue becomes a ValidationError naming its field (or `rootField`). */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown, rootField = 'input'): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: true })
  if (result.success) return result.output
  const issue = result.issues[0]
  const field = issuePath(issue) || rootField
  throw new ValidationError(field, issueMessage(issue, field))
}

/** The dotted path of an issue's field: `wiseDetails.email`; '' for the input itself. */
function issuePath(issue: v.BaseIssue<unknown>): string {
  return issue.path?.map((item) => String(item.key)).join('.') ?? ''
}

/**
 * What a strict object's issue is about (valibot reports three things under one issue type): a
 * key it does not know (expected `never`), a value that is no object, or a required key left out.
 * Null for the issues of other schemas, whose message says it.
 */
export function strictObjectProblem(issue: v.BaseIssue<unknown>): 'unknown' | 'not an object' | 'required' | null {
  if (issue.type !== 'strict_object') return null
  if (issue.expected === 'never') return 'unknown'
  return issue.expected === 'Object' ? 'not an object' : 'required'
}

/** `field: message`, or `unknown field "field"` for a key a strict object does not know. */
function issueMessage(issue: v.BaseIssue<unknown>, field: string): ErrorMessage {
  const problem = strictObjectProblem(issue)
  if (problem === 'unknown') return (name) => `unknown field "${name(field)}"`
  if (problem === 'not an object') return (name) => `${name(field)}: must be an object`
  if (problem === 'required') return (name) => `${name(field)}: is required`
  return (name) => `${name(field)}: ${issue.message}`
}

// One mailbox as the mailer reads it (nodemailer's address parser): a dot-atom local part and a
// dotted domain, nothing it would read as a list, a display name, a group or a comment
// (`eve,postmaster@example.com` is two addresses to it). Letters and digits
// beyond ASCII are allowed.
const ATOM = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]+"
const LABEL = '[\\p{L}\\p{M}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]*[\\p{L}\\p{M}\\p{N}])?'
const EMAIL = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`, 'u')
export const email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, 'must be at most 254 characters'),
  v.regex(EMAIL, 'must be a valid email address'),
)
/** A referral code or a link key: 3 to 64 letters, digits, `_` or `-`. */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{3,64}$/
export const referralCode = v.pipe(v.string('must be a string'), v.trim(), v.regex(CODE_PATTERN, 'must be 3 to 64 letters, digits, _ or -'))
export const id = v.pipe(
  v.number('must be an integer'),
  v.safeInteger('must be an integer'),
  v.minValue(1, 'must be a positive integer'),
)
const text = (max: number) => v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`))
export const money = v.union([v.number(), v.string()], 'must be a number')
export const currency = v.pipe(v.string('must be a string'), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, 'must be a three-letter currency code'))
/**
 * Earliest and latest instants accepted: years 1000 to 9999 UTC. Every storage keeps these exactly
 * (PGlite reads years below 100 back as 19xx / 20xx; past 9999 ISO 8601 needs six-digit years).
 */
export const DATE_RANGE = { min: Date.parse('1000-01-01T00:00:00.000Z'), max: Date.parse('9999-12-31T23:59:59.999Z') }
export const DATE_RANGE_MESSAGE = 'must be a date between 1000-01-01 and 9999-12-31 (UTC)'
/** A valid Date inside DATE_RANGE. */
export const inDateRange = (date: Date) => date.getTime() >= DATE_RANGE.min && date.getTime() <= DATE_RANGE.max
/** Largest list offset: 2^31 - 1, which every storage pages to. */
export const MAX_OFFSET = 2_147_483_647

/** False for text starting with a day past its month's end, which Date parsing rolls over (2026-02-30 reads as March 2). */
export const namesRealDay = (text: string) => !/^\d{4}-\d{2}-\d{2}/.test(text) || isCalendarDay(text.slice(0, 10))

const timestamp = v.pipe(
  v.union([v.date(), v.string()], 'must be an ISO 8601 date'),
  v.check((input) => input instanceof Date || namesRealDay(input), 'must be an ISO 8601 date'),
  v.transform((input) => (input instanceof Date ? input : new Date(input))),
  v.check((date) => !Number.isNaN(date.getTime()), 'must be an ISO 8601 date'),
  v.check(inDateRange, DATE_RANGE_MESSAGE),
)
export const limit = v.optional(v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1')))
export const offset = v.optional(
  v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer'), v.minValue(0, 'must not be negative'), v.maxValue(MAX_OFFSET, `must be at most ${MAX_OFFSET}`)),
)

export const affiliateStatus = v.picklist(['active', 'inactive', 'pending', 'blocked'], 'must be active, inactive, pending or blocked')
const payoutPreference = v.picklist(['paypal', 'wise', 'manual'], 'must be paypal, wise or manual')
const wiseDetails = v.strictObject({ accountId: text(200), email })
const slug = v.pipe(v.string('must be a string'), v.regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be a lowercase slug'))

/** A language of the portal and the mails (docs/email.md "Languages"). */
export const locale = v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`)

const affiliateFields = {
  /** The affiliate's own commission rules (docs/commissions.md "Per-affiliate rules"); null removes them. */
  commission: v.optional(v.nullable(v.lazy(() => commissionSettings))),
  /** The affiliate's own incentives (docs/incentives.md), over its sub-program's and the project's; null removes them. */
  incentives: v.optional(v.nullable(v.lazy(() => incentiveSettings))),
  name: v.optional(v.nullable(text(200))),
  /** The host app's id of the user (docs/embed.md); unique in the project. */
  externalId: v.optional(v.nullable(v.pipe(text(200), v.minLength(1, 'must not be empty')))),
  referralCode: v.optional(referralCode),
  status: v.optional(affiliateStatus),
  partnerSlug: v.optional(v.nullable(slug)),
  paymentMethod: v.optional(v.nullable(text(100))),
  paymentDetails: v.optional(v.nullable(text(2000))),
  payoutMethod: v.optional(v.nullable(payoutPreference)),
  paypalEmail: v.optional(v.nullable(email)),
  wiseDetails: v.optional(v.nullable(wiseDetails)),
  customFields: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  locale: v.optional(v.nullable(locale)),
  emailOptOut: v.optional(v.nullable(v.array(v.picklist(OPTIONAL_TOPICS, `must be ${OPTIONAL_TOPICS.join(' or ')}`)))),
}

export const createAffiliateInput = v.strictObject({
  email,
  ...affiliateFields,
  parentReferralCode: v.optional(referralCode),
  parentAffiliateId: v.optional(id),
})
export type CreateAffiliateInput = v.InferInput<typeof createAffiliateInput>

export const updateAffiliateInput = v.strictObject({ email: v.optional(email), ...affiliateFields })
export type UpdateAffiliateInput = v.InferInput<typeof updateAffiliateInput>

/** An application from the portal's page (docs/onboarding.md); `signup` is the mode of the page it came through. */
export const applyInput = v.strictObject({
  email,
  name: v.pipe(text(200), v.trim(), v.minLength(1, 'is required')),
  website: v.optional(v.nullable(text(500))),
  promotion: v.optional(v.nullable(text(2000))),
  fields: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.maxLength(64, 'names must be at most 64 characters')), v.union([text(2000), v.boolean()], 'must be text or true/false')),
      v.check((fields) => Object.keys(fields).length <= 50, 'must have at most 50 fields'),
    ),
  ),
  partnerSlug: v.optional(v.nullable(slug)),
  termsAccepted: v.optional(v.boolean('must be a boolean')),
  signup: v.picklist(['open', 'review'], 'must be open or review'),
  /** The language of the page the application came from: the affiliate's `locale`. */
  locale: v.optional(v.nullable(locale)),
})
export type ApplyInput = v.InferInput<typeof applyInput>

/** docs/embed.md: the affiliate a host's user is (found by external id or email, else enrolled), and the token's life and hidden sections. */
export const createEmbedTokenInput = v.strictObject({
  /** Needed to enroll a user who is no affiliate yet. */
  email: v.optional(email),
  /** The host app's id of the user: found by it first, and kept on an affiliate found or enrolled by email. */
  externalId: v.optional(v.pipe(text(200), v.minLength(1, 'must not be empty'))),
  /** The name an affiliate enrolled by this call gets; an existing one keeps its own. */
  name: v.optional(v.nullable(text(200))),
  /** The sub-program (partner slug) an affiliate enrolled by this call joins; an existing one stays where it is. */
  group: v.optional(v.nullable(slug)),
  ttlSeconds: v.optional(
    v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer'), v.minValue(60, 'must be at least 60'), v.maxValue(86_400, 'must be at most 86400 (24 hours)')),
  ),
  hide: v.optional(v.pipe(v.array(v.picklist(EMBED_SECTIONS, `must be ${EMBED_SECTIONS.join(', ')}`)), v.maxLength(EMBED_SECTIONS.length, 'names a section twice'))),
})
export type CreateEmbedTokenInput = v.InferInput<typeof createEmbedTokenInput>

export const rejectApplicationInput = v.strictObject({ reason: v.optional(v.nullable(text(1000))) })
export type RejectApplicationInput = v.InferInput<typeof rejectApplicationInput>

export const listAffiliatesInput = v.strictObject({
  limit,
  offset,
  /** One status, or any of several. */
  status: v.optional(v.union([affiliateStatus, v.pipe(v.array(affiliateStatus), v.minLength(1, 'must name at least one status'))], 'must be a status or a list of statuses')),
})
export type ListAffiliatesInput = v.InferInput<typeof listAffiliatesInput>

export const referralStatus = v.picklist(['pending', 'converted', 'direct', 'direct_signup'], 'must be pending, converted, direct or direct_signup')

export const createReferralInput = v.strictObject({
  email,
  affiliateId: v.optional(v.nullable(id)),
  referralCode: v.optional(referralCode),
  status: v.optional(referralStatus),
  /** A first purchase made before (an imported customer's): its renewals earn the recurring rule from then on. */
  firstPurchaseAt: v.optional(timestamp),
  userAgent: v.optional(text(1000)),
  ipAddress: v.optional(text(100)),
})
export type CreateReferralInput = v.InferInput<typeof createReferralInput>

export const updateReferralInput = v.strictObject({
  email: v.optional(email),
  affiliateId: v.optional(v.nullable(id)),
  status: v.optional(referralStatus),
})
export type UpdateReferralInput = v.InferInput<typeof updateReferralInput>

export const listReferralsInput = v.strictObject({ limit, offset, affiliateId: v.optional(id), status: v.optional(referralStatus) })
export type ListReferralsInput = v.InferInput<typeof listReferralsInput>

export const conversionType = v.picklist(['signup', 'purchase'], 'must be signup or purchase')
/** The types a list filters by: a request creates signups and purchases, the program bonuses too. */
export const listedConversionType = v.picklist(['signup', 'purchase', 'bonus', 'trial'], 'must be signup, purchase, bonus or trial')
/** The types the core creates from an input: a request's, and trials (started by a payment provider's subscription, or the host's code). */
export const createdConversionType = v.picklist(['signup', 'purchase', 'trial'], 'must be signup, purchase or trial')
const reference = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(255, 'must be at most 255 characters'))
const couponCode = v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, _, . or -'))

export const createConversionInput = v.strictObject({
  type: createdConversionType,
  affiliateId: v.optional(id),
  referralCode: v.optional(referralCode),
  email: v.optional(email),
  referredUserId: v.optional(id),
  value: v.optional(money),
  baseValue: v.optional(money),
  baseValueCurrency: v.optional(currency),
  paid: v.optional(v.boolean('must be a boolean')),
  reference: v.optional(reference),
  couponCodeUsed: v.optional(couponCode),
  paymentProcessor: v.optional(text(100)),
  productId: v.optional(text(255)),
  /**
   * The payment (an invoice's id) this conversion is one line of: the lines of one payment are
   * one payment of the customer, the first purchase or one renewal (docs/commissions.md "Renewals").
   */
  paymentId: v.optional(text(255)),
  /**
   * When the payment happened (a payment provider's event time): the commission, hold period and
   * renewal window are computed at this time instead of now. A time after now counts as now.
   * @default now
   */
  occurredAt: v.optional(timestamp),
  /** The signed referral of the attributed click (the referral cookie's value): its visitor feeds the fraud rules (docs/fraud.md). */
  click: v.optional(v.pipe(v.string('must be a string'), v.regex(SIGNED_REFERRAL, 'must be the signed referral of a click (the referral cookie\'s value)'))),
  /** The payment card's fingerprint, where the provider gives it (Stripe charges): feeds the self-referral rule. */
  cardFingerprint: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1 to 100 letters, digits, _ or -'))),
})
export type CreateConversionInput = v.InferInput<typeof createConversionInput>

export const conversionStatusChange = v.picklist(['active', 'review', 'refunded', 'rejected'], 'must be active, review, refunded or rejected')

export const updateConversionInput = v.strictObject({
  value: v.optional(money),
  baseValue: v.optional(money),
  baseValueCurrency: v.optional(currency),
  type: v.optional(conversionType),
  paid: v.optional(v.boolean('must be a boolean')),
  reference: v.optional(reference),
  couponCodeUsed: v.optional(v.nullable(couponCode)),
  status: v.optional(conversionStatusChange),
  refundAmount: v.optional(money),
  reason: v.optional(text(500)),
})
export type UpdateConversionInput = v.InferInput<typeof updateConversionInput>

export const listConversionsInput = v.strictObject({
  limit,
  offset,
  type: v.optional(listedConversionType),
  affiliateId: v.optional(id),
  referredUserId: v.optional(id),
  paid: v.optional(v.boolean('must be a boolean')),
  from: v.optional(timestamp),
  to: v.optional(timestamp),
})
export type ListConversionsInput = v.InferInput<typeof listConversionsInput>

export const deliveryStatus = v.picklist(DELIVERY_STATUSES, 'must be pending, delivering, succeeded or failed')
export const couponStatus = v.picklist(['active', 'inactive'], 'must be active or inactive')

export const createCouponInput = v.strictObject({
  affiliateId: id,
  code: couponCode,
  status: v.optional(couponStatus),
  processorCouponId: v.optional(v.nullable(text(255))),
  discountType: v.optional(v.nullable(text(50))),
  discountValue: v.optional(v.nullable(text(50))),
})
export type CreateCouponInput = v.InferInput<typeof createCouponInput>

export const updateCouponInput = v.strictObject({
  affiliateId: v.optional(id),
  code: v.optional(couponCode),
  status: v.optional(couponStatus),
  processorCouponId: v.optional(v.nullable(text(255))),
  discountType: v.optional(v.nullable(text(50))),
  discountValue: v.optional(v.nullable(text(50))),
})
export type UpdateCouponInput = v.InferInput<typeof updateCouponInput>

export const listCouponsInput = v.strictObject({
  limit,
  offset,
  affiliateId: v.optional(id),
  code: v.optional(couponCode),
  status: v.optional(couponStatus),
  /** The payment provider's id of the coupon or promotion (exact). */
  processorCouponId: v.optional(text(255)),
})
export type ListCouponsInput = v.InferInput<typeof listCouponsInput>

export const payoutMethod = v.picklist(['manual', 'paypal', 'wise', 'bank', 'crypto', 'other'], 'must be manual, paypal, wise, bank, crypto or other')

export const createPayoutInput = v.strictObject({
  affiliateId: v.optional(id),
  affiliateEmail: v.optional(email),
  amount: money,
  method: v.optional(payoutMethod),
  paymentDate: v.optional(timestamp),
})
export type CreatePayoutInput = v.InferInput<typeof createPayoutInput>

/** A payout made before, outside affiliate-kit: the conversions (by reference) it paid. */
export const recordPaidPayoutInput = v.strictObject({
  affiliateId: id,
  references: v.pipe(v.array(reference, 'must be a list of references'), v.minLength(1, 'must name 1 to 1000 conversions'), v.maxLength(1000, 'must name 1 to 1000 conversions')),
  paymentDate: timestamp,
  method: v.optional(payoutMethod),
})
export type RecordPaidPayoutInput = v.InferInput<typeof recordPaidPayoutInput>

/** An RFC 3339 instant (`as_of`, `from`, `to`): with a time and a zone. */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i
export const RFC3339_MESSAGE = 'must be an RFC 3339 date-time such as 2026-12-31T23:59:59Z'
export const asOfInput = v.pipe(
  v.string('must be a date-time'),
  v.regex(RFC3339, RFC3339_MESSAGE),
  v.check(namesRealDay, 'must be a real date-time'),
  v.transform((text) => new Date(text)),
  v.check((at) => !Number.isNaN(at.getTime()), 'must be a real date-time'),
)

export const listPayoutRequestsInput = v.strictObject({ limit, offset, affiliateId: v.optional(id), status: v.optional(v.picklist(['open', 'paid'], 'must be open or paid')) })
export type ListPayoutRequestsInput = v.InferInput<typeof listPayoutRequestsInput>

export const listPayoutsInput = v.strictObject({ limit, offset, affiliateId: v.optional(id), asOf: v.optional(v.union([v.date(), asOfInput], RFC3339_MESSAGE)) })
export type ListPayoutsInput = v.InferInput<typeof listPayoutsInput>

export const trackClickInput = v.strictObject({
  referralCode,
  ip: v.optional(text(100)),
  userAgent: v.optional(text(1000)),
  url: v.optional(text(2000)),
})
export type TrackClickInput = v.InferInput<typeof trackClickInput>

export const scope = v.picklist([...SCOPES, '*'], 'must be a known scope')
export const createApiKeyInput = v.strictObject({
  name: v.optional(v.nullable(text(100))),
  scopes: v.optional(v.pipe(v.array(scope), v.minLength(1, 'must name at least one scope'))),
})
export type CreateApiKeyInput = v.InferInput<typeof createApiKeyInput>

export const providerName = v.picklist(PROVIDER_NAMES, `must be ${PROVIDER_NAMES.slice(0, -1).join(', ')} or ${PROVIDER_NAMES[PROVIDER_NAMES.length - 1]}`)
/** A payment provider's customer id (Stripe `cus_...`, Paddle `ctm_...`). */
export const providerCustomerId = v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[A-Za-z0-9_-]{1,255}$/, 'must be 1 to 255 letters, digits, _ or -'))
export const providerEventStatus = v.picklist(['processing', 'applied', 'ignored', 'waiting'], 'must be processing, applied, ignored or waiting')
export const listProviderEventsInput = v.strictObject({
  limit,
  offset,
  provider: v.optional(providerName),
  status: v.optional(providerEventStatus),
  reference: v.optional(text(255)),
})
export type ListProviderEventsInput = v.InferInput<typeof listProviderEventsInput>

export const eventType = v.picklist([...EVENT_TYPES], `must be one of ${EVENT_TYPES.join(', ')}`)

// Project settings (docs/settings.md). Amount digits are checked against the currency later.
const rate = v.pipe(
  v.union([v.number(), v.string()], 'must be a number'),
  v.check((input) => /^\d+(\.\d+)?$/.test(String(input)) && Number(input) <= 100, 'must be a percentage from 0 to 100'),
)
const amountText = v.pipe(v.string('must be a decimal string'), v.regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "10.00"'))
const commissionRule = v.variant('type', [
  v.strictObject({ type: v.literal('percentage'), rate }),
  v.strictObject({ type: v.literal('fixed'), amount: amountText }),
])
const count = (min: number) => v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(min, `must be at least ${min}`))
const recurringStage = v.pipe(
  v.strictObject({ payments: v.optional(count(1)), rate: v.optional(rate), amount: v.optional(amountText) }),
  v.check((stage) => (stage.rate === undefined) !== (stage.amount === undefined), 'must have a rate or an amount'),
)
const recurringRule = v.pipe(
  v.strictObject({
    rate: v.optional(rate),
    amount: v.optional(amountText),
    durationMonths: v.optional(v.nullable(v.pipe(v.number(), v.safeInteger('must be an integer'), v.minValue(0, 'must not be negative')))),
    maxPayments: v.optional(v.nullable(count(1))),
    stages: v.optional(
      v.pipe(
        v.array(recurringStage),
        v.minLength(1, 'must have at least one stage'),
        v.maxLength(20, 'must have at most 20 stages'),
        v.check((stages) => stages.slice(0, -1).every((stage) => stage.payments !== undefined), 'every stage but the last must say its payments'),
      ),
    ),
  }),
  v.check((rule) => rule.rate === undefined || rule.amount === undefined, 'must have a rate or an amount, not both'),
  v.check((rule) => rule.stages === undefined || (rule.rate === undefined && rule.amount === undefined), 'stages replace rate and amount: give one or the other'),
)
const signupRule = v.strictObject({ amount: amountText })
const trialRule = v.strictObject({ amount: amountText, clawbackUnpaid: v.optional(v.boolean('must be a boolean')) })
const productId = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(255, 'must be at most 255 characters'))
const productRule = v.union(
  [
    v.strictObject({ excluded: v.literal(true, 'must be true') }),
    v.strictObject({ purchase: v.optional(commissionRule), recurring: v.optional(recurringRule), signup: v.optional(signupRule) }),
  ],
  'must be { "excluded": true } or rules among purchase, recurring and signup',
)
const commissionPeriod = v.picklist(['month', 'quarter', 'year', 'lifetime'], 'must be month, quarter, year or lifetime')
const ruleName = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'))
const tierRule = v.pipe(
  v.strictObject({
    name: ruleName,
    minRevenue: v.optional(amountText),
    minCustomers: v.optional(count(1)),
    purchase: v.optional(commissionRule),
    recurring: v.optional(recurringRule),
    signup: v.optional(signupRule),
  }),
  v.check((tier) => tier.minRevenue !== undefined || tier.minCustomers !== undefined, 'must have minRevenue or minCustomers'),
)
const bonusRule = v.pipe(
  v.strictObject({ name: ruleName, customers: v.optional(count(1)), revenue: v.optional(amountText), amount: amountText, period: commissionPeriod }),
  v.check((bonus) => (bonus.customers === undefined) !== (bonus.revenue === undefined), 'must have customers or revenue, not both'),
)
const distinctNames = <T extends { name: string }>() => v.check((list: T[]) => new Set(list.map((item) => item.name)).size === list.length, 'must have distinct names')
export const commissionSettings = v.strictObject({
  purchase: commissionRule,
  signup: v.optional(signupRule),
  trial: v.optional(trialRule),
  recurring: v.optional(recurringRule),
  products: v.optional(v.pipe(v.record(productId, productRule), v.check((products) => Object.keys(products).length <= 1000, 'must have at most 1000 products'))),
  grandfather: v.optional(v.boolean('must be a boolean')),
  tiers: v.optional(v.pipe(v.array(tierRule), v.maxLength(20, 'must have at most 20 tiers'), distinctNames<v.InferOutput<typeof tierRule>>())),
  tierPeriod: v.optional(commissionPeriod),
  bonuses: v.optional(v.pipe(v.array(bonusRule), v.maxLength(20, 'must have at most 20 bonuses'), distinctNames<v.InferOutput<typeof bonusRule>>())),
})
const fraudAction = v.picklist(['allow', 'review', 'reject'], 'must be allow, review or reject')
const perDayLimit = v.strictObject({
  max: v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(0, 'must not be negative'), v.maxValue(10_000, 'must be at most 10000')),
  action: fraudAction,
})
/** docs/fraud.md: each rule's action; amounts are checked against the currency later. */
const fraudSettings = v.strictObject({
  selfReferral: v.optional(fraudAction),
  sameVisitor: v.optional(fraudAction),
  disposableEmail: v.optional(fraudAction),
  paidAdsClick: v.optional(fraudAction),
  amountAbove: v.optional(v.strictObject({ amount: amountText, action: fraudAction })),
  signupsPerVisitorPerDay: v.optional(perDayLimit),
  signupsPerAffiliatePerDay: v.optional(perDayLimit),
})
const dayCount = v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(3650, 'must be at most 3650'))
/** An IANA time zone name the runtime knows (`Europe/Paris`, `UTC`). */
export const timeZone = v.pipe(
  v.string('must be a string'),
  v.check((name) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name })
      return name.length <= 64
    } catch {
      return false
    }
  }, 'must be an IANA time zone such as "Europe/Paris"'),
)
export const signupMode = v.picklist(['open', 'review', 'closed'], 'must be open, review or closed')

/** An affiliate's own promotion code at Stripe (docs/incentives.md "Promotion codes"): the code, and the coupon when not the incentive's. */
export const createPromotionCodeInput = v.strictObject({
  code: v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[A-Za-z0-9-]{3,64}$/, 'must be 3 to 64 letters, digits or - (what Stripe accepts in a code)')),
  coupon: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_.-]{1,200}$/, 'must be a Stripe coupon id'))),
})
export type CreatePromotionCodeInput = v.InferInput<typeof createPromotionCodeInput>

/** An id of a discount at a provider (a Stripe coupon, a Paddle discount, a Lemon Squeezy code). */
const discountId = v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_.-]{1,200}$/, 'must be 1 to 200 letters, digits, _, . or -'))
const percentOff = v.pipe(
  v.number('must be a number'),
  v.check((input) => input > 0 && input <= 100 && Number.isInteger(input * 100), 'must be a percentage above 0 and at most 100, with at most 2 decimals'),
)
/**
 * What a referred customer gets (docs/incentives.md): the discount's terms as the banner states
 * them (a percentage or an amount off, for how long) and its id at each payment provider.
 */
export const customerIncentive = v.pipe(
  v.strictObject({
    percentOff: v.optional(percentOff),
    amountOff: v.optional(amountText),
    duration: v.optional(v.picklist(['once', 'repeating', 'forever'], 'must be once, repeating or forever')),
    durationInMonths: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(120, 'must be at most 120'))),
    stripe: v.optional(v.strictObject({ couponId: discountId })),
    paddle: v.optional(v.strictObject({ discountId })),
    lemonSqueezy: v.optional(v.strictObject({ discountCode: discountId })),
  }),
  v.check((input) => (input.percentOff === undefined) !== (input.amountOff === undefined), 'needs one of percentOff or amountOff'),
  v.check((input) => (input.duration === 'repeating') === (input.durationInMonths !== undefined), 'durationInMonths goes with duration "repeating", and only with it'),
)
/** Incentives at one level: the project's settings, a sub-program's, an affiliate's own. */
export const incentiveSettings = v.strictObject({ customer: v.optional(v.nullable(customerIncentive)) })

export const projectSettingsInput = v.strictObject({
  currency: v.optional(currency),
  holdPeriodDays: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(0, 'must not be negative'), v.maxValue(3650, 'must be at most 3650'))),
  commission: v.optional(commissionSettings),
  multiTier: v.optional(v.strictObject({ enabled: v.boolean('must be a boolean'), tier2Rate: rate })),
  subPrograms: v.optional(v.record(slug, v.strictObject({ commission: commissionSettings, signup: v.optional(signupMode), incentives: v.optional(incentiveSettings) }))),
  /** What referred customers get (docs/incentives.md). */
  incentives: v.optional(v.strictObject({ customer: v.optional(v.nullable(customerIncentive)), showAffiliateName: v.optional(v.boolean('must be a boolean')) })),
  webhookRetryDelaysSeconds: v.optional(
    v.pipe(
      v.array(v.pipe(v.number('must be a number'), v.minValue(0, 'must not be negative'), v.maxValue(86_400 * 7, 'must be at most 604800'))),
      v.maxLength(10, 'must have at most 10 delays'),
    ),
  ),
  allowPrivateNetworks: v.optional(v.boolean('must be a boolean')),
  timeZone: v.optional(timeZone),
  attribution: v.optional(
    v.strictObject({
      model: v.optional(v.picklist(['first_click', 'last_click'], 'must be first_click or last_click')),
      windowDays: v.optional(dayCount),
    }),
  ),
  payouts: v.optional(
    v.strictObject({
      minimumAmount: v.optional(amountText),
      termsDays: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(0, 'must not be negative'), v.maxValue(365, 'must be at most 365'))),
      schedule: v.optional(
        v.strictObject({ day: v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(28, 'must be at most 28')) }),
      ),
      requests: v.optional(v.boolean('must be a boolean')),
      requireTaxDetails: v.optional(v.boolean('must be a boolean')),
      automatic: v.optional(v.strictObject({ paypal: v.optional(v.boolean('must be a boolean')), stripe: v.optional(v.boolean('must be a boolean')) })),
    }),
  ),
  fraud: v.optional(fraudSettings),
})
export type ProjectSettingsInput = v.InferInput<typeof projectSettingsInput>

/** An affiliate's tax details as entered (docs/tax-details.md); the tax id loses spaces and dashes. */
export const taxDetailsInput = v.strictObject({
  legalName: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(200, 'must be at most 200 characters')),
  country: v.pipe(v.string('must be a string'), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, 'must be a two-letter country code (ISO 3166-1)')),
  formType: v.picklist(['W-9', 'W-8BEN'], 'must be W-9 or W-8BEN'),
  taxId: v.pipe(
    v.string('must be a string'),
    v.transform((value) => value.replace(/[\s-]/g, '').toUpperCase()),
    v.regex(/^[A-Z0-9]{4,30}$/, 'must be 4 to 30 letters or digits'),
  ),
})
export type TaxDetailsInput = v.InferInput<typeof taxDetailsInput>
