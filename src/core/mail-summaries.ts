// The monthly summary mails (docs/email.md "Monthly summary"): for each active affiliate who has
// not turned them off and had anything in the month, the commission earned, conversions, money
// paid and the unpaid balance, queued once per affiliate and month (a dedupe key), so several
// processes or a second run queue nothing twice.
import type { ProjectContext } from './context.js'
import { ValidationError } from './errors.js'
import { Currency } from './money.js'
import type { ProjectScope } from './program.js'

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/

/** The month before the one `at` falls in, in the time zone's calendar: YYYY-MM. */
export function previousMonth(day: string): string {
  const [year, month] = day.split('-').map(Number) as [number, number]
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`
}

function nextMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number]
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`
}

type Services = Pick<ProjectScope, 'affiliates' | 'stats' | 'payouts'>

/** Queues the summaries of `month` (default: the last complete month); resolves with how many were queued. */
export async function queueMonthlySummaries(ctx: ProjectContext, services: Services, input: { month?: string } = {}): Promise<number> {
  const now = ctx.clock.now()
  const project = await ctx.project()
  const today = ctx.dayIn(project, now)
  const month = input.month ?? previousMonth(today)
  if (!MONTH.test(month)) throw new ValidationError('month', 'must be a month written YYYY-MM')
  if (`${month}-01` >= `${today.slice(0, 7)}-01`) throw new ValidationError('month', 'must be a month that has ended')
  const currency = new Currency(project.settings.currency)
  const from = `${month}-01`
  const to = `${nextMonth(month)}-01`
  let queued = 0
  for (let offset = 0; ; offset += 100) {
    const page = await services.affiliates.list({ status: 'active', limit: 100, offset })
    for (const affiliate of page.items) {
      if (affiliate.emailOptOut?.includes('summary')) continue
      const { totals } = await services.stats.affiliate(affiliate.email, { from, to, interval: 'month' })
      const payouts = await services.payouts.list({ affiliateId: affiliate.id, limit: 200 })
      const paid = payouts.items
        .filter((payout) => ctx.dayIn(project, payout.paymentDate) >= from && ctx.dayIn(project, payout.paymentDate) < to)
        .reduce((sum, payout) => sum + currency.parse(payout.amount, 'amount').minor, 0n)
      const balance = currency.parse(affiliate.earnings.unpaid, 'unpaid').minor
      if (totals.commission === 0n && totals.purchases === 0 && paid === 0n && balance === 0n) continue
      const inserted = await ctx.storage.mail.insert({
        projectId: ctx.projectId,
        kind: 'monthly_summary',
        affiliateId: affiliate.id,
        recipient: affiliate.email,
        payload: {
          affiliate: { id: String(affiliate.id), email: affiliate.email },
          summary: { month, earned_minor: String(totals.commission), conversions: totals.purchases, paid_minor: String(paid), balance_minor: String(balance) },
        },
        dedupeKey: `monthly_summary:${affiliate.id}:${month}`,
        sendAt: now,
        createdAt: now,
      })
      if (inserted) queued++
    }
    if (offset + page.items.length >= page.total || page.items.length === 0) break
  }
  return queued
}
