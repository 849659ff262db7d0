// Pure commission calculation (docs/commissions.md, docs/money.md "Rounding"): the rule commission-rules.ts chooses, base x FX x rate, one half-up
// rounding to the project currency's minor unit at the very end.
import { chooseRule, type Renewal, type RuleSet } from './commission-rules.js'
import { decimalText, parseDecimal, pow10, roundHalfUp, type Currency, type Decimal, type Money } from '../model/money.js'
import type { CommissionBasis, CommissionRule, CommissionSettings, ConversionType, ProjectSettings, RuleSource } from '../model/types.js'

export interface CommissionInput {
  type: ConversionType
  /** The rules that may apply (the customer's first purchase's, when grandfathered). */
  rules: RuleSet
  productId: string | null
  /** The project currency, in which the commission is. */
  currency: Currency
  /** The transaction value, in its own currency. */
  base: Money | null
  /** base currency -> project currency; 1 when they are the same. */
  fxRate: Decimal
  /** Set when this purchase is a renewal. */
  renewal: Renewal | null
  now: Date
}

export interface Commission {
  value: Money
  basis: CommissionBasis
  /** Which rule earned it (docs/commissions.md "Precedence"). */
  source: RuleSource
  commissionType: 'percentage' | 'fixed'
  /** Percentage as decimal text; null for fixed amounts. */
  rate: string | null
  /** The fixed amount as decimal text; null for percentages. */
  amount: string | null
}

export const ONE: Decimal = { units: 1n, scale: 0 }

/** The commission settings that apply to an affiliate's sub-program: its sub-program's, else the project's. */
export function commissionSettingsFor(settings: ProjectSettings, partnerSlug: string | null): CommissionSettings {
  return (partnerSlug && settings.subPrograms?.[partnerSlug]?.commission) || settings.commission
}

export function calculateCommission(input: CommissionInput): Commission {
  const chosen = chooseRule(input.rules, { type: input.type, productId: input.productId, renewal: input.renewal, now: input.now })
  if (chosen.rule === null) {
    return { value: input.currency.amount(0n), basis: chosen.basis, source: chosen.source, commissionType: 'percentage', rate: '0', amount: null }
  }
  return applyRule(chosen.rule, chosen.basis, chosen.source, input)
}

function applyRule(rule: CommissionRule, basis: CommissionBasis, source: RuleSource, input: CommissionInput): Commission {
  const { currency, base } = input
  if (rule.type === 'fixed') {
    const value = currency.parse(rule.amount, 'commission.amount')
    return { value, basis, source, commissionType: 'fixed', rate: null, amount: value.format() }
  }
  const { rate, text } = parsedRate(rule.rate)
  if (base === null) return { value: currency.amount(0n), basis, source, commissionType: 'percentage', rate: text, amount: null }
  const numerator = base.minor * input.fxRate.units * rate.units * pow10(currency.digits)
  const denominator = pow10(base.currency.digits + input.fxRate.scale + rate.scale) * 100n
  return { value: currency.amount(roundHalfUp(numerator, denominator)), basis, source, commissionType: 'percentage', rate: text, amount: null }
}

/** Rates of the settings, read and written out once each: every conversion applies one. */
const rates = new Map<string | number, { rate: Decimal; text: string }>()
/** Affiliates' own rules and previews bring new rates for as long as the process runs: the cache starts over past this many. */
const MAX_CACHED_RATES = 1_000

function parsedRate(value: string | number): { rate: Decimal; text: string } {
  let parsed = rates.get(value)
  if (parsed === undefined) {
    const rate = parseDecimal(value, 'commission.rate')
    parsed = { rate, text: decimalText(rate) }
    if (rates.size >= MAX_CACHED_RATES) rates.clear()
    rates.set(value, parsed)
  }
  return parsed
}

/** The parent's share in a multi-tier program: tier2Rate percent of the tier-1 commission. */
export function tier2Commission(tier1Value: Money, tier2Rate: number | string): Money {
  const rate = parseDecimal(tier2Rate, 'multiTier.tier2Rate')
  return tier1Value.currency.amount(roundHalfUp(tier1Value.minor * rate.units, pow10(rate.scale) * 100n))
}
