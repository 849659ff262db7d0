// Recurly's API v3 gives amounts as decimal numbers in major units (49.0, 10.99). Each is read
// exactly into integer minor units of its currency from its shortest decimal text (never by
// multiplying a float), and a figure with more decimals than the currency has is refused.
import { minorDigits, parseDecimal } from '../../core/model/money.js'
import { MalformedEvent } from '../mapping.js'

const LIMIT = 10n ** 12n

/** The amount at `value` in minor units of `currency` (signed: credit invoices carry negative figures). */
export function minorOf(value: unknown, currency: string, field: string): bigint {
  if (typeof value !== 'number' && typeof value !== 'string') throw new MalformedEvent(`${field} must be a decimal amount`)
  let decimal
  try {
    decimal = parseDecimal(value, field)
  } catch {
    throw new MalformedEvent(`${field} must be a decimal amount`)
  }
  const digits = minorDigits(currency)
  if (decimal.scale > digits) throw new MalformedEvent(`${field} has more decimals than ${currency} has (${digits})`)
  const minor = decimal.units * 10n ** BigInt(digits - decimal.scale)
  const magnitude = minor < 0n ? -minor : minor
  if (magnitude >= LIMIT * 10n ** BigInt(digits)) throw new MalformedEvent(`${field} is out of range`)
  return minor
}

/** The amount at `value`, or 0 when absent. */
export const minorOrZero = (value: unknown, currency: string, field: string): bigint => (value == null ? 0n : minorOf(value, currency, field))

export const magnitude = (amount: bigint): bigint => (amount < 0n ? -amount : amount)
