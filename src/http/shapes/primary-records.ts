// valibot schemas of the primary shape's response bodies: its OpenAPI document is generated from
// them, the typed client's record types derive from them, and the tests check real responses
// against the same schemas. A record's fields here and its encoder in primary-encoders.ts go together;
// the conversion's are one table (wire-table.ts) from which both derive.
import * as v from 'valibot'
import type { ConversionPreview } from '../../core/conversions/conversion-create.js'
import type { ConversionView } from '../../core/rules/views.js'
import { LOCALES } from '../../core/model/i18n/locales.js'
import { commissionSettings, incentiveSettings } from '../../core/model/schemas.js'
import { DELIVERY_STATUSES, LEDGER_MOVEMENT_TYPES, PROVIDER_NAMES, RULE_SOURCES } from '../../core/model/types.js'
import { wireRecord, wireTable } from './wire-table.js'

const timestamp = v.pipe(v.string(), v.isoTimestamp())
const decimalString = v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/))
const id = v.pipe(v.number(), v.integer())

/** The coupon's processor ids, named alike in every shape. */
export const couponProcessorIds = {
  processor_coupon_id: v.nullable(v.string()),
  stripe_coupon_id: v.nullable(v.string()),
  lemonsqueezy_discount_code: v.nullable(v.string()),
}
/** The payment providers whose events are received, in every shape. */
export const providerName = v.picklist(PROVIDER_NAMES)
/** How a payout was made, in every shape. */
export const paymentMethod = v.picklist(['manual', 'paypal', 'wise', 'bank', 'crypto', 'other'])

export const affiliateCreatedRecord = v.strictObject({
  id,
  user_email: v.string(),
  referral_code: v.string(),
  unpaid_earnings: v.null(),
  total_earnings: v.null(),
  created_at: timestamp,
  status: v.picklist(['active', 'inactive']),
})

/** What the affiliate told the portal's application page (docs/onboarding.md), in every shape. */
export const applicationRecord = v.strictObject({
  website: v.nullable(v.string()),
  promotion: v.nullable(v.string()),
  fields: v.record(v.string(), v.union([v.string(), v.boolean()])),
  applied_at: timestamp,
  terms_accepted_at: v.nullable(timestamp),
  decided_at: v.nullable(timestamp),
  rejection_reason: v.nullable(v.string()),
})

/** Where the affiliate stands in the performance tiers (docs/commissions.md "Performance tiers"); null when none are set. */
export const tierProgressRecord = v.nullable(
  v.strictObject({
    period: v.picklist(['month', 'quarter', 'year', 'lifetime']),
    period_start: v.nullable(v.pipe(v.string(), v.isoDate())),
    revenue: decimalString,
    customers: v.number(),
    next: v.nullable(v.strictObject({ name: v.string(), min_revenue: v.nullable(decimalString), min_customers: v.nullable(v.number()) })),
  }),
)

export const affiliateRecord = v.strictObject({
  id,
  user_email: v.string(),
  referral_code: v.string(),
  created_at: timestamp,
  status: v.picklist(['active', 'inactive']),
  clicks: v.number(),
  signups: v.number(),
  purchases: v.number(),
  unpaid_earnings: decimalString,
  total_earnings: decimalString,
  /** The affiliate's language for the portal and mails; null: the browser's, else the program's. */
  locale: v.nullable(v.picklist(LOCALES)),
  /** Only when the project has a hold period. */
  eligible_earnings: v.optional(decimalString),
  held_earnings: v.optional(decimalString),
  next_release_date: v.optional(v.nullable(v.pipe(v.string(), v.isoDate()))),
  /** Only for an affiliate that applied through the portal, or was approved or rejected. */
  application: v.optional(applicationRecord),
  commission: v.nullable(commissionSettings),
  /** The affiliate's own incentives (docs/incentives.md); null: its sub-program's or the project's apply. */
  incentives: v.nullable(incentiveSettings),
  tier: v.nullable(v.string()),
  tier_progress: tierProgressRecord,
})

/** Which rule earned a conversion and what it gave (docs/commissions.md "Precedence"); source null on conversions older than rule records. */
export const commissionRuleRecord = v.strictObject({
  source: v.nullable(v.picklist(RULE_SOURCES)),
  basis: v.picklist(['purchase', 'recurring', 'recurring_expired', 'signup', 'trial', 'explicit', 'tier2', 'excluded', 'bonus']),
  type: v.picklist(['percentage', 'fixed']),
  rate: v.nullable(decimalString),
  amount: v.nullable(decimalString),
})

/** Which rule earned the conversion and what it gave. */
export function commissionRule(view: Pick<ConversionView, 'ruleSource' | 'basis' | 'commissionType' | 'commissionRate' | 'commissionAmount'>) {
  return { source: view.ruleSource, basis: view.basis, type: view.commissionType, rate: view.commissionRate, amount: view.commissionAmount }
}

/** The rule a preview applied, as commissionRule reads it. */
export const previewRule = (preview: ConversionPreview) =>
  commissionRule({ ruleSource: preview.ruleSource, basis: preview.basis, commissionType: preview.commissionType, commissionRate: preview.rate, commissionAmount: preview.amount })

const decimalNumber = (value: string | null) => (value === null ? null : Number(value))

/** The conversion's wire fields: each one's value from the view and its schema. A field added to the record is a line here. */
export const conversionWire = wireTable<ConversionView>()({
  id: ['id', id],
  type: ['type', v.picklist(['signup', 'purchase', 'bonus', 'trial'])],
  affiliate_id: ['affiliateId', id],
  referred_user_id: ['referredUserId', v.nullable(id)],
  value: [(view) => Number(view.value), v.number()],
  base_value: [(view) => decimalNumber(view.baseValue), v.nullable(v.number())],
  base_value_currency: ['baseValueCurrency', v.nullable(v.string())],
  paid: ['paid', v.boolean()],
  created_at: [(view) => view.createdAt.toISOString(), timestamp],
  reference: ['reference', v.nullable(v.string())],
  coupon_code_used: ['couponCodeUsed', v.nullable(v.string())],
  status: ['status', v.picklist(['pending', 'active', 'review', 'refunded', 'rejected'])],
  review_reason: ['reviewReason', v.nullable(v.string())],
  product_id: ['productId', v.nullable(v.string())],
  commission_rule: [commissionRule, commissionRuleRecord],
})
export const conversionRecord = wireRecord(conversionWire)

/** What POST /conversions would create: the preview's wire fields. */
export const conversionPreviewWire = wireTable<ConversionPreview>()({
  affiliate_id: ['affiliateId', id],
  matched_by: ['matchedBy', v.picklist(['affiliate_id', 'referral_code', 'email', 'coupon'])],
  product_id: ['productId', v.nullable(v.string())],
  commission_rule: [previewRule, commissionRuleRecord],
  value: [(preview) => Number(preview.value), v.number()],
  currency: ['currency', v.string()],
  base_value: [(preview) => decimalNumber(preview.baseValue), v.nullable(v.number())],
  base_value_currency: ['baseValueCurrency', v.string()],
  exchange_rate: ['fxRate', decimalString],
  status: ['status', v.picklist(['pending', 'active', 'review', 'rejected'])],
  review_reason: ['reviewReason', v.nullable(v.string())],
  hold_until: [(preview) => preview.holdUntil.toISOString(), timestamp],
  sub_program: ['subProgram', v.nullable(v.string())],
  tier2: [
    ({ tier2 }) => tier2 && { affiliate_id: tier2.affiliateId, value: Number(tier2.value), rate: tier2.rate },
    v.nullable(v.strictObject({ affiliate_id: id, value: v.number(), rate: decimalString })),
  ],
})
export const conversionPreviewRecord = wireRecord(conversionPreviewWire)

export const attribution = v.strictObject({
  affiliate_id: id,
  matched_by: v.picklist(['affiliate_id', 'referral_code', 'email', 'coupon']),
})

export const referralRecord = v.strictObject({
  id,
  user_email: v.string(),
  affiliate_id: v.nullable(id),
  conversion_status: v.picklist(['pending', 'converted', 'direct', 'direct_signup']),
  conversion_date: v.nullable(timestamp),
  created_at: timestamp,
  affiliate_code: v.optional(v.nullable(v.string())),
})

export const couponRecord = v.strictObject({
  id,
  affiliate_id: id,
  coupon_code: v.string(),
  status: v.picklist(['active', 'inactive']),
  ...couponProcessorIds,
  created_at: timestamp,
})

/** A link's fields as stored, alike in every shape but its affiliate's id (docs/links.md). */
export const linkFieldRecords = {
  key: v.string(),
  url: v.nullable(v.string()),
  destination: v.nullable(v.string()),
  domain: v.nullable(v.string()),
  utm_source: v.nullable(v.string()),
  utm_medium: v.nullable(v.string()),
  utm_campaign: v.nullable(v.string()),
  utm_term: v.nullable(v.string()),
  utm_content: v.nullable(v.string()),
  created_at: timestamp,
}
export const linkRecord = v.strictObject({ id, affiliate_id: id, ...linkFieldRecords })
/** GET /links/{id}/qr: the image, SVG text or PNG bytes. */
export const linkQrImage = { name: 'LinkQrCode', schema: v.string(), contentType: ['image/svg+xml', 'image/png'] } as const

export const payoutRecord = v.strictObject({
  id,
  affiliate_id: id,
  affiliate_email: v.string(),
  amount: decimalString,
  status: v.picklist(['Paid', 'Processing', 'Failed']),
  payment_method: paymentMethod,
  payment_date: timestamp,
  conversions_settled: v.number(),
  unpaid_earnings_after: v.number(),
})

/** An affiliate due a payout (GET /payouts/due). */
export const dueRecord = v.strictObject({
  affiliate_id: id,
  affiliate_email: v.string(),
  amount: decimalString,
  currency: v.string(),
  conversion_ids: v.array(id),
})

/** A payout run's result (POST /payouts/runs): per affiliate, what it did or, dry, would do. */
export const payoutRunRecord = v.strictObject({
  period: v.string(),
  dry_run: v.boolean(),
  items: v.array(
    v.strictObject({
      affiliate_id: id,
      affiliate_email: v.string(),
      amount: decimalString,
      currency: v.string(),
      provider: v.nullable(v.picklist(['paypal', 'stripe'])),
      outcome: v.picklist(['would_send', 'paid', 'processing', 'failed', 'skipped']),
      payout_id: v.nullable(id),
      resumed: v.boolean(),
      reason: v.nullable(v.string()),
    }),
  ),
  counts: v.strictObject({ paid: v.number(), processing: v.number(), failed: v.number(), skipped: v.number(), would_send: v.number() }),
})

/** An affiliate's payout request (GET /payouts/requests). */
export const payoutRequestRecord = v.strictObject({
  id,
  affiliate_id: id,
  affiliate_email: v.nullable(v.string()),
  amount: decimalString,
  currency: v.string(),
  status: v.picklist(['open', 'paid']),
  payout_id: v.nullable(id),
  created_at: timestamp,
  resolved_at: v.nullable(timestamp),
})

/** An affiliate's balances at a moment (GET /affiliates/{email}/balances). */
export const balancesRecord = v.strictObject({
  as_of: timestamp,
  currency: v.string(),
  total_earnings: decimalString,
  held_earnings: decimalString,
  eligible_earnings: decimalString,
  payable_earnings: decimalString,
  paid_earnings: decimalString,
  credit: decimalString,
  unpaid_earnings: decimalString,
})

/** What the program owed at a moment (GET /ledger/balances). */
export const programBalancesRecord = v.strictObject({
  totals: balancesRecord,
  affiliates: v.array(v.strictObject({ affiliate_id: id, affiliate_email: v.string(), ...balancesRecord.entries })),
})

/** One ledger movement (GET /ledger). */
export const ledgerEntryRecord = v.strictObject({
  at: timestamp,
  affiliate_id: id,
  type: v.picklist(LEDGER_MOVEMENT_TYPES),
  amount: decimalString,
  currency: v.string(),
  conversion_id: v.nullable(id),
  payout_id: v.nullable(id),
})

export const providerEventRecord = v.strictObject({
  id,
  provider: providerName,
  event_id: v.string(),
  type: v.string(),
  reference: v.nullable(v.string()),
  status: v.picklist(['processing', 'applied', 'ignored', 'waiting']),
  detail: v.nullable(v.string()),
  conversion_id: v.nullable(id),
  refund_amount: v.nullable(decimalString),
  waiting_for: v.nullable(v.string()),
  occurred_at: timestamp,
  received_at: timestamp,
  updated_at: timestamp,
})

export const auditEntryRecord = v.strictObject({
  id,
  actor_id: v.string(),
  actor_name: v.string(),
  action: v.string(),
  target: v.nullable(v.string()),
  detail: v.nullable(v.string()),
  at: timestamp,
})

export const clickRecord = v.strictObject({ id, affiliate_id: id, created_at: timestamp })

export const deliveryRecord = v.strictObject({
  id,
  webhook_id: id,
  event_type: v.string(),
  status: v.picklist(DELIVERY_STATUSES),
  attempts: v.number(),
  last_status_code: v.nullable(v.number()),
  next_attempt_at: v.nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
})

export const deliveryAttemptRecord = v.strictObject({
  attempted_at: timestamp,
  status_code: v.nullable(v.number()),
  duration_ms: v.number(),
  response_excerpt: v.nullable(v.string()),
  error: v.nullable(v.string()),
})

export const deliveryDetailRecord = v.strictObject({ ...deliveryRecord.entries, attempt_history: v.array(deliveryAttemptRecord) })

/** A one-time portal sign-in link. */
export const portalLinkRecord = v.strictObject({ url: v.pipe(v.string(), v.url()), expires_at: timestamp })

/** docs/embed.md: a token that opens an affiliate's embedded dashboard; `url` is the dashboard's, from the portal's public URL, or null. */
export const embedTokenRecord = v.strictObject({ token: v.string(), expires_at: timestamp, url: v.nullable(v.pipe(v.string(), v.url())) })

const day = v.pipe(v.string(), v.isoDate())
const count = v.pipe(v.number(), v.integer())
export const statsCounts = { clicks: count, unique_visitors: count, signups: count, purchases: count, revenue: decimalString, commission: decimalString }
export const statsBucket = v.strictObject({ start: day })
export const statsRecord = v.strictObject({
  interval: v.picklist(['day', 'week', 'month']),
  time_zone: v.string(),
  currency: v.string(),
  from: day,
  to: day,
  buckets: v.array(v.strictObject({ ...statsBucket.entries, ...statsCounts })),
  totals: v.strictObject(statsCounts),
})

export const pagination = v.strictObject({ limit: v.number(), offset: v.number(), total: v.number(), has_more: v.boolean() })

export const item = <S extends v.GenericSchema>(data: S) => v.strictObject({ success: v.literal(true), data })
export const list = <S extends v.GenericSchema>(data: S) => v.strictObject({ success: v.literal(true), data: v.array(data), pagination })

export const conversionCreated = v.strictObject({
  success: v.literal(true),
  data: conversionRecord,
  attribution,
  duplicate: v.optional(v.literal(true)),
})

export const errorBody = v.strictObject({ success: v.literal(false), error: v.string() })

/** Tax details as every answer but the year-end CSV shows them: the tax id masked. */
export const taxDetailsRecord = v.strictObject({ legal_name: v.string(), country: v.string(), form_type: v.picklist(['W-9', 'W-8BEN']), tax_id: v.pipe(v.string(), v.regex(/^\*{4}/)), updated_at: timestamp })
const nullableText = v.nullable(v.string())
/** What the affiliate record holds about the person beyond the public record (an export's). */
export const personalDetailsRecord = v.strictObject({
  email: v.string(),
  name: nullableText,
  payment_method: nullableText,
  payment_details: nullableText,
  payout_method: nullableText,
  paypal_email: nullableText,
  wise_email: nullableText,
  wise_account_id: nullableText,
  stripe_account_id: nullableText,
  custom_fields: v.nullable(v.record(v.string(), v.unknown())),
  locale: nullableText,
  email_opt_out: v.nullable(v.array(v.string())),
})
export const exportedMailRecord = v.strictObject({ id, kind: v.string(), recipient: v.string(), status: v.string(), created_at: timestamp, sent_at: v.nullable(timestamp) })
export const affiliateExportRecord = v.strictObject({
  affiliate: affiliateRecord,
  personal_details: personalDetailsRecord,
  mails: v.array(exportedMailRecord),
  tax_details: v.nullable(taxDetailsRecord),
  referrals: v.array(referralRecord),
  conversions: v.array(conversionRecord),
  payouts: v.array(payoutRecord),
  coupons: v.array(couponRecord),
})
export const customerIdRecord = v.strictObject({ provider: v.string(), external_id: v.string() })
export const referralExportRecord = v.strictObject({ referral: referralRecord, conversions: v.array(conversionRecord), customer_ids: v.array(customerIdRecord) })

// The named responses of the primary shape (their OpenAPI component names) ------------------

const named = <S extends v.GenericSchema>(name: string, schema: S) => ({ name, schema })
export const affiliateResponse = named('AffiliateResponse', item(affiliateRecord))
export const affiliateCreatedResponse = named('AffiliateCreatedResponse', item(affiliateCreatedRecord))
export const affiliateList = named('AffiliateList', list(affiliateRecord))
export const conversionResponse = named('ConversionResponse', item(conversionRecord))
export const conversionCreatedResponse = named('ConversionCreatedResponse', conversionCreated)
export const conversionList = named('ConversionList', list(conversionRecord))
export const conversionPreviewResponse = named('ConversionPreviewResponse', item(conversionPreviewRecord))
export const referralResponse = named('ReferralResponse', item(referralRecord))
export const referralList = named('ReferralList', list(referralRecord))
export const couponResponse = named('CouponResponse', item(couponRecord))
export const couponList = named('CouponList', list(couponRecord))
export const linkResponse = named('LinkResponse', item(linkRecord))
export const linkList = named('LinkList', list(linkRecord))
export const payoutResponse = named('PayoutResponse', item(payoutRecord))
export const payoutList = named('PayoutList', list(payoutRecord))
export const dueList = named('PayoutDueList', item(v.array(dueRecord)))
export const payoutRunResponse = named('PayoutRunResponse', item(payoutRunRecord))
export const payoutRequestList = named('PayoutRequestList', list(payoutRequestRecord))
export const balancesResponse = named('BalancesResponse', item(balancesRecord))
export const programBalancesResponse = named('ProgramBalancesResponse', item(programBalancesRecord))
export const ledgerList = named('LedgerList', item(v.array(ledgerEntryRecord)))
export const clickResponse = named('ClickResponse', item(clickRecord))
export const deliveryResponse = named('DeliveryResponse', item(deliveryDetailRecord))
export const deliveryList = named('DeliveryList', list(deliveryRecord))
export const providerEventList = named('ProviderEventList', list(providerEventRecord))
export const providerEventReplayResponse = named('ProviderEventReplayResponse', item(v.strictObject({ replayed: v.boolean(), message: v.string(), event: providerEventRecord })))
export const auditLogList = named('AuditLogList', list(auditEntryRecord))
export const portalLinkResponse = named('PortalLinkResponse', item(portalLinkRecord))
export const embedTokenResponse = named('EmbedTokenResponse', item(embedTokenRecord))
export const statsResponse = named('StatsResponse', v.strictObject({ data: statsRecord }))
export const affiliateExportResponse = named('AffiliateExportResponse', item(affiliateExportRecord))
export const referralExportResponse = named('ReferralExportResponse', item(referralExportRecord))
export const taxSummaryCsv = { name: 'TaxSummaryCsv', schema: v.string(), contentType: 'text/csv' }
