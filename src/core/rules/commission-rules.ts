// Which rule earns a conversion (docs/commissions.md "Precedence"): an excluded product, then the
// affiliate's own rules, a product's rules, the performance tier's, the sub-program's, the
// project's; renewals by count and in stages. Pure: the arithmetic is commission.ts's.
import { addMonths } from '../model/clock.js'
import type { CommissionBasis, CommissionRule, CommissionSettings, ConversionType, ProductRule, ProjectSettings, RecurringRule, RuleSet, RuleSource, TrialRule } from '../model/types.js'

export type { RuleSet } from '../model/types.js'


export function ruleSetFor(settings: ProjectSettings, affiliate: { partnerSlug: string | null; commission: CommissionSettings | null }, tier: RuleSet['tier'] = null): RuleSet {
  const slug = affiliate.partnerSlug
  return {
    affiliate: affiliate.commission,
    subProgram: (slug && settings.subPrograms?.[slug]?.commission) || null,
    project: settings.commission,
    tier,
  }
}

/** A renewal: the customer's first purchase and this payment's number among the customer's payments (the first is 1). */
export interface Renewal {
  firstPurchaseAt: Date
  paymentNumber: number
}

export interface RuleQuery {
  type: ConversionType
  productId: string | null
  renewal: Renewal | null
  now: Date
}

/** The rule chosen: `rule` null when it earns nothing (excluded product, renewals over). */
export interface ChosenRule {
  basis: CommissionBasis
  source: RuleSource
  rule: CommissionRule | null
}

/** One place rules may come from, in precedence order; a product's own rules are partial. */
interface Level {
  source: RuleSource
  rules: { purchase?: CommissionRule; recurring?: RecurringRule; signup?: { amount: string }; trial?: TrialRule }
  /** A whole commission setting (affiliate, sub-program, project): the walk stops at it. */
  whole: boolean
}

const NOTHING: CommissionRule = { type: 'fixed', amount: '0' }

export function chooseRule(set: RuleSet, query: RuleQuery): ChosenRule {
  const products = productRules(set, query.productId)
  const excluded = products.length === 0 ? undefined : products.find((product) => 'excluded' in product.rule)
  if (excluded) return { basis: 'excluded', source: excluded.source, rule: null }
  const levels = levelsOf(set, products)
  if (query.type === 'signup') {
    const level = levels.find((candidate) => candidate.rules.signup || candidate.whole)!
    return { basis: 'signup', source: level.source, rule: level.rules.signup ? { type: 'fixed', amount: level.rules.signup.amount } : NOTHING }
  }
  if (query.type === 'trial') {
    const level = trialLevel(levels)
    return { basis: 'trial', source: level.source, rule: level.rules.trial ? { type: 'fixed', amount: level.rules.trial.amount } : NOTHING }
  }
  const purchase = levels.find((candidate) => candidate.rules.purchase)!
  if (!query.renewal) return { basis: 'purchase', source: purchase.source, rule: purchase.rules.purchase! }
  const level = levels.find((candidate) => candidate.rules.recurring || candidate.whole)!
  const recurring = level.rules.recurring
  // No recurring rule: renewals earn the purchase rule, for life.
  if (!recurring) return { basis: 'recurring', source: purchase.source, rule: purchase.rules.purchase! }
  if (renewalsOver(recurring, query.renewal, query.now)) return { basis: 'recurring_expired', source: level.source, rule: null }
  if (recurring.stages) {
    const stage = stageOf(recurring.stages, query.renewal.paymentNumber - 1)
    return stage ? { basis: 'recurring', source: level.source, rule: stage } : { basis: 'recurring_expired', source: level.source, rule: null }
  }
  if (recurring.rate != null) return { basis: 'recurring', source: level.source, rule: { type: 'percentage', rate: recurring.rate } }
  if (recurring.amount != null) return { basis: 'recurring', source: level.source, rule: { type: 'fixed', amount: recurring.amount } }
  // Limits only: the purchase rule inside them.
  return { basis: 'recurring', source: purchase.source, rule: purchase.rules.purchase! }
}

/** The first level that names a trial rule, else the first whole setting (where trials earn 0). */
function trialLevel(levels: Level[]): Level {
  return levels.find((candidate) => candidate.rules.trial || candidate.whole)!
}

/** The trial rule that applies to the affiliate's trials (docs/commissions.md "Leads and trials"); null when trials earn nothing. */
export function trialRuleOf(set: RuleSet): TrialRule | null {
  return trialLevel(levelsOf(set, NO_PRODUCT_RULES)).rules.trial ?? null
}

/** The product's rules that apply to the affiliate: its own, its sub-program's, the project's. */
const NO_PRODUCT_RULES: ReadonlyArray<{ source: RuleSource; rule: ProductRule }> = []

function productRules(set: RuleSet, productId: string | null): ReadonlyArray<{ source: RuleSource; rule: ProductRule }> {
  if (productId === null) return NO_PRODUCT_RULES
  const found: Array<{ source: RuleSource; rule: ProductRule }> = []
  const add = (source: RuleSource, settings: CommissionSettings | null) => {
    const rule = settings?.products?.[productId]
    if (rule) found.push({ source, rule })
  }
  add('affiliate', set.affiliate)
  add('product', set.subProgram)
  add('product', set.project)
  return found
}

function levelsOf(set: RuleSet, products: ReadonlyArray<{ source: RuleSource; rule: ProductRule }>): Level[] {
  // Most conversions name no product: then there is nothing to filter (this runs on every conversion).
  const partial = (source: RuleSource): Level[] =>
    products.length === 0 ? [] : products.filter((product) => product.source === source).map((product) => ({ source, rules: product.rule as Level['rules'], whole: false }))
  if (set.affiliate) return [...partial('affiliate'), { source: 'affiliate', rules: set.affiliate, whole: true }]
  const levels: Level[] = partial('product')
  if (set.tier) levels.push({ source: 'tier', rules: set.tier, whole: false })
  if (set.subProgram) levels.push({ source: 'sub_program', rules: set.subProgram, whole: true })
  levels.push({ source: 'project', rules: set.project, whole: true })
  return levels
}

/** Whichever ends first: `durationMonths` from the first purchase, or `maxPayments` of the customer. */
function renewalsOver(recurring: RecurringRule, renewal: Renewal, now: Date): boolean {
  const { durationMonths, maxPayments } = recurring
  if (durationMonths != null && now >= addMonths(renewal.firstPurchaseAt, durationMonths)) return true
  return maxPayments != null && renewal.paymentNumber > maxPayments
}

/** The rule of the n-th renewal (1-based); null past a last stage that counts its payments. */
function stageOf(stages: NonNullable<RecurringRule['stages']>, renewal: number): CommissionRule | null {
  let upTo = 0
  for (const stage of stages) {
    upTo += stage.payments ?? Infinity
    if (renewal <= upTo) return stage.rate != null ? { type: 'percentage', rate: stage.rate } : { type: 'fixed', amount: stage.amount! }
  }
  return null
}
