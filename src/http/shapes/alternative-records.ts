// valibot schemas of the alternative shape's response bodies (docs/api.md "The alternative
// shape"; its request bodies and queries are in alternative-requests.ts): its OpenAPI document is
// generated from them, and tests check real responses against them. A record's fields here and its encoder in alternative-encoders.ts go together;
// the conversion's are one table (wire-table.ts) from which both derive.
import * as v from 'valibot'
import type { ConversionPreview } from '../../core/conversions/conversion-create.js'
import type { ConversionView } from '../../core/rules/views.js'
import { LOCALES } from '../../core/model/i18n/locales.js'
import { commissionSettings, incentiveSettings } from '../../core/model/schemas.js'
import { camelKeys } from './camel-case.js'
import * as P from './primary-records.js'
import { couponProcessorIds, paymentMethod } from './primary-records.js'
import { wireRecord, wireTable } from './wire-table.js'

const timestamp = v.pipe(v.string(), v.isoTimestamp())
const id = v.pipe(v.number(), v.integer())
const affiliateId = v.pipe(v.string(), v.regex(/^aff_\d+$/))
/** An affiliate's id in this shape: `aff_12`. */
export const affiliateWireId = (id: number) => `aff_${id}`
const decimalNumber = (value: string | null) => (value === null ? null : Number(value))

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
  locale: v.nullable(v.picklist(LOCALES)),
  application: v.optional(v.strictObject(camelKeys(P.applicationRecord.entries))),
  commission: v.nullable(commissionSettings),
  incentives: v.nullable(incentiveSettings),
  tier: v.nullable(v.string()),
  tierProgress: v.nullable(
    v.strictObject({
      period: v.picklist(['month', 'quarter', 'year', 'lifetime']),
      periodStart: v.nullable(v.pipe(v.string(), v.isoDate())),
      revenue: v.string(),
      customers: v.number(),
      next: v.nullable(v.strictObject({ name: v.string(), minRevenue: v.nullable(v.string()), minCustomers: v.nullable(v.number()) })),
    }),
  ),
})

/** The conversion's wire fields (the context: the credited affiliate's referral code). A field added to the record is a line here. */
export const conversionWire = wireTable<ConversionView, string | null>()({
  id: ['id', id],
  customer_email: ['customerEmail', v.nullable(v.string())],
  amount: [(view) => decimalNumber(view.baseValue), v.nullable(v.number())],
  commission_amount: [(view) => Number(view.value), v.number()],
  status: ['status', v.picklist(['pending', 'active', 'review', 'refunded', 'rejected'])],
  review_reason: ['reviewReason', v.nullable(v.string())],
  created_at: [(view) => view.createdAt.toISOString(), timestamp],
  referral_code: [(_, referralCode) => referralCode, v.nullable(v.string())],
  product_id: ['productId', v.nullable(v.string())],
  commission_rule: [P.commissionRule, P.commissionRuleRecord],
})
export const conversionRecord = wireRecord(conversionWire)

/** What POST /conversions would create, in this shape's conversion names. */
export const conversionPreviewWire = wireTable<ConversionPreview>()({
  affiliate_id: [(preview) => affiliateWireId(preview.affiliateId), affiliateId],
  matched_by: ['matchedBy', v.picklist(['affiliate_id', 'referral_code', 'email', 'coupon'])],
  amount: [(preview) => decimalNumber(preview.baseValue), v.nullable(v.number())],
  commission_amount: [(preview) => Number(preview.value), v.number()],
  currency: ['currency', v.string()],
  exchange_rate: ['fxRate', v.string()],
  status: ['status', v.picklist(['pending', 'active', 'review', 'rejected'])],
  review_reason: ['reviewReason', v.nullable(v.string())],
  hold_until: [(preview) => preview.holdUntil.toISOString(), timestamp],
  product_id: ['productId', v.nullable(v.string())],
  commission_rule: [P.previewRule, P.commissionRuleRecord],
})
export const conversionPreviewRecord = wireRecord(conversionPreviewWire)

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

export const linkRecord = v.strictObject({ id, affiliate_id: affiliateId, ...P.linkFieldRecords })

export const payoutRecord = v.strictObject({
  id,
  affiliateId,
  affiliateEmail: v.string(),
  amount: v.number(),
  status: v.picklist(['Paid', 'Processing', 'Failed']),
  paymentMethod,
  paymentDate: timestamp,
  conversionsSettled: v.number(),
  unpaidEarningsAfter: v.number(),
})

/** An affiliate due a payout (GET /payouts/due). */
export const dueRecord = v.strictObject({ affiliateId, affiliateEmail: v.string(), amount: v.number(), currency: v.string(), conversionIds: v.array(id) })

export const payoutRunRecord = v.strictObject({
  period: v.string(),
  dryRun: v.boolean(),
  items: v.array(
    v.strictObject({
      affiliateId,
      affiliateEmail: v.string(),
      amount: v.number(),
      currency: v.string(),
      provider: v.nullable(v.picklist(['paypal', 'stripe'])),
      outcome: v.picklist(['would_send', 'paid', 'processing', 'failed', 'skipped']),
      payoutId: v.nullable(id),
      resumed: v.boolean(),
      reason: v.nullable(v.string()),
    }),
  ),
  counts: v.strictObject({ paid: v.number(), processing: v.number(), failed: v.number(), skipped: v.number(), wouldSend: v.number() }),
})
export const payoutRequestRecord = v.strictObject({ ...camelKeys(P.payoutRequestRecord.entries), affiliateId, amount: v.number() })
export const balancesRecord = v.strictObject(camelKeys(P.balancesRecord.entries))
export const programBalancesRecord = v.strictObject({
  totals: balancesRecord,
  affiliates: v.array(v.strictObject({ ...camelKeys(P.balancesRecord.entries), affiliateId, affiliateEmail: v.string() })),
})
export const ledgerEntryRecord = v.strictObject({ ...camelKeys(P.ledgerEntryRecord.entries), affiliateId })

export const clickRecord = v.strictObject({ id, affiliateId, createdAt: timestamp })

export const deliveryRecord = v.strictObject(camelKeys(P.deliveryRecord.entries))
const attemptRecord = v.strictObject(camelKeys(P.deliveryAttemptRecord.entries))
export const deliveryDetailRecord = v.strictObject({ ...deliveryRecord.entries, attemptHistory: v.array(attemptRecord) })

export const providerEventRecord = v.strictObject(camelKeys(P.providerEventRecord.entries))

const statsCounts = v.strictObject(camelKeys(P.statsCounts))
export const statsRecord = v.strictObject({
  ...camelKeys(P.statsRecord.entries),
  buckets: v.array(v.strictObject({ ...P.statsBucket.entries, ...statsCounts.entries })),
  totals: statsCounts,
})

const auditEntryRecord = v.strictObject(camelKeys(P.auditEntryRecord.entries))

const portalLinkRecord = v.strictObject({ url: v.pipe(v.string(), v.url()), expiresAt: timestamp })
const embedTokenRecord = v.strictObject({ token: v.string(), expiresAt: timestamp, url: v.nullable(v.pipe(v.string(), v.url())) })

// The answer types are written out: inferred, a computed key `[name]` would reach the published
// declarations naming the type parameter outside its scope (TS2304 in a consumer's strict build).
type Success<D extends v.ObjectEntries> = v.StrictObjectSchema<{ readonly success: v.LiteralSchema<true, undefined>; readonly data: v.StrictObjectSchema<D, undefined> }, undefined>
type ItemBody<N extends string, S extends v.GenericSchema> = Success<{ readonly [K in N]: S }>
type ListBody<N extends string, S extends v.GenericSchema> = Success<
  { readonly [K in N]: v.ArraySchema<S, undefined> } & { readonly total: v.NumberSchema<undefined>; readonly limit: v.NumberSchema<undefined>; readonly offset: v.NumberSchema<undefined> }
>
const item = <N extends string, S extends v.GenericSchema>(name: N, record: S): ItemBody<N, S> =>
  v.strictObject({ success: v.literal(true), data: v.strictObject({ [name]: record } as { readonly [K in N]: S }) })
const list = <N extends string, S extends v.GenericSchema>(name: N, record: S): ListBody<N, S> =>
  v.strictObject({
    success: v.literal(true),
    data: v.strictObject({ [name]: v.array(record), total: v.number(), limit: v.number(), offset: v.number() } as ListBody<N, S>['entries']['data']['entries']),
  })

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
export const conversionPreviewResponse = named('ConversionPreviewResponse', item('preview', conversionPreviewRecord))
export const referralResponse = named('ReferralResponse', item('referral', referralRecord))
export const referralList = named('ReferralList', list('referrals', referralRecord))
export const couponResponse = named('CouponResponse', item('coupon', couponRecord))
export const couponList = named('CouponList', list('coupons', couponRecord))
export const linkResponse = named('LinkResponse', item('link', linkRecord))
export const linkList = named('LinkList', list('links', linkRecord))
export const payoutResponse = named('PayoutResponse', item('payout', payoutRecord))
export const payoutList = named('PayoutList', list('payouts', payoutRecord))
export const dueList = named('PayoutDueList', item('due', v.array(dueRecord)))
export const payoutRunResponse = named('PayoutRunResponse', item('run', payoutRunRecord))
export const payoutRequestList = named('PayoutRequestList', list('requests', payoutRequestRecord))
export const balancesResponse = named('BalancesResponse', item('balances', balancesRecord))
export const programBalancesResponse = named('ProgramBalancesResponse', item('balances', programBalancesRecord))
export const ledgerList = named('LedgerList', item('ledger', v.array(ledgerEntryRecord)))
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
export const embedTokenResponse = named('EmbedTokenResponse', item('embedToken', embedTokenRecord))
export const statsResponse = named('StatsResponse', v.strictObject({ data: statsRecord }))
export const affiliateExportResponse = named(
  'AffiliateExportResponse',
  item(
    'export',
    v.strictObject({
      affiliate: affiliateRecord,
      personalDetails: v.strictObject(camelKeys(P.personalDetailsRecord.entries)),
      mails: v.array(v.strictObject(camelKeys(P.exportedMailRecord.entries))),
      taxDetails: v.nullable(v.strictObject(camelKeys(P.taxDetailsRecord.entries))),
      referrals: v.array(referralRecord),
      conversions: v.array(conversionRecord),
      payouts: v.array(payoutRecord),
      coupons: v.array(couponRecord),
    }),
  ),
)
export const referralExportResponse = named(
  'ReferralExportResponse',
  item('export', v.strictObject({ referral: referralRecord, conversions: v.array(conversionRecord), customerIds: v.array(v.strictObject(camelKeys(P.customerIdRecord.entries))) })),
)
export const taxSummaryCsv = P.taxSummaryCsv
export const linkQrImage = P.linkQrImage
