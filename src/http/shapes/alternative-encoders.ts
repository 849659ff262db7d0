// The alternative shape's records (docs/api.md): `aff_` string ids for affiliates, camelCase
// affiliate fields, lists nested under data.<name> with total/limit/offset, single records under
// data.<name>, and the `{ success: false, error: { code, message, details: { field, issue } } }`
// error form. A record's schema is in alternative-records.ts (the conversion's encoder derives from
// its table there); the codecs in alternative.ts.
import type { AffiliateView, ConversionView, CouponView, LinkView, PayoutView, ReferralView } from '../../core/rules/views.js'
import type { DueEntry } from '../../core/payouts/payouts-due.js'
import type { PayoutRunResult } from '../../core/payouts/payout-runs.js'
import type { PayoutRequestView } from '../../core/payouts/payout-requests.js'
import type { BalancesView, LedgerEntry, ProgramBalancesView } from '../../core/payouts/ledger-history.js'
import type { ErrorInfo, HttpErrorCode } from '../../server/errors.js'
import type { ProjectScope } from '../../core/program.js'
import type { ConversionPreview } from '../../core/conversions/conversion-create.js'
import type { ProviderEventView } from '../../core/provider-events/index.js'
import type { AuditEntry } from '../../core/ports/audit-log.js'
import type { AffiliateExport, ReferralExport } from '../../core/project/personal-data.js'
import type { Delivery, DeliveryAttempt } from '../../core/model/types.js'
import { page, type ListPage } from '../route.js'
import { camelKeys } from './camel-case.js'
import * as P from './primary-encoders.js'
import * as R from './alternative-records.js'
import { wireEncoder } from './wire-table.js'

const ERROR_CODES: Record<HttpErrorCode, string> = {
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
  service_unavailable: 'service_unavailable',
  insufficient_storage: 'insufficient_storage',
}

export function error(info: ErrorInfo): unknown {
  const field = info.field
  const issue = field && info.message.startsWith(`${info.field}: `) ? info.message.slice(info.field!.length + 2) : info.message
  return { success: false, error: { code: ERROR_CODES[info.code], message: info.message, details: { field, issue } } }
}

export function data(name: string, record: unknown): unknown {
  return { success: true, data: { [name]: record } }
}

export function list(name: string, items: unknown[], page: ListPage): unknown {
  return { success: true, data: { [name]: items, total: page.total, limit: page.limit, offset: page.offset } }
}

export const affiliateId = R.affiliateWireId

export function affiliate(view: AffiliateView, detail: boolean): unknown {
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
    record.locale = view.locale
    if (view.application) record.application = camelKeys(P.application(view.application))
    record.commission = view.commission
    record.incentives = view.incentives
    record.tier = view.tier
    record.tierProgress = view.tierProgress
  }
  return record
}

export const conversion = wireEncoder(R.conversionWire)

const encodePreview = wireEncoder(R.conversionPreviewWire)
/** What POST /conversions would create. */
export const conversionPreview = (preview: ConversionPreview): Record<string, unknown> => encodePreview(preview, undefined)

export function referral(view: ReferralView): unknown {
  return {
    email: view.email,
    referral_code: view.affiliateCode,
    affiliate_email: view.affiliateEmail,
    created_at: view.createdAt.toISOString(),
  }
}

export function coupon(view: CouponView): unknown {
  return {
    id: view.id,
    code: view.code,
    affiliate_email: view.affiliateEmail,
    discount_type: view.discountType,
    discount_value: view.discountValue,
    status: view.status,
    ...P.processorCouponIds(view),
    created_at: view.createdAt.toISOString(),
  }
}

export function link(view: LinkView): unknown {
  return { id: view.id, affiliate_id: affiliateId(view.affiliateId), ...P.linkFields(view) }
}

export function payout(view: PayoutView): unknown {
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

export function payoutRun(result: PayoutRunResult): unknown {
  return {
    period: result.period,
    dryRun: result.dryRun,
    items: result.items.map((item) => ({
      affiliateId: affiliateId(item.affiliateId),
      affiliateEmail: item.affiliateEmail,
      amount: Number(item.amount),
      currency: item.currency,
      provider: item.provider,
      outcome: item.outcome,
      payoutId: item.payoutId,
      resumed: item.resumed,
      reason: item.reason,
    })),
    counts: result.counts,
  }
}

export function due(entry: DueEntry): unknown {
  return { affiliateId: affiliateId(entry.affiliateId), affiliateEmail: entry.affiliateEmail, amount: Number(entry.amount), currency: entry.currency, conversionIds: entry.conversionIds }
}

/** A page of the core's list as this shape's list form, under data.<name>. */
export function paged<T>(name: string, result: { items: T[]; total: number; limit: number; offset: number }, record: (item: T) => unknown): unknown {
  return list(name, result.items.map(record), page(result))
}

/** The records of these conversions, reading each credited affiliate once. */
export async function conversions(api: ProjectScope, views: ConversionView[]): Promise<unknown[]> {
  const codes = new Map<number, string | null>()
  for (const view of views) {
    if (codes.has(view.affiliateId)) continue
    const affiliate = await api.affiliates.get(view.affiliateId).catch(() => null)
    codes.set(view.affiliateId, affiliate?.referralCode ?? null)
  }
  return views.map((view) => conversion(view, codes.get(view.affiliateId) ?? null))
}

export async function conversionItem(api: ProjectScope, view: ConversionView): Promise<unknown> {
  return data('conversion', (await conversions(api, [view]))[0])
}

export const delivery = (record: Delivery) => camelKeys(P.delivery(record))

/** A delivery with its attempts, oldest first. */
export function deliveryDetail(detail: { delivery: Delivery; attempts: DeliveryAttempt[] }): unknown {
  return data('delivery', { ...delivery(detail.delivery), attemptHistory: detail.attempts.map((attempt) => camelKeys(P.attempt(attempt))) })
}

export const payoutRequest = (view: PayoutRequestView) => ({ ...camelKeys(P.payoutRequest(view) as object), affiliateId: affiliateId(view.affiliateId), amount: Number(view.amount) })
export const balances = (view: BalancesView) => camelKeys(P.balances(view) as object)
export const programBalances = (view: ProgramBalancesView) => ({
  totals: balances(view.totals),
  affiliates: view.affiliates.map((row) => ({ ...balances(row), affiliateId: affiliateId(row.affiliateId), affiliateEmail: row.affiliateEmail })),
})
export const ledgerEntry = (entry: LedgerEntry) => ({ ...camelKeys(P.ledgerEntry(entry) as object), affiliateId: affiliateId(entry.affiliateId) })

export const providerEvent = (view: ProviderEventView) => camelKeys(P.providerEvent(view))
export const auditEntry = (entry: AuditEntry) => camelKeys(P.auditEntry(entry))
export const stats = P.statsIn({ timeZone: 'timeZone', visitors: 'uniqueVisitors' })

export function affiliateExport(result: AffiliateExport): unknown {
  const code = result.affiliate.referralCode
  return {
    affiliate: affiliate(result.affiliate, true),
    personalDetails: camelKeys(P.personalDetails(result.personal)),
    mails: result.mails.map((mail) => camelKeys(P.exportedMail(mail))),
    taxDetails: result.taxDetails && camelKeys(P.taxDetails(result.taxDetails)!),
    referrals: result.referrals.map(referral),
    conversions: result.conversions.map((view) => conversion(view, code)),
    payouts: result.payouts.map(payout),
    coupons: result.coupons.map(coupon),
  }
}

export function referralExport(result: ReferralExport): unknown {
  return {
    referral: referral(result.referral),
    conversions: result.conversions.map((view) => conversion(view, result.referral.affiliateCode)),
    customerIds: result.customerIds.map((customer) => ({ provider: customer.provider, externalId: customer.externalId })),
  }
}
