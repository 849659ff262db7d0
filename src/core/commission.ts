// Pure commission calculation (docs/commissions.md, docs/money.md "Rounding"): rule choice, base x FX x rate, one half-up
// rounding to the project currency's minor unit at the very end.
import { addMonths } from './clock.js'
import { decimalText, minorDigits, parseDecimal, parseMoney, pow10, roundHalfUp, type Decimal } from './money.js'
import type { CommissionBasis, CommissionRule, CommissionSettings, ConversionType, ProjectSettings } from './types.js'

export interface CommissionInput {
  type: ConversionType
  settings: ProjectSettings
  partnerSlug: string | null
  /** Minor units of baseCurrency. */
  baseValue: bigint | null
  baseCurrency: string
  /** baseCurrency -> project currency; 1 when they are the same. */
  fxRate: Decimal
  /** The customer's first purchase, when this purchase is a renewal. */
  firstPurchaseAt: Date | null
  now: Date
}

export interface Commission {
  value: bigint
  basis: CommissionBasis
  commissionType: 'percentage' | 'fixed'
  /** Percentage as decimal text; null for fixed amounts. */
  rate: string | null
}

export const ONE: Decimal = { units: 1n, scale: 0 }

/** The commission settings that apply to an affiliate: its sub-program's, else the project's. */
export function commissionSettingsFor(settings: ProjectSettings, partnerSlug: string | null): CommissionSettings {
  return (partnerSlug && settings.subPrograms?.[partnerSlug]?.commission) || settings.commission
}

export function calculateCommission(input: CommissionInput): Commission {
  const { settings } = input
  const rules = commissionSettingsFor(settings, input.partnerSlug)
  const digits = minorDigits(settings.currency)
  if (input.type === 'signup') {
    const amount = rules.signup ? parseMoney(rules.signup.amount, digits, 'commission.signup.amount') : 0n
    return { value: amount, basis: 'signup', commissionType: 'fixed', rate: null }
  }
  if (input.firstPurchaseAt) {
    const recurring = rules.recurring
    const duration = recurring?.durationMonths
    const expired = duration != null && input.now >= addMonths(input.firstPurchaseAt, duration)
    if (expired) return { value: 0n, basis: 'recurring_expired', commissionType: 'percentage', rate: '0' }
    const rule: CommissionRule =
      recurring?.rate != null
        ? { type: 'percentage', rate: recurring.rate }
        : recurring?.amount != null
          ? { type: 'fixed', amount: recurring.amount }
          : rules.purchase
    return applyRule(rule, 'recurring', input, digits)
  }
  return applyRule(rules.purchase, 'purchase', input, digits)
}

function applyRule(rule: CommissionRule, basis: CommissionBasis, input: CommissionInput, digits: number): Commission {
  if (rule.type === 'fixed') {
    return { value: parseMoney(rule.amount, digits, 'commission.amount'), basis, commissionType: 'fixed', rate: null }
  }
  const rate = parseDecimal(rule.rate, 'commission.rate')
  const base = input.baseValue ?? 0n
  const baseDigits = minorDigits(input.baseCurrency)
  const numerator = base * input.fxRate.units * rate.units * pow10(digits)
  const denominator = pow10(baseDigits + input.fxRate.scale + rate.scale) * 100n
  return { value: roundHalfUp(numerator, denominator), basis, commissionType: 'percentage', rate: decimalText(rate) }
}

/** The parent's share in a multi-tier program: tier2Rate percent of the tier-1 commission. */
export function tier2Commission(tier1Value: bigint, tier2Rate: number | string): bigint {
  const rate = parseDecimal(tier2Rate, 'multiTier.tier2Rate')
  return roundHalfUp(tier1Value * rate.units, pow10(rate.scale) * 100n)
}

/** Converts minor units between currencies with an exact rate, rounding half-up once. */
export function convertMoney(minor: bigint, from: string, to: string, rate: Decimal): bigint {
  const numerator = minor * rate.units * pow10(minorDigits(to))
  return roundHalfUp(numerator, pow10(minorDigits(from) + rate.scale))
}
