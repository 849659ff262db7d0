// The primary shape's records (docs/api.md): snake_case fields, integer ids, `{ success, data,
// pagination }` lists, and the `{ success: false, error: "message" }` error form. A record's
// schema is in primary-records.ts (the conversion's encoder derives from its table there); the
// codecs of its operations in primary.ts.
import type { AffiliateApplication } from '../../core/model/types.js'
import type { AffiliateView, ConversionView, CouponView, LinkView, PayoutView, ReferralView, TierProgress } from '../../core/rules/views.js'
import type { ConversionPreview } from '../../core/conversions/conversion-create.js'
import type { ProviderEventView } from '../../core/provider-events/index.js'
import type { StatsSeries } from '../../core/project/stats.js'
import type { DueEntry } from '../../core/payouts/payouts-due.js'
import type { PayoutRunResult } from '../../core/payouts/payout-runs.js'
import type { PayoutRequestView } from '../../core/payouts/payout-requests.js'
import type { BalancesView, LedgerEntry, ProgramBalancesView } from '../../core/payouts/ledger-history.js'
import type { DailyCounts } from '../../core/ports/tracking-storage.js'
import type { AuditEntry } from '../../core/ports/audit-log.js'
import type { AffiliateExport, ReferralExport } from '../../core/project/personal-data.js'
import type { TaxDetailsView } from '../../core/affiliates/tax-details.js'
import type { Delivery, DeliveryAttempt } from '../../core/model/types.js'
import { Currency } from '../../core/model/money.js'
import type { ErrorInfo } from '../../server/errors.js'
import { page, type ListPage } from '../route.js'
import * as R from './primary-records.js'
import { wireEncoder } from './wire-table.js'

export function error(info: ErrorInfo): unknown {
  return { success: false, error: info.message }
}

export function data(data: unknown): unknown {
  return { success: true, data }
}

export function list(items: unknown[], page: ListPage): unknown {
  const { total, limit, offset } = page
  return { success: true, data: items, pagination: { limit, offset, total, has_more: offset + items.length < total } }
}

/** pending and blocked are shown as inactive. */
const shownStatus = (status: AffiliateView['status']) => (status === 'active' ? 'active' : 'inactive')

/** The create response: earnings null, no stats (docs/api.md "POST /affiliates"). */
export function affiliateCreated(view: AffiliateView): unknown {
  return {
    id: view.id,
    user_email: view.email,
    referral_code: view.referralCode,
    unpaid_earnings: null,
    total_earnings: null,
    created_at: view.createdAt.toISOString(),
    status: shownStatus(view.status),
  }
}

export function affiliate(view: AffiliateView): unknown {
  const record: Record<string, unknown> = {
    id: view.id,
    user_email: view.email,
    referral_code: view.referralCode,
    created_at: view.createdAt.toISOString(),
    status: shownStatus(view.status),
    clicks: view.clicks,
    signups: view.signups,
    purchases: view.purchases,
    unpaid_earnings: view.earnings.unpaid,
    total_earnings: view.earnings.total,
    locale: view.locale,
    commission: view.commission,
    incentives: view.incentives,
    tier: view.tier,
    tier_progress: tierProgress(view.tierProgress),
  }
  if (view.holdPeriod) {
    record.eligible_earnings = view.earnings.eligible
    record.held_earnings = view.earnings.held
    record.next_release_date = view.earnings.nextReleaseDate
  }
  if (view.application) record.application = application(view.application)
  return record
}

/** The application record in snake_case (a shape with camelCase names camel-cases its keys). */
export function application(record: AffiliateApplication): Record<string, unknown> {
  return {
    website: record.website,
    promotion: record.promotion,
    fields: record.fields,
    applied_at: record.appliedAt,
    terms_accepted_at: record.termsAcceptedAt,
    decided_at: record.decidedAt,
    rejection_reason: record.rejectionReason,
  }
}

const encodeConversion = wireEncoder(R.conversionWire)
export const conversion = (view: ConversionView): Record<string, unknown> => encodeConversion(view, undefined)

export { commissionRule } from './primary-records.js'

const encodePreview = wireEncoder(R.conversionPreviewWire)
/** What POST /conversions would create (the preview's answer). */
export const conversionPreview = (preview: ConversionPreview): Record<string, unknown> => encodePreview(preview, undefined)

export function referral(view: ReferralView, withCode: boolean): unknown {
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

export function coupon(view: CouponView): unknown {
  return {
    id: view.id,
    affiliate_id: view.affiliateId,
    coupon_code: view.code,
    status: view.status,
    ...processorCouponIds(view),
    created_at: view.createdAt.toISOString(),
  }
}

/** A link's fields but its id and its affiliate's, alike in every shape. */
export function linkFields(view: LinkView) {
  return {
    key: view.key,
    url: view.url,
    destination: view.destination,
    domain: view.domain,
    utm_source: view.utmSource,
    utm_medium: view.utmMedium,
    utm_campaign: view.utmCampaign,
    utm_term: view.utmTerm,
    utm_content: view.utmContent,
    created_at: view.createdAt.toISOString(),
  }
}

export function link(view: LinkView): unknown {
  return { id: view.id, affiliate_id: view.affiliateId, ...linkFields(view) }
}

export function payout(view: PayoutView): unknown {
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

export function payoutRun(result: PayoutRunResult): unknown {
  return {
    period: result.period,
    dry_run: result.dryRun,
    items: result.items.map((item) => ({
      affiliate_id: item.affiliateId,
      affiliate_email: item.affiliateEmail,
      amount: item.amount,
      currency: item.currency,
      provider: item.provider,
      outcome: item.outcome,
      payout_id: item.payoutId,
      resumed: item.resumed,
      reason: item.reason,
    })),
    counts: { paid: result.counts.paid, processing: result.counts.processing, failed: result.counts.failed, skipped: result.counts.skipped, would_send: result.counts.wouldSend },
  }
}

export function due(entry: DueEntry): unknown {
  return { affiliate_id: entry.affiliateId, affiliate_email: entry.affiliateEmail, amount: entry.amount, currency: entry.currency, conversion_ids: entry.conversionIds }
}

export function payoutRequest(view: PayoutRequestView): unknown {
  return {
    id: view.id,
    affiliate_id: view.affiliateId,
    affiliate_email: view.affiliateEmail,
    amount: view.amount,
    currency: view.currency,
    status: view.status,
    payout_id: view.payoutId,
    created_at: view.createdAt.toISOString(),
    resolved_at: iso(view.resolvedAt),
  }
}

export function balances(view: BalancesView): unknown {
  return {
    as_of: view.asOf.toISOString(),
    currency: view.currency,
    total_earnings: view.total,
    held_earnings: view.held,
    eligible_earnings: view.eligible,
    payable_earnings: view.payable,
    paid_earnings: view.paid,
    credit: view.credit,
    unpaid_earnings: view.unpaid,
  }
}

export function programBalances(view: ProgramBalancesView): unknown {
  return {
    totals: balances(view.totals),
    affiliates: view.affiliates.map((row) => ({ affiliate_id: row.affiliateId, affiliate_email: row.affiliateEmail, ...(balances(row) as object) })),
  }
}

export function ledgerEntry(entry: LedgerEntry): unknown {
  return {
    at: entry.at.toISOString(),
    affiliate_id: entry.affiliateId,
    type: entry.type,
    amount: entry.amount,
    currency: entry.currency,
    conversion_id: entry.conversionId,
    payout_id: entry.payoutId,
  }
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

export function delivery(delivery: Delivery): Record<string, unknown> {
  return {
    id: delivery.id,
    webhook_id: delivery.endpointId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    next_attempt_at: iso(delivery.nextAttemptAt),
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
  }
}

export function attempt(attempt: DeliveryAttempt) {
  return {
    attempted_at: attempt.attemptedAt.toISOString(),
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    response_excerpt: attempt.responseExcerpt,
    error: attempt.error,
  }
}

/** A delivery with its attempts, oldest first. */
export function deliveryDetail(detail: { delivery: Delivery; attempts: DeliveryAttempt[] }): unknown {
  return data({ ...delivery(detail.delivery), attempt_history: detail.attempts.map(attempt) })
}

export function providerEvent(view: ProviderEventView) {
  return {
    id: view.id,
    provider: view.provider,
    event_id: view.eventId,
    type: view.type,
    reference: view.reference,
    status: view.status,
    detail: view.detail,
    conversion_id: view.conversionId,
    refund_amount: view.refundAmount,
    waiting_for: view.waitingFor,
    occurred_at: view.occurredAt.toISOString(),
    received_at: view.createdAt.toISOString(),
    updated_at: view.updatedAt.toISOString(),
  }
}

export function auditEntry(entry: AuditEntry) {
  return { id: entry.id, action: entry.action, target: entry.target, detail: entry.detail, at: entry.at.toISOString(), actor_id: entry.actorId, actor_name: entry.actorName }
}

/** The names a shape gives the stats fields that are two words. */
export interface StatsNames {
  timeZone: string
  visitors: string
}

function statsCounts(row: DailyCounts, currency: Currency, names: StatsNames) {
  return {
    clicks: row.clicks,
    [names.visitors]: row.visitors,
    signups: row.signups,
    purchases: row.purchases,
    revenue: currency.amount(row.revenue).format(),
    commission: currency.amount(row.commission).format(),
  }
}

/** docs/stats.md: the series and its totals, money in the series currency's decimal text. */
export function statsIn(names: StatsNames) {
  return (series: StatsSeries) => {
    const currency = new Currency(series.currency)
    const { interval, from, to } = series
    const buckets = series.buckets.map((bucket) => ({ start: bucket.start, ...statsCounts(bucket, currency, names) }))
    return { data: { interval, [names.timeZone]: series.timeZone, currency: series.currency, from, to, buckets, totals: statsCounts(series.totals, currency, names) } }
  }
}

export const stats = statsIn({ timeZone: 'time_zone', visitors: 'unique_visitors' })

/** A page of the core's list as the primary list form. */
export function paged<T>(result: { items: T[]; total: number; limit: number; offset: number }, record: (item: T) => unknown): unknown {
  return list(result.items.map(record), page(result))
}

export function taxDetails(view: TaxDetailsView | null) {
  return view && { legal_name: view.legalName, country: view.country, form_type: view.formType, tax_id: view.taxIdMasked, updated_at: view.updatedAt.toISOString() }
}

/** Contact and payment details of an export, in snake_case (a shape with camelCase names camel-cases its keys). */
export function personalDetails(personal: AffiliateExport['personal']): Record<string, unknown> {
  return {
    email: personal.email,
    name: personal.name,
    payment_method: personal.paymentMethod,
    payment_details: personal.paymentDetails,
    payout_method: personal.payoutMethod,
    paypal_email: personal.paypalEmail,
    wise_email: personal.wiseEmail,
    wise_account_id: personal.wiseAccountId,
    stripe_account_id: personal.stripeAccountId,
    custom_fields: personal.customFields,
    locale: personal.locale,
    email_opt_out: personal.emailOptOut,
  }
}

/** A mail of an export, in snake_case. */
export function exportedMail(mail: AffiliateExport['mails'][number]): Record<string, unknown> {
  return { id: mail.id, kind: mail.kind, recipient: mail.recipient, status: mail.status, created_at: mail.createdAt.toISOString(), sent_at: mail.sentAt?.toISOString() ?? null }
}

export function affiliateExport(result: AffiliateExport): unknown {
  return {
    affiliate: affiliate(result.affiliate),
    personal_details: personalDetails(result.personal),
    mails: result.mails.map(exportedMail),
    tax_details: taxDetails(result.taxDetails),
    referrals: result.referrals.map((view) => referral(view, true)),
    conversions: result.conversions.map(conversion),
    payouts: result.payouts.map(payout),
    coupons: result.coupons.map(coupon),
  }
}

export function referralExport(result: ReferralExport): unknown {
  return {
    referral: referral(result.referral, true),
    conversions: result.conversions.map(conversion),
    customer_ids: result.customerIds.map((customer) => ({ provider: customer.provider, external_id: customer.externalId })),
  }
}

/** The tier progress in snake_case (a shape with camelCase names camel-cases its keys). */
export function tierProgress(progress: TierProgress | null) {
  if (progress === null) return null
  const { next } = progress
  return {
    period: progress.period,
    period_start: progress.periodStart,
    revenue: progress.revenue,
    customers: progress.customers,
    next: next && { name: next.name, min_revenue: next.minRevenue, min_customers: next.minCustomers },
  }
}
