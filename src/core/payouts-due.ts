// Who is due a payout, and an affiliate's next payout (docs/payouts.md "When money is due"):
// payable balances under the project's payout terms, against its minimum amount.
import { findAffiliate, type AffiliateRef } from './affiliates.js'
import type { ProjectContext } from './context.js'
import { Currency } from './money.js'
import { nextScheduledDay, payableBalance, payoutTerms, termsOf, type OpenCommission } from './payout-terms.js'
import type { Project } from './types.js'

export interface DueEntry {
  affiliateId: number
  affiliateEmail: string
  /** The payable balance, decimal text. */
  amount: string
  currency: string
  /** The conversions a payout of `amount` settles, oldest first. */
  conversionIds: number[]
}

export interface NextPayout {
  /** The next scheduled payout day (YYYY-MM-DD) in the project's time zone. */
  date: string
  /** What will be payable on that day. */
  amount: string
  currency: string
  minimumAmount: string
  /** True when `amount` reaches the minimum (and is above 0). */
  reachesMinimum: boolean
  /** How much is missing to reach the minimum; "0.00" when it is reached. */
  belowMinimumBy: string
  /** What is payable today, and whether it is due (at or above the minimum). */
  payableNow: string
  dueNow: boolean
}

/** Whether a payable balance makes the affiliate due: above 0 and at least the minimum. */
export function isDue(amount: bigint, minimum: bigint): boolean {
  return amount > 0n && amount >= minimum
}

/** The project's minimum payout amount (minor units); 0 without one. */
export function minimumOf(project: Project, currency: Currency): bigint {
  const minimum = project.settings.payouts?.minimumAmount
  return minimum === undefined ? 0n : currency.parse(minimum, 'payouts.minimumAmount', true).minor
}

function byAffiliate(open: OpenCommission[]): Map<number, OpenCommission[]> {
  const groups = new Map<number, OpenCommission[]>()
  for (const commission of open) {
    const group = groups.get(commission.affiliateId)
    if (group) group.push(commission)
    else groups.set(commission.affiliateId, [commission])
  }
  return groups
}

export function payoutsDueService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  return {
    /** Affiliates (not blocked) whose payable balance reaches the minimum now, by affiliate id. */
    async due(): Promise<DueEntry[]> {
      const project = await ctx.project()
      const currency = new Currency(project.settings.currency)
      const minimum = minimumOf(project, currency)
      const now = ctx.clock.now()
      const terms = payoutTerms(project.settings.payouts, (at) => ctx.dayIn(project, at))
      return storage.transaction(async (tx) => {
        const entries: DueEntry[] = []
        const groups = byAffiliate(await tx.conversions.listOpen(projectId))
        for (const affiliateId of [...groups.keys()].sort((a, b) => a - b)) {
          const affiliate = await tx.affiliates.get(projectId, affiliateId)
          // A blocked affiliate is never paid (as on the console's Payouts page).
          if (!affiliate || affiliate.status === 'blocked') continue
          const balance = payableBalance(groups.get(affiliateId)!, affiliate.totals.credit, (c) => terms.isPayable(c.holdUntil, now))
          if (!isDue(balance.amount, minimum)) continue
          entries.push({
            affiliateId,
            affiliateEmail: affiliate.email,
            amount: currency.amount(balance.amount).format(),
            currency: currency.code,
            conversionIds: balance.conversionIds,
          })
        }
        return entries
      })
    },

    /** The affiliate's next scheduled payout, or null when the project has no payout settings. */
    async nextPayout(ref: AffiliateRef): Promise<NextPayout | null> {
      const project = await ctx.project()
      const settings = termsOf(project.settings.payouts)
      if (!settings) return null
      const currency = new Currency(project.settings.currency)
      const minimum = minimumOf(project, currency)
      const now = ctx.clock.now()
      const terms = payoutTerms(settings, (at) => ctx.dayIn(project, at))
      const { affiliate, open } = await storage.transaction(async (tx) => {
        const affiliate = await findAffiliate(tx, projectId, ref)
        return { affiliate, open: await tx.conversions.listOpen(projectId, affiliate.id) }
      })
      const date = nextScheduledDay(ctx.dayIn(project, now), settings.schedule.day)
      const then = payableBalance(open, affiliate.totals.credit, (c) => terms.payableDay(c.holdUntil) <= date)
      const today = payableBalance(open, affiliate.totals.credit, (c) => terms.isPayable(c.holdUntil, now))
      const format = (minor: bigint) => currency.amount(minor).format()
      return {
        date,
        amount: format(then.amount),
        currency: currency.code,
        minimumAmount: format(minimum),
        reachesMinimum: isDue(then.amount, minimum),
        belowMinimumBy: format(minimum > then.amount ? minimum - then.amount : 0n),
        payableNow: format(today.amount),
        dueNow: isDue(today.amount, minimum),
      }
    },
  }
}
