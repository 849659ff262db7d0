// Who is due a payout, and an affiliate's next payout (docs/payouts.md "When money is due"):
// payable balances under the project's payout terms, against its minimum amount.
import { findAffiliate, type AffiliateRef } from '../affiliates/affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { Currency } from '../model/money.js'
import { nextScheduledDay, payableBalance, payableSchedule, payoutTerms, termsOf, type OpenCommission } from '../rules/payout-terms.js'
import type { Project } from '../model/types.js'

export interface DueEntry {
  affiliateId: number
  affiliateEmail: string
  /** The payable balance, decimal text. */
  amount: string
  currency: string
  /** The conversions a payout of `amount` settles, oldest first. */
  conversionIds: number[]
}

/** An affiliate's payable balance now, whether it is due, and when more becomes payable (docs/payouts.md "When money is due"). */
export interface PayableEntry {
  affiliateId: number
  affiliateEmail: string
  /** Payable now (decimal text): what a payout of it settles, and what GET /payouts/due lists when due. */
  payable: string
  /** At or above the minimum (and above 0). */
  due: boolean
  /** The conversions a payout of `payable` settles, oldest first. */
  conversionIds: number[]
  /** The next day (YYYY-MM-DD, the project's time zone) more becomes payable, and how much; null when nothing waits. */
  nextPayableDate: string | null
  nextPayableAmount: string | null
  currency: string
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

  /** One affiliate's entry (whatever its status), or every affiliate's with unpaid money that is not blocked. */
  async function payablesOf(only: number | null): Promise<PayableEntry[]> {
    const project = await ctx.project()
    const currency = new Currency(project.settings.currency)
    const minimum = minimumOf(project, currency)
    const now = ctx.clock.now()
    const terms = payoutTerms(project.settings.payouts, (at) => ctx.dayIn(project, at))
    const format = (minor: bigint) => currency.amount(minor).format()
    return storage.transaction(async (tx) => {
      const entries: PayableEntry[] = []
      const groups = byAffiliate(await (only === null ? tx.conversions.listOpen(projectId) : tx.conversions.listOpen(projectId, only)))
      const ids = only === null ? [...groups.keys()].sort((a, b) => a - b) : [only]
      for (const affiliateId of ids) {
        const affiliate = await tx.affiliates.get(projectId, affiliateId)
        // A blocked affiliate is never paid (as on the console's Payouts page).
        if (!affiliate || (only === null && affiliate.status === 'blocked')) continue
        const schedule = payableSchedule(groups.get(affiliateId) ?? [], affiliate.totals.credit, terms, now)
        entries.push({
          affiliateId,
          affiliateEmail: affiliate.email,
          payable: format(schedule.now.amount),
          due: affiliate.status !== 'blocked' && isDue(schedule.now.amount, minimum),
          conversionIds: schedule.now.conversionIds,
          nextPayableDate: schedule.next?.day ?? null,
          nextPayableAmount: schedule.next ? format(schedule.next.amount) : null,
          currency: currency.code,
        })
      }
      return entries
    })
  }

  return {
    /**
     * Every affiliate (not blocked) with unpaid money, by affiliate id: what is payable now, whether
     * it is due, and when more becomes payable. The one reading of payable behind the console's
     * Payouts and Due pages, the portal and GET /payouts/due.
     */
    async payables(): Promise<PayableEntry[]> {
      return payablesOf(null)
    },

    /** The affiliate's entry of payables() (blocked ones too: they see their own balance). */
    async payable(ref: AffiliateRef): Promise<PayableEntry> {
      const affiliate = await findAffiliate(storage, projectId, ref)
      return (await payablesOf(affiliate.id))[0]!
    },

    /** Affiliates (not blocked) whose payable balance reaches the minimum now, by affiliate id. */
    async due(): Promise<DueEntry[]> {
      return (await payablesOf(null))
        .filter((entry) => entry.due)
        .map((entry) => ({ affiliateId: entry.affiliateId, affiliateEmail: entry.affiliateEmail, amount: entry.payable, currency: entry.currency, conversionIds: entry.conversionIds }))
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
