// Exact money: bigint minor units, ISO 4217 digits, decimal-text parsing, half-up rounding, and
// Money, an amount that carries its currency (digits looked up once) and formats itself.
import { ValidationError } from './errors.js'

const ZERO_DIGIT = new Set([
  'BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND',
  'VUV', 'XAF', 'XOF', 'XPF',
])
const THREE_DIGIT = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'])
const FOUR_DIGIT = new Set(['CLF', 'UYW'])

/** Minor-unit digits of an ISO 4217 currency code (2 unless listed otherwise). */
export function minorDigits(currency: string): number {
  if (ZERO_DIGIT.has(currency)) return 0
  if (THREE_DIGIT.has(currency)) return 3
  if (FOUR_DIGIT.has(currency)) return 4
  return 2
}

/** An exact decimal: value = units / 10^scale. */
export interface Decimal {
  units: bigint
  scale: number
}

const DECIMAL_TEXT = /^(-)?(\d+)(?:\.(\d+))?$/

/** Reads a number by its shortest decimal text (19.99 is 1999/100, not 1998.99...). */
export function parseDecimal(input: number | string, field: string): Decimal {
  const text = typeof input === 'number' ? numberText(input, field) : input.trim()
  const match = DECIMAL_TEXT.exec(text)
  if (!match) throw new ValidationError(field, (name) => `${name(field)} must be a decimal number`)
  const [, sign, whole, fraction = ''] = match
  const units = BigInt(`${whole}${fraction}`)
  return { units: sign ? -units : units, scale: fraction.length }
}

function numberText(input: number, field: string): string {
  if (!Number.isFinite(input)) throw new ValidationError(field, (name) => `${name(field)} must be a finite number`)
  const text = String(input)
  if (text.includes('e')) throw new ValidationError(field, (name) => `${name(field)} is out of range`)
  return text
}

const MAX_MAJOR = 10n ** 12n

/**
 * Parses a money amount into minor units: non-negative, below 1e12, at most `digits` decimals.
 * @param allowZero whether 0 is accepted
 */
export function parseMoney(input: unknown, digits: number, field: string, allowZero = true): bigint {
  if (typeof input !== 'number' && typeof input !== 'string') {
    throw new ValidationError(field, (name) => `${name(field)} must be a number`)
  }
  const { units, scale } = parseDecimal(input, field)
  if (units < 0n) throw new ValidationError(field, (name) => `${name(field)} must not be negative`)
  if (scale > digits) {
    throw new ValidationError(field, (name) => `${name(field)} has more than ${digits} decimal places`)
  }
  const minor = units * 10n ** BigInt(digits - scale)
  if (minor >= MAX_MAJOR * 10n ** BigInt(digits)) {
    throw new ValidationError(field, (name) => `${name(field)} must be below 1000000000000`)
  }
  if (!allowZero && minor === 0n) throw new ValidationError(field, (name) => `${name(field)} must be greater than 0`)
  return minor
}

/** Minor units as decimal text with exactly `digits` decimals: 1250n, 2 -> "12.50". */
export function formatMoney(minor: bigint, digits: number): string {
  const negative = minor < 0n
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0')
  const whole = text.slice(0, text.length - digits)
  const body = digits === 0 ? whole : `${whole}.${text.slice(text.length - digits)}`
  return negative ? `-${body}` : body
}

/** numerator / denominator rounded half away from zero. denominator > 0. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n
  const magnitude = negative ? -numerator : numerator
  const rounded = (2n * magnitude + denominator) / (2n * denominator)
  return negative ? -rounded : rounded
}

const POWERS_OF_TEN = Array.from({ length: 40 }, (_, exponent) => 10n ** BigInt(exponent))

export function pow10(exponent: number): bigint {
  return POWERS_OF_TEN[exponent] ?? 10n ** BigInt(exponent)
}

export function decimalText(decimal: Decimal): string {
  return formatMoney(decimal.units, decimal.scale)
}

/** A currency with its ISO 4217 minor-unit digits, looked up once. */
export class Currency {
  readonly digits: number
  constructor(readonly code: string) {
    this.digits = minorDigits(code)
  }

  /** `minor` minor units of this currency. */
  amount(minor: bigint): Money {
    return new Money(minor, this)
  }

  /** Reads an amount of this currency exactly (see parseMoney). @param allowZero whether 0 is accepted */
  parse(input: unknown, field: string, allowZero = true): Money {
    return new Money(parseMoney(input, this.digits, field, allowZero), this)
  }
}

/** An exact amount: minor units of its currency. Arithmetic stays on `minor` (bigint). */
export class Money {
  constructor(
    readonly minor: bigint,
    readonly currency: Currency,
  ) {}

  /** Decimal text with exactly the currency's digits: "12.50". */
  format(): string {
    return formatMoney(this.minor, this.currency.digits)
  }

  /** A JSON number written from the exact decimal text (12.5, never 12.499999). */
  toNumber(): number {
    return Number(this.format())
  }

  /** In JSON (webhook payloads), the amount is that number. */
  toJSON(): number {
    return this.toNumber()
  }

  /** This amount in `to` at an exact rate (units of `to` per unit of this currency), rounded half-up once. */
  convert(to: Currency, rate: Decimal): Money {
    const numerator = this.minor * rate.units * pow10(to.digits)
    return new Money(roundHalfUp(numerator, pow10(this.currency.digits + rate.scale)), to)
  }
}

/** The currency named `code`, or `known` when that is it (or when code is null): no lookup then. */
export function currencyOr(code: string | null, known: Currency): Currency {
  return code === null || code === known.code ? known : new Currency(code)
}

/**
 * An amount of the settings (a tier's or bonus's revenue threshold, a fraud rule's limit) in minor
 * units of `currency`, parsed once per settings object: settings objects live as long as their
 * project's settings version, and every conversion compares against them.
 */
const settingAmounts = new WeakMap<object, { currency: string; minor: bigint }>()

export function settingAmount(owner: object, text: string, currency: Currency, field: string): bigint {
  const known = settingAmounts.get(owner)
  if (known?.currency === currency.code) return known.minor
  const minor = currency.parse(text, field).minor
  settingAmounts.set(owner, { currency: currency.code, minor })
  return minor
}
