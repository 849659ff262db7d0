// How the portal shows money, dates and statuses: amounts exactly as the API gives them (decimal
// text with the currency code, never through floats), dates in UTC.
import { html, type Html } from './html.js'
import type { ConversionView } from '../core/rules/views.js'
import { formatMoney, minorDigits } from '../core/model/money.js'

/** Whether a decimal amount such as '0.00' is zero. */
export const isZero = (amount: string): boolean => /^-?0(\.0+)?$/.test(amount)

export const money = (amount: string, currency: string): string => `${amount} ${currency}`

/** Minor units of `currency` as `money` shows them: 4999n USD is "49.99 USD". */
export const minorMoney = (minor: bigint, currency: string): string => money(formatMoney(minor, minorDigits(currency)), currency)

/** `part` of `whole` as a percentage with at most one decimal, as `locale` writes it ("2.5%", "2,5 %"); null when `whole` is 0. */
export function percentOf(part: number, whole: number, locale: string): string | null {
  return whole === 0 ? null : new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(part / whole)
}

export const day = (at: Date): Html => html`<time datetime="${at.toISOString()}">${at.toISOString().slice(0, 10)}</time>`

const STATUS_LABELS: Record<ConversionView['status'], string> = {
  pending: 'Pending (on hold)',
  active: 'Approved',
  review: 'In review',
  refunded: 'Refunded',
  rejected: 'Rejected',
}

const RULE_SOURCES: Record<string, string> = {
  explicit: 'Explicit value',
  product: 'Product rule',
  affiliate: "Affiliate's own rule",
  tier: 'Tier rule',
  sub_program: 'Sub-program rule',
  project: 'Project rule',
}

/** Which rule earned a conversion, on what basis, and what it gave: "Product rule: purchase, 15 %". */
export function commissionRule(rule: { ruleSource: string | null; basis: string; commissionRate: string | null; commissionAmount: string | null }, currency: string): string {
  const source = rule.ruleSource === null ? 'Rule not recorded' : (RULE_SOURCES[rule.ruleSource] ?? rule.ruleSource)
  const gave = rule.commissionAmount !== null ? money(rule.commissionAmount, currency) : rule.commissionRate !== null ? `${rule.commissionRate} %` : null
  return `${source}: ${rule.basis.replace('_', ' ')}${gave === null ? '' : `, ${gave}`}`
}

/** A conversion's status; a partly refunded one says so beside its status. */
export function conversionStatus(conversion: ConversionView): Html {
  const partlyRefunded = conversion.status !== 'refunded' && !isZero(conversion.refundedBaseValue)
  return html`<span class="badge ${conversion.status}">${STATUS_LABELS[conversion.status]}</span>${
    partlyRefunded ? html` <span class="badge refunded">Partly refunded: ${conversion.refundedBaseValue} ${conversion.baseValueCurrency ?? ''}</span>` : null
  }`
}
