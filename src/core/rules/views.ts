// Public records returned by the program: camelCase, money as exact decimal strings in the
// currency's minor-unit digits, statuses as users see them (pending derived from the clock).
// Each view shows its entity's shown fields (src/core/model/entities.ts) as stored, plus what it derives.
import { computeBalances, visibleStatus } from './ledger.js'
import { Currency, currencyOr } from '../model/money.js'
import { conversionFields, type affiliateFields, type affiliateTotalsFields, type couponFields, type linkFields, type payoutFields, type referralFields } from '../model/entities.js'
import { shownKeys, type ShownRecord } from '../model/entity.js'
import type { Affiliate, Conversion, ConversionStatus, Coupon, Link, Payout, Referral } from '../model/types.js'
import { shortUrl, type LinkSettings } from './link-settings.js'

export interface Earnings {
  total: string
  paid: string
  unpaid: string
  /** Unpaid and past the hold period, minus credit: what a payout may settle now. */
  eligible: string
  /** Unpaid and still inside the hold period. */
  held: string
  /** Payout money not yet matched to a whole conversion. */
  credit: string
  /** ISO date (YYYY-MM-DD) of the next release from hold; null when nothing is held. */
  nextReleaseDate: string | null
}

/** The affiliate as stored (but its project), its counters, currency and earnings. */
export interface AffiliateView extends ShownRecord<typeof affiliateFields>, ShownRecord<typeof affiliateTotalsFields> {
  currency: string
  /** Whether the project has a hold period (eligible/held are meaningful). */
  holdPeriod: boolean
  earnings: Earnings
  /** Figures of the current tier period and the next tier's thresholds; null when the project sets no tiers. */
  tierProgress: TierProgress | null
}

/** Where an affiliate stands in the performance tiers (docs/commissions.md "Performance tiers"). */
export interface TierProgress {
  period: 'month' | 'quarter' | 'year' | 'lifetime'
  /** First day of the current period (YYYY-MM-DD); null for `lifetime`. */
  periodStart: string | null
  /** Referred revenue of the period so far, in the project currency. */
  revenue: string
  /** New paying customers of the period so far. */
  customers: number
  /** The tier above and what reaches it; null at the top. */
  next: { name: string; minRevenue: string | null; minCustomers: number | null } | null
}

export interface ConversionView extends ShownRecord<typeof conversionFields> {
  /** Commission in the project currency. */
  value: string
  currency: string
  baseValue: string | null
  baseValueCurrency: string | null
  refundedBaseValue: string
  status: ConversionStatus
}

export interface ReferralView extends ShownRecord<typeof referralFields> {
  affiliateCode: string | null
  affiliateEmail: string | null
}

export interface CouponView extends ShownRecord<typeof couponFields> {
  affiliateEmail: string | null
}

/** An affiliate's link as stored (but its project), and its short URL (docs/links.md). */
export interface LinkView extends ShownRecord<typeof linkFields> {
  /** `https://go.example/r/<key>`, or `https://<domain>/<key>` on a short domain; null when the program has no public URL for it. */
  url: string | null
}

export interface PayoutView extends ShownRecord<typeof payoutFields> {
  amount: string
  /** `Processing` while a provider has it (its amount held), `Failed` when the provider did not pay (docs/payouts.md). */
  status: 'Paid' | 'Processing' | 'Failed'
  unpaidAfter: string
}

export function affiliateView(
  affiliate: Affiliate,
  held: { amount: bigint; nextReleaseAt: Date | null },
  settings: { currency: string; holdPeriodDays: number },
  tiers: { tier: string | null; progress: TierProgress } | null = null,
): AffiliateView {
  const { totals } = affiliate
  const currency = new Currency(settings.currency)
  const balances = computeBalances(totals, held)
  const money = (minor: bigint) => currency.amount(minor).format()
  return {
    id: affiliate.id,
    email: affiliate.email,
    externalId: affiliate.externalId,
    name: affiliate.name,
    referralCode: affiliate.referralCode,
    status: affiliate.status,
    partnerSlug: affiliate.partnerSlug,
    paymentMethod: affiliate.paymentMethod,
    paymentDetails: affiliate.paymentDetails,
    payoutMethod: affiliate.payoutMethod,
    paypalEmail: affiliate.paypalEmail,
    wiseDetails: affiliate.wiseDetails,
    parentId: affiliate.parentId,
    customFields: affiliate.customFields,
    locale: affiliate.locale,
    emailOptOut: affiliate.emailOptOut,
    application: affiliate.application,
    commission: affiliate.commission,
    incentives: affiliate.incentives,
    tier: tiers ? tiers.tier : affiliate.tier,
    tierProgress: tiers?.progress ?? null,
    createdAt: affiliate.createdAt,
    clicks: totals.clicks,
    signups: totals.signups,
    purchases: totals.purchases,
    currency: settings.currency,
    holdPeriod: settings.holdPeriodDays > 0,
    earnings: {
      total: money(balances.total),
      paid: money(balances.paid),
      unpaid: money(balances.unpaid),
      eligible: money(balances.eligible),
      held: money(balances.held),
      credit: money(balances.credit),
      nextReleaseDate: balances.nextReleaseAt ? balances.nextReleaseAt.toISOString().slice(0, 10) : null,
    },
  }
}

/** The conversion's fields its view copies as stored; a field added to the entity is added here. */
const CONVERSION_SHOWN = shownKeys(conversionFields)
/** Every key of a conversion view, in order: each view starts as a copy of it, so its keys are set, not added one by one. */
const CONVERSION_VIEW_KEYS = Object.fromEntries(
  [...CONVERSION_SHOWN, 'value', 'currency', 'baseValue', 'baseValueCurrency', 'refundedBaseValue', 'status'].map((key) => [key, null]),
)

/** @param currency the project currency, in which the commission is */
export function conversionView(conversion: Conversion, currency: Currency, now: Date): ConversionView {
  const view: Record<string, unknown> = { ...CONVERSION_VIEW_KEYS }
  for (const key of CONVERSION_SHOWN) view[key] = conversion[key]
  // What the view formats or derives: money in its currency, the status as users see it.
  const baseCurrency = currencyOr(conversion.baseCurrency, currency)
  view.value = currency.amount(conversion.value).format()
  view.currency = currency.code
  view.baseValue = conversion.baseValue === null ? null : baseCurrency.amount(conversion.baseValue).format()
  view.baseValueCurrency = conversion.baseCurrency
  view.refundedBaseValue = baseCurrency.amount(conversion.refundedBaseValue).format()
  view.status = visibleStatus(conversion, now)
  return view as unknown as ConversionView
}

export function referralView(referral: Referral, affiliate: Pick<Affiliate, 'referralCode' | 'email'> | null): ReferralView {
  return {
    id: referral.id,
    email: referral.email,
    affiliateId: referral.affiliateId,
    affiliateCode: affiliate?.referralCode ?? null,
    affiliateEmail: affiliate?.email ?? null,
    conversionStatus: referral.conversionStatus,
    conversionDate: referral.conversionDate,
    createdAt: referral.createdAt,
  }
}

export function couponView(coupon: Coupon, affiliate: Pick<Affiliate, 'email'> | null): CouponView {
  return {
    id: coupon.id,
    affiliateId: coupon.affiliateId,
    affiliateEmail: affiliate?.email ?? null,
    code: coupon.code,
    status: coupon.status,
    processorCouponId: coupon.processorCouponId,
    discountType: coupon.discountType,
    discountValue: coupon.discountValue,
    createdAt: coupon.createdAt,
  }
}

export function linkView(link: Link, settings: LinkSettings): LinkView {
  return {
    id: link.id,
    affiliateId: link.affiliateId,
    key: link.key,
    url: shortUrl(settings, link),
    destination: link.destination,
    domain: link.domain,
    utmSource: link.utmSource,
    utmMedium: link.utmMedium,
    utmCampaign: link.utmCampaign,
    utmTerm: link.utmTerm,
    utmContent: link.utmContent,
    createdAt: link.createdAt,
  }
}

const PAYOUT_STATUS_NAMES = { paid: 'Paid', processing: 'Processing', failed: 'Failed' } as const

export function payoutView(payout: Payout): PayoutView {
  const currency = new Currency(payout.currency)
  return {
    id: payout.id,
    affiliateId: payout.affiliateId,
    affiliateEmail: payout.affiliateEmail,
    amount: currency.amount(payout.amount).format(),
    currency: payout.currency,
    method: payout.method,
    status: PAYOUT_STATUS_NAMES[payout.status],
    paymentDate: payout.paymentDate,
    conversionsSettled: payout.conversionsSettled,
    unpaidAfter: currency.amount(payout.unpaidAfter).format(),
    createdAt: payout.createdAt,
  }
}
