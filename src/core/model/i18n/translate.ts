// Message catalogues (one file per language in ./catalogues: en.ts, the others JSON; flat keys, `{name}` placeholders;
// each registered in locales.ts) and the Intl formats of money and dates. A key missing from a language falls back to
// English; test/core/model/i18n.test.ts fails when a catalogue misses a key of the English one.
import { en } from './catalogues/en.js'
import { LANGUAGES, type Catalogue, type Locale, type MessageKey } from './locales.js'

export type { Catalogue, MessageKey } from './locales.js'

/** Each language's catalogue (locales.ts registers them). */
export const CATALOGUES: Record<Locale, Catalogue> = Object.fromEntries(Object.entries(LANGUAGES).map(([locale, { catalogue }]) => [locale, catalogue])) as Record<Locale, Catalogue>

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string

/** The catalogue of `locale` as a function: `t('mail.sign_in.subject', { program })`. */
export function translator(locale: Locale): Translate {
  const catalogue = CATALOGUES[locale]
  return (key, params) => {
    const text = catalogue[key] ?? en[key] ?? key
    return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text
  }
}

/** An amount of minor units in the currency, as the locale writes it: 1234567 EUR in de is "12.345,67 €". */
export function formatAmount(minor: bigint | number, currency: string, locale: Locale): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency })
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2
  const value = BigInt(minor)
  const negative = value < 0n
  const scale = 10n ** BigInt(digits)
  const units = (negative ? -value : value) / scale
  const fraction = ((negative ? -value : value) % scale).toString().padStart(digits, '0')
  // Exact: Intl takes the decimal text, never a float that could round a large amount.
  const text = digits > 0 ? `${negative ? '-' : ''}${units}.${fraction}` : `${negative ? '-' : ''}${units}`
  return format.format(text as unknown as number)
}

/** A day as the locale writes it (26 November 2026, 26. November 2026...), in the time zone. */
export function formatDay(at: Date, locale: Locale, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone }).format(at)
}

/** A month and year as the locale writes it (November 2026, novembre 2026...). */
export function formatMonth(at: Date, locale: Locale, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone }).format(at)
}
