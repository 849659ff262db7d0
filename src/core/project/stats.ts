// Stats over time (docs/stats.md): clicks, visitors, signups, purchases, revenue and commission per
// day, week or month of the project's time zone, for one affiliate or the whole program. Reads the
// per-day counters, so the cost follows the number of days asked for, never the number of events.
import * as v from 'valibot'
import { addCalendarDays, bucketStart, daysBetween, isCalendarDay, nextBucket, type StatsInterval } from '../model/calendar.js'
import { findAffiliate } from '../affiliates/affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { ValidationError } from '../model/errors.js'
import { validate } from '../model/schemas.js'
import type { DailyCounts } from '../ports/tracking-storage.js'

/** The longest range one request may cover. */
export const MAX_STATS_DAYS = 3660
const DEFAULT_STATS_DAYS = 30

const calendarDay = v.pipe(v.string('must be a date'), v.check(isCalendarDay, 'must be a date written YYYY-MM-DD'))
export const statsInput = v.strictObject({
  /** First day, inclusive. @default 30 days before `to` */
  from: v.optional(calendarDay),
  /** Day after the last, exclusive. @default tomorrow (so today is the last day) */
  to: v.optional(calendarDay),
  /** @default 'day' */
  interval: v.optional(v.picklist(['day', 'week', 'month'], 'must be day, week or month')),
})
export type StatsInput = v.InferInput<typeof statsInput>

export interface StatsBucket extends DailyCounts {
  /** First day of the bucket (a Monday for weeks, the 1st for months); the first bucket may start before `from`. */
  start: string
}

export interface StatsSeries {
  interval: StatsInterval
  timeZone: string
  currency: string
  from: string
  to: string
  buckets: StatsBucket[]
  totals: DailyCounts
}

const zero = (): DailyCounts => ({ clicks: 0, visitors: 0, signups: 0, purchases: 0, customers: 0, revenue: 0n, commission: 0n })

function add(into: DailyCounts, row: DailyCounts): void {
  into.clicks += row.clicks
  into.visitors += row.visitors
  into.signups += row.signups
  into.purchases += row.purchases
  into.customers += row.customers
  into.revenue += row.revenue
  into.commission += row.commission
}

export function statsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  async function series(input: StatsInput, affiliateEmail: string | null): Promise<StatsSeries> {
    const data = validate(statsInput, input)
    const project = await ctx.project()
    const interval = data.interval ?? 'day'
    const to = data.to ?? addCalendarDays(await ctx.dayOf(ctx.clock.now()), 1)
    const from = data.from ?? addCalendarDays(to, -DEFAULT_STATS_DAYS)
    const span = daysBetween(from, to)
    if (span <= 0) throw new ValidationError('to', (name) => `${name('to')}: must be after ${name('from')}`)
    if (span > MAX_STATS_DAYS) throw new ValidationError('from', (name) => `${name('from')}: the range may cover at most ${MAX_STATS_DAYS} days`)
    const rows = await storage.transaction(async (tx) => {
      const affiliateId = affiliateEmail === null ? undefined : (await findAffiliate(tx, projectId, affiliateEmail)).id
      return tx.tracking.daily(projectId, { from, to, ...(affiliateId === undefined ? {} : { affiliateId }) })
    })
    const buckets: StatsBucket[] = []
    for (let start = bucketStart(from, interval); start < to; start = nextBucket(start, interval)) buckets.push({ start, ...zero() })
    const totals = zero()
    let index = 0
    for (const row of rows) {
      const start = bucketStart(row.day, interval)
      while (buckets[index]!.start !== start) index += 1
      add(buckets[index]!, row)
      add(totals, row)
    }
    return { interval, timeZone: project.settings.timeZone ?? 'UTC', currency: project.settings.currency, from, to, buckets, totals }
  }

  return {
    /** The whole program's stats. */
    program: (input: StatsInput = {}) => series(input, null),
    /** One affiliate's stats, by email. */
    affiliate: (email: string, input: StatsInput = {}) => series(input, email),
  }
}
