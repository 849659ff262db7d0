// Pure commission calculation (docs/commissions.md, docs/money.md "Rounding"): rule choice, base x FX x rate, one half-up
// rounding to the project currency's minor unit at the very end.
import { addMonths } from './clock.js'
import { decimalText, parseDecimal, pow10, roundHalfUp, type Currency, type Decimal, type Money } from './money.js'
import type { CommissionBasis, CommissionRule, CommissionSettings, ConversionType, ProjectSettings } from './types.js'

export interface CommissionInput {
  type: ConversionType
  settings: ProjectSettings
  /** The project currency, in which the commission is. */
  currency: Currency
  partnerSlug: string | null
  /** The transaction value, in its own currency. */
  base: Money | null
  /** base currency -> project currency; 1 when they are the same. */
  fxRate: Decimal
  /** The customer's first purchase, when this purchase is a renewal. */
  firstPurchaseAt: Date | null
  now: Date
}

export interface Commission {
  value: Money
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
  const { settings, currency } = input
  const rules = commissionSettingsFor(settings, input.partnerSlug)
  if (input.type === 'signup') {
    const amount = rules.signup ? currency.parse(rules.signup.amount, 'commission.signup.amount') : currency.amount(0n)
    return { value: amount, basis: 'signup', commissionType: 'fixed', rate: null }
  }
  if (input.firstPurchaseAt) {
    const recurring = rules.recurring
    const duration = recurring?.durationMonths
    const expired = duration != null && input.now >= addMonths(input.firstPurchaseAt, duration)
    if (expired) return { value: currency.amount(0n), basis: 'recurring_expired', commissionType: 'percentage', rate: '0' }
    const rule: CommissionRule =
      recurring?.rate != null
        ? { type: 'percentage', rate: recurring.rate }
        : recurring?.amount != null
          ? { type: 'fixed', amount: recurring.amount }
          : rules.purchase
    return applyRule(rule, 'recurring', input)
  }
  return applyRule(rules.purchase, 'purchase', input)
}

function applyRule(rule: CommissionRule, basis: CommissionBasis, input: CommissionInput): Commission {
  const { currency, base } = input
  if (rule.type === 'fixed') {
    return { value: currency.parse(rule.amount, 'commission.amount'), basis, commissionType: 'fixed', rate: null }
  }
  const rate = parseDecimal(rule.rate, 'commission.rate')
  if (base === null) return { value: currency.amount(0n), basis, commissionType: 'percentage', rate: decimalText(rate) }
  const numerator = base.minor * input.fxRate.units * rate.units * pow10(currency.digits)
  const denominator = pow10(base.currency.digits + input.fxRate.scale + rate.scale) * 100n
  return { value: currency.amount(roundHalfUp(numerator, denominator)), basis, commissionType: 'percentage', rate: decimalText(rate) }
}

/** The parent's share in a multi-tier program: tier2Rate percent of the tier-1 commission. */
export function tier2Commission(tier1Value: Money, tier2Rate: number | string): Money {
  const rate = parseDecimal(tier2Rate, 'multiTier.tier2Rate')
  return tier1Value.currency.amount(roundHalfUp(tier1Value.minor * rate.units, pow10(rate.scale) * 100n))
}
