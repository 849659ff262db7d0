// What each kind of mail says, read from its stored payload (docs/webhooks.md "Payloads") and the
// program's records, formatted for the affiliate's language: amounts exact in the program's
// currency (never through a float), days in the program's time zone.
import { formatAmount, formatDay, formatMonth } from '../core/model/i18n/translate.js'
import type { Locale } from '../core/model/i18n/locales.js'
import type { MailMessage, Conversion } from '../core/model/types.js'
import type { PayoutTerms } from '../core/rules/payout-terms.js'

/** Minor units of a decimal amount as written in a payload ("12.34" or 12.34), exactly; null when unreadable. */
export function minorOf(value: unknown, digits = 2): bigint | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  const match = /^(-?)(\d{1,18})(?:\.(\d{1,6}))?$/.exec(text)
  if (!match) return null
  const fraction = (match[3] ?? '').padEnd(digits, '0')
  if (fraction.length > digits && /[^0]/.test(fraction.slice(digits))) return null
  const minor = BigInt(match[2]!) * 10n ** BigInt(digits) + BigInt(fraction.slice(0, digits) || '0')
  return match[1] ? -minor : minor
}

/** The minor-unit digits of a currency (EUR 2, JPY 0). */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
}

const section = (payload: Readonly<Record<string, unknown>>, name: string) => (payload[name] ?? {}) as Record<string, unknown>
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 1000) : null)

/** When a sign-in link stops working, as the locale writes it (26 November 2026 at 10:15). */
export function formatExpiry(at: Date, locale: Locale, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(at)
}

export interface ValueSources {
  mail: MailMessage
  locale: Locale
  currency: string
  timeZone: string
  /** The conversion of a commission mail, as stored now. */
  conversion: Conversion | null
  /** The program's payout terms: when a commission becomes payable. */
  terms: PayoutTerms
}

/** The formatted values of a mail's kind (see MailContext.values). */
export function mailValues({ mail, locale, currency, timeZone, conversion, terms }: ValueSources): Record<string, string> {
  const { payload } = mail
  const money = (minor: bigint | null) => (minor === null ? '' : formatAmount(minor, currency, locale))
  const day = (value: unknown) => {
    const at = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null
    return at && !Number.isNaN(at.getTime()) ? formatDay(at, locale, timeZone) : ''
  }
  switch (mail.kind) {
    case 'sign_in': {
      const signIn = section(payload, 'sign_in')
      const expires = typeof signIn.expires_at === 'string' ? new Date(signIn.expires_at) : null
      return { expires: expires && !Number.isNaN(expires.getTime()) ? formatExpiry(expires, locale, timeZone) : '' }
    }
    case 'new_commission':
    case 'commission_ready': {
      const amount = conversion ? conversion.value : minorOf(section(payload, 'conversion').commission_amount, currencyDigits(currency))
      // Not payable when it was made (its hold, or the payout terms): the day it becomes payable, as the portal says.
      const later = conversion && mail.kind === 'new_commission' && !terms.isPayable(conversion.holdUntil, conversion.createdAt)
      return { amount: money(amount), ...(later ? { date: formatDay(new Date(`${terms.payableDay(conversion.holdUntil)}T12:00:00Z`), locale, 'UTC') } : {}) }
    }
    case 'payout_sent': {
      const payout = section(payload, 'payout')
      const payoutCurrency = text(payout.currency) ?? currency
      const amount = minorOf(payout.amount, currencyDigits(payoutCurrency))
      return { amount: amount === null ? '' : formatAmount(amount, payoutCurrency, locale), date: day(payout.payment_date), method: text(payout.method) ?? '' }
    }
    case 'rejected': {
      const reason = text(payload.reason) ?? text(section(payload, 'data').reason) ?? text(section(payload, 'application').reason)
      return reason ? { reason } : {}
    }
    case 'tier_changed': {
      const data = section(payload, 'data')
      const tier = text(data.tier) ?? text(data.to) ?? text(payload.tier) ?? ''
      return { tier }
    }
    case 'monthly_summary': {
      const summary = section(payload, 'summary')
      const minor = (name: string) => (typeof summary[name] === 'string' ? BigInt(summary[name] as string) : 0n)
      const month = typeof summary.month === 'string' ? new Date(`${summary.month}-15T12:00:00Z`) : null
      return {
        month: month && !Number.isNaN(month.getTime()) ? formatMonth(month, locale, 'UTC') : '',
        amount: money(minor('earned_minor')),
        count: String(Number(summary.conversions ?? 0)),
        paid: money(minor('paid_minor')),
        balance: money(minor('balance_minor')),
      }
    }
    default:
      return {}
  }
}
