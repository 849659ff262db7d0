// The money and date cells of the tools' CSV exports, read strictly: the forms their dashboards
// and exports write (`$1,050.00`, `12.34`, `-5.00`, `EUR 3`; ISO 8601 dates) and nothing else.
// A cell that is not one (`1e5`, `0x10`, `(5.00)`, `12,5`) is a reason, never a guess.
import { minorDigits } from '../../core/model/money.js'

/** Symbols the exports put before an amount, and the currencies each may stand for. */
const SYMBOLS: Record<string, (currency: string) => boolean> = {
  $: (currency) => currency.endsWith('D'),
  '€': (currency) => currency === 'EUR',
  '£': (currency) => currency === 'GBP',
}

// Sign, then a symbol or an ISO code, then digits (grouped by commas in threes, or not), then the
// decimals after a point; or the code after the number. One sign at most, before or after the symbol.
const AMOUNT = /^(-?)(?:([$€£])|([A-Z]{3}) )?(-?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?: ([A-Z]{3}))?$/

export const AMOUNT_FORMS = '1234.56, 1,234.56, $1,234.56, -5.00 or USD 5.00'

/** Minor units of a money cell in `currency`, or why it is not one. */
export function amountCell(text: string, currency: string): { minor: number } | { problem: string } {
  const match = AMOUNT.exec(text)
  const problem = { problem: `"${text}" is not an amount (${AMOUNT_FORMS})` }
  if (!match) return problem
  const [, before, symbol, code, after, whole, fraction = '', codeAfter] = match
  if (before && after) return problem
  if (code && codeAfter) return problem
  const named = code ?? codeAfter
  if (named && named !== currency) return { problem: `"${text}" is in ${named}, the row's currency is ${currency}` }
  if (symbol && !SYMBOLS[symbol]!(currency)) return { problem: `"${text}" is not in ${currency}, the row's currency` }
  const digits = minorDigits(currency)
  if (fraction.length > digits) return { problem: `"${text}" has more decimals than ${currency} has (${digits})` }
  const minor = BigInt(whole!.replace(/,/g, '')) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0') || '0')
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { problem: `"${text}" is too large an amount` }
  return { minor: Number(before || after ? -minor : minor) }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/** A date cell: ISO 8601, a date alone or a time without a zone read as UTC; or why it is not one. */
export function dateCell(text: string): { date: Date } | { problem: string } {
  const match = DATE.exec(text)
  const problem = { problem: `"${text}" is not a date (2026-01-05 or 2026-01-05T10:00:00Z)` }
  if (!match) return problem
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '0', zone] = match
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
  if (calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return problem
  const offset = zone === undefined || zone === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction.slice(0, 3).padEnd(3, '0')}${offset}`)
  return Number.isNaN(date.getTime()) ? problem : { date }
}
