// The reward of a signup reported from the browser with the signed referral of a click
// (docs/commissions.md "Leads and trials"): a signup conversion written in the same transaction
// as the referred user it rewards, when the affiliate's rules give signups an amount.
import type { Affiliate, CommissionSettings, Project, ProjectSettings, Referral } from '../model/types.js'
import type { ProjectContext } from '../rules/context.js'
import type { StorageTx } from '../ports/storage.js'
import { createConversionIn, type CreateConversionResult } from './conversion-create.js'

/** The signup conversion's reference: one per referred user. */
export const signupReference = (referral: Pick<Referral, 'id'>) => `signup:${referral.id}`

/** Whether any rule that may apply to the affiliate's signups names an amount (its own, its sub-program's, the project's, a tier's). */
export function signupsRewarded(settings: ProjectSettings, affiliate: Pick<Affiliate, 'partnerSlug' | 'commission'>): boolean {
  const named = (commission: CommissionSettings | null | undefined) => commission?.signup !== undefined || (commission?.tiers ?? []).some((tier) => tier.signup !== undefined)
  if (affiliate.commission) return named(affiliate.commission)
  const slug = affiliate.partnerSlug
  return named(slug ? settings.subPrograms?.[slug]?.commission : null) || named(settings.commission)
}

/** Writes the signup conversion of a referred user just created by a browser signup, through `tx`. */
export function rewardBrowserSignup(ctx: ProjectContext, tx: StorageTx, input: { project: Project; referral: Referral; affiliate: Affiliate; clickVisitor: string | null }): Promise<CreateConversionResult> {
  const { project, referral, affiliate, clickVisitor } = input
  return createConversionIn(ctx, tx, project, { type: 'signup', affiliateId: affiliate.id, referredUserId: referral.id, reference: signupReference(referral) }, clickVisitor)
}
