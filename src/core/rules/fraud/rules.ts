// The fraud rules (docs/fraud.md): each looks at the signals and says whether the conversion
// trips it, and why. Pure: what a rule then does (allow, review, reject) is the settings'.
import { settingAmount, type Currency } from '../../model/money.js'
import type { FraudAction, FraudSettings } from '../../model/types.js'
import type { FraudSignals } from './signals.js'

export type FraudRuleName = 'selfReferral' | 'sameVisitor' | 'disposableEmail' | 'paidAdsClick' | 'amountAbove' | 'signupsPerVisitorPerDay' | 'signupsPerAffiliatePerDay'

export interface FraudFlag {
  rule: FraudRuleName
  action: FraudAction
  reason: string
}

/** What rules compare against beside the signals: the program currency and the purchase amount in its minor units (null as `signals.amount`). */
export interface RuleContext {
  currency: Currency
  amountMinor: bigint | null
}

type Rule = (signals: FraudSignals, settings: FraudSettings, context: RuleContext) => FraudFlag | null

const selfReferral: Rule = (signals, settings) => {
  const flag = (reason: string): FraudFlag => ({ rule: 'selfReferral', action: settings.selfReferral, reason })
  if (signals.customerIsAffiliate) return flag("self-referral: the customer's email is the affiliate's")
  if (signals.cardUsedByAffiliate) return flag("self-referral: the card paid for the affiliate's own purchase")
  return null
}

const sameVisitor: Rule = (signals, settings) =>
  signals.sameVisitor ? { rule: 'sameVisitor', action: settings.sameVisitor, reason: "same visitor: the click came from the affiliate's own browser" } : null

const disposableEmail: Rule = (signals, settings) =>
  signals.disposableEmail ? { rule: 'disposableEmail', action: settings.disposableEmail, reason: "disposable email: the customer's email domain is a disposable-mail domain" } : null

const paidAdsClick: Rule = (signals, settings) =>
  signals.paidAdClickId === null ? null : { rule: 'paidAdsClick', action: settings.paidAdsClick, reason: `paid ad: the click carried ${signals.paidAdClickId}` }

const amountAbove: Rule = (signals, settings, { currency, amountMinor }) => {
  const rule = settings.amountAbove
  if (!rule || amountMinor === null || amountMinor <= settingAmount(rule, rule.amount, currency, 'fraud.amountAbove.amount')) return null
  return { rule: 'amountAbove', action: rule.action, reason: `amount above ${rule.amount} ${currency.code}: ${signals.amount}` }
}

const signupsPerVisitorPerDay: Rule = (signals, settings) => {
  const rule = settings.signupsPerVisitorPerDay
  if (!rule || signals.visitorSignups === null || signals.visitorSignups < rule.max) return null
  return { rule: 'signupsPerVisitorPerDay', action: rule.action, reason: `signups per visitor: more than ${rule.max} from one visitor in a day` }
}

const signupsPerAffiliatePerDay: Rule = (signals, settings) => {
  const rule = settings.signupsPerAffiliatePerDay
  if (!rule || signals.affiliateSignups === null || signals.affiliateSignups < rule.max) return null
  return { rule: 'signupsPerAffiliatePerDay', action: rule.action, reason: `signups per affiliate: more than ${rule.max} for the affiliate in a day` }
}

const RULES: Rule[] = [selfReferral, sameVisitor, disposableEmail, paidAdsClick, amountAbove, signupsPerVisitorPerDay, signupsPerAffiliatePerDay]

/** Every rule the conversion trips, in the order above (allowed ones too: a fraudCheck may want them). */
export function trippedRules(signals: FraudSignals, settings: FraudSettings, context: RuleContext): FraudFlag[] {
  const flags: FraudFlag[] = []
  for (const rule of RULES) {
    const flag = rule(signals, settings, context)
    if (flag) flags.push(flag)
  }
  return flags
}
