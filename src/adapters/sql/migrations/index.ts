// Every schema migration, oldest first: one file each. A new one is a new file and a line at the
// end of this list; a released one is never edited (databases applied its text as written).
import { initial } from './01-initial.js'
import { foreignKeys } from './02-foreign-keys.js'
import { conversionParents } from './03-conversion-parents.js'
import { couponStatus } from './04-coupon-status.js'
import { idempotencyKeyLeases } from './05-idempotency-key-leases.js'
import { providerEvents } from './06-provider-events.js'
import { tracking } from './07-tracking.js'
import { webSessions } from './08-web-sessions.js'
import { adminAuditLog } from './09-admin-audit-log.js'
import { flagWaitingProviderKeys } from './10-flag-waiting-provider-keys.js'
import { dateWokenProviderKeys } from './11-date-woken-provider-keys.js'
import { projectSettingsVersion } from './12-project-settings-version.js'
import { dailyBackfill } from './13-daily-backfill.js'
import { unloggedRateLimits } from './15-unlogged-rate-limits.js'
import { retentionIndexes } from './16-retention-indexes.js'
import { affiliateApplications } from './17-affiliate-applications.js'
import { affiliateTaxDetails } from './14-affiliate-tax-details.js'
import { linkAliases } from './18-link-aliases.js'
import { commissionRules } from './19-commission-rules.js'
import { fraudSignals } from './20-fraud-signals.js'
import { ledgerMovements } from './21-ledger-movements.js'
import { payoutRequests } from './22-payout-requests.js'
import { tiersBonuses } from './23-tiers-bonuses.js'
import { providerPayouts } from './24-provider-payouts.js'
import { mail } from './25-mail.js'
import type { Migration } from './migration.js'
import { stripeConnectedAccounts } from './26-stripe-connected-accounts.js'
import { counterFillfactor } from './27-counter-fillfactor.js'
import { visitorSignalDays } from './28-visitor-signal-days.js'
import { dailyByAffiliate } from './29-daily-by-affiliate.js'
import { payoutRuns } from './31-payout-runs.js'
import { referralFillfactor } from './32-referral-fillfactor.js'
import { affiliateIncentives } from './33-affiliate-incentives.js'
import { affiliateExternalId } from './34-affiliate-external-id.js'
import { links } from './35-links.js'
import { linkClicks } from './36-link-clicks.js'
import { referralTerms } from './30-referral-terms.js'

export type { Migration } from './migration.js'

export const MIGRATIONS: ReadonlyArray<Migration> = [
  initial,
  foreignKeys,
  conversionParents,
  couponStatus,
  idempotencyKeyLeases,
  providerEvents,
  tracking,
  webSessions,
  adminAuditLog,
  flagWaitingProviderKeys,
  dateWokenProviderKeys,
  projectSettingsVersion,
  dailyBackfill,
  affiliateTaxDetails,
  unloggedRateLimits,
  retentionIndexes,
  affiliateApplications,
  linkAliases,
  commissionRules,
  fraudSignals,
  ledgerMovements,
  payoutRequests,
  tiersBonuses,
  providerPayouts,
  mail,
  stripeConnectedAccounts,
  counterFillfactor,
  visitorSignalDays,
  dailyByAffiliate,
  referralTerms,
  payoutRuns,
  referralFillfactor,
  affiliateIncentives,
  affiliateExternalId,
  links,
  linkClicks,
]
