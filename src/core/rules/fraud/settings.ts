// The fraud rules' settings (docs/fraud.md): the defaults, and the complete rules of a project
// whether or not its settings name `fraud`.
import type { FraudAction, FraudSettings, ProjectSettings } from '../../model/types.js'

/** Self-referrals go to review (what affiliate-kit always did); every other rule allows. */
export const DEFAULT_FRAUD: FraudSettings = {
  selfReferral: 'review',
  sameVisitor: 'allow',
  disposableEmail: 'allow',
  paidAdsClick: 'allow',
}

interface FraudSettingsInput {
  selfReferral?: FraudAction
  sameVisitor?: FraudAction
  disposableEmail?: FraudAction
  paidAdsClick?: FraudAction
  amountAbove?: { amount: string; action: FraudAction }
  signupsPerVisitorPerDay?: { max: number; action: FraudAction }
  signupsPerAffiliatePerDay?: { max: number; action: FraudAction }
}

/** The validated `fraud` settings with every rule left out at its default. */
export function fraudSettingsOf(input: FraudSettingsInput): FraudSettings {
  const settings: FraudSettings = {
    selfReferral: input.selfReferral ?? DEFAULT_FRAUD.selfReferral,
    sameVisitor: input.sameVisitor ?? DEFAULT_FRAUD.sameVisitor,
    disposableEmail: input.disposableEmail ?? DEFAULT_FRAUD.disposableEmail,
    paidAdsClick: input.paidAdsClick ?? DEFAULT_FRAUD.paidAdsClick,
  }
  if (input.amountAbove) settings.amountAbove = { ...input.amountAbove }
  if (input.signupsPerVisitorPerDay) settings.signupsPerVisitorPerDay = { ...input.signupsPerVisitorPerDay }
  if (input.signupsPerAffiliatePerDay) settings.signupsPerAffiliatePerDay = { ...input.signupsPerAffiliatePerDay }
  return settings
}

export function fraudRulesOf(settings: ProjectSettings): FraudSettings {
  return settings.fraud ?? DEFAULT_FRAUD
}
