// Performance tiers (docs/commissions.md "Performance tiers"): the tier an affiliate holds is the
// highest its figures reach in the current period or reached in the period that closed last, so it
// moves up as soon as a threshold is met and down only when a period closes below it. Stateless:
// the affiliate's stored `tier` only records what was last announced (affiliate.tier_changed).
import { commissionSettingsFor } from './commission.js'
import { periodBefore, periodFigures, periodOf, type DayRange, type PeriodFigures } from './commission-periods.js'
import { tierChanged } from '../ports/events.js'
import { settingAmount, type Currency } from '../model/money.js'
import type { StorageTx } from '../ports/storage.js'
import type { Affiliate, CommissionPeriod, CommissionSettings, ProjectSettings, TierRule } from '../model/types.js'
import type { TierProgress } from './views.js'

export interface TierStanding {
  /** The tier held; null for none. */
  tier: TierRule | null
  /** The tier above; null at the top. */
  next: TierRule | null
  period: CommissionPeriod
  /** The current period's first day; null for `lifetime`. */
  periodStart: string | null
  /** The current period's figures so far. */
  figures: PeriodFigures
}

/** The settings tiers and bonuses come from: the affiliate's sub-program's commission, else the project's. */
export function tierSettingsOf(settings: ProjectSettings, affiliate: Pick<Affiliate, 'partnerSlug'>): CommissionSettings {
  return commissionSettingsFor(settings, affiliate.partnerSlug)
}

/** The periods the tier held on `today` is decided by (the current one, and the one that closed last); null when no tiers are set. */
export function tierRanges(commission: CommissionSettings, today: string): DayRange[] | null {
  if (!commission.tiers || commission.tiers.length === 0) return null
  const period = commission.tierPeriod ?? 'month'
  const current = periodOf(period, today)
  return period === 'lifetime' ? [current] : [current, periodBefore(period, current.from)]
}

/** The tier the affiliate holds on `today` (a day of the project's time zone); null when no tiers are set. */
export async function tierStanding(tx: StorageTx, projectId: string, affiliateId: number, commission: CommissionSettings, currency: Currency, today: string): Promise<TierStanding | null> {
  const ranges = tierRanges(commission, today)
  return ranges && standingFrom(commission, ranges, await periodFigures(tx, projectId, affiliateId, ranges), currency)
}

/** The tier held, given the figures of `tierRanges`' periods. */
export function standingFrom(commission: CommissionSettings, ranges: readonly DayRange[], figures: readonly PeriodFigures[], currency: Currency): TierStanding {
  const tiers = commission.tiers ?? []
  const period = commission.tierPeriod ?? 'month'
  const [now, closed] = figures
  const reached = Math.max(tierIndex(tiers, now!, currency), closed ? tierIndex(tiers, closed, currency) : -1)
  return { tier: tiers[reached] ?? null, next: tiers[reached + 1] ?? null, period, periodStart: period === 'lifetime' ? null : ranges[0]!.from, figures: now! }
}

/** The highest tier (index in the list) the figures reach; -1 for none. */
function tierIndex(tiers: readonly TierRule[], figures: PeriodFigures, currency: Currency): number {
  let reached = -1
  for (let index = 0; index < tiers.length; index += 1) {
    const tier = tiers[index]!
    if (reaches(tier, tier.minRevenue, tier.minCustomers, figures, currency)) reached = index
  }
  return reached
}

/** True when the figures reach either threshold the milestone (a bonus) gives. */
export function reachesMilestone(milestone: { revenue?: string | undefined; customers?: number | undefined }, figures: PeriodFigures, currency: Currency): boolean {
  return reaches(milestone, milestone.revenue, milestone.customers, figures, currency)
}

function reaches(rule: object, revenue: string | undefined, customers: number | undefined, figures: PeriodFigures, currency: Currency): boolean {
  if (revenue !== undefined && figures.revenue >= settingAmount(rule, revenue, currency, 'revenue')) return true
  return customers !== undefined && figures.customers >= customers
}

/**
 * Records the tier held when it is not the one last recorded, with its affiliate.tier_changed
 * event. `affiliate` must be as the caller's conversion write left it (or read after it): that write
 * locks its row, so two concurrent conversions announce one change once.
 */
export async function recordTier(tx: StorageTx, affiliate: Pick<Affiliate, 'projectId' | 'id' | 'tier'>, standing: TierStanding | null, at: Date, quiet = false): Promise<void> {
  const name = standing?.tier?.name ?? null
  if (name === affiliate.tier) return
  const updated = await tx.affiliates.update(affiliate.projectId, affiliate.id, { tier: name })
  // A change that imported history brings (`quiet`) still goes to webhooks, not to the affiliate's mail.
  if (updated) await tx.outbox.enqueue({ ...tierChanged(updated, { from: affiliate.tier, to: name, period: standing?.period ?? 'month', at }), ...(quiet ? { quiet } : {}) })
}

/** The tier held and the progress to the next, as views show them. */
export function tierProgress(standing: TierStanding, currency: Currency): { tier: string | null; progress: TierProgress } {
  const { next } = standing
  return {
    tier: standing.tier?.name ?? null,
    progress: {
      period: standing.period,
      periodStart: standing.periodStart,
      revenue: currency.amount(standing.figures.revenue).format(),
      customers: standing.figures.customers,
      next: next && { name: next.name, minRevenue: next.minRevenue === undefined ? null : currency.parse(next.minRevenue, 'minRevenue').format(), minCustomers: next.minCustomers ?? null },
    },
  }
}
