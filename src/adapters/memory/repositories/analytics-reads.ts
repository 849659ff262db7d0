// The reads of the analytics query in process memory, as the SQL adapter answers them
// (docs/analytics.md "Which rows answer"): clicks from the rollups when the read allows it, else
// from the raw clicks, bucketed in the read's time zone; outcomes from the referred users and
// conversions, grouped by the click each came through (null when it has none or it is gone).
import { bucketStart, dayFormatter } from '../../../core/model/calendar.js'
import { DIMENSION_FIELDS, readsRollups, type AnalyticsDimension, type AnalyticsKey, type AnalyticsRead, type ClickFigures, type ClickRow, type OutcomeFigures } from '../../../core/ports/analytics.js'
import type { MemoryState } from '../state.js'
import type { AnalyticsState, StoredRollup } from './analytics-state.js'

const formatters = new Map<string, (at: Date) => string>()

function dayIn(timeZone: string): (at: Date) => string {
  let format = formatters.get(timeZone)
  if (!format) formatters.set(timeZone, (format = dayFormatter(timeZone)))
  return format
}

const known = (value: string | null): string | null => (value === null || value === '' ? null : value)

/** A click's or rollup row's value of a dimension as a group key: ids as text, unknown (and link 0) as null. */
function groupOf(row: ClickRow | StoredRollup, dimension: AnalyticsDimension): string | null {
  const value = (row as Partial<Record<keyof ClickRow, unknown>>)[DIMENSION_FIELDS[dimension]]
  if (dimension === 'link') return value === null || value === 0 ? null : String(value)
  if (dimension === 'affiliate') return String(value)
  return known(value as string | null)
}

/** Figures summed per (start, group). */
class Sums<T extends AnalyticsKey> {
  private readonly rows = new Map<string, T>()
  constructor(private readonly zero: () => T) {}
  at(start: string | null, group: string | null): T {
    const key = JSON.stringify([start, group])
    let row = this.rows.get(key)
    if (!row) this.rows.set(key, (row = { ...this.zero(), start, group }))
    return row
  }
  list(): T[] {
    return [...this.rows.values()]
  }
}

export function clickFigures(analytics: AnalyticsState, projectId: string, read: AnalyticsRead): ClickFigures[] {
  const sums = new Sums<ClickFigures>(() => ({ start: null, group: null, clicks: 0, visitors: 0, botClicks: 0 }))
  const bucket = (day: string) => (read.interval === null ? null : bucketStart(day, read.interval))
  if (readsRollups(read)) {
    const dayOf = dayIn(read.projectTimeZone)
    const [from, to] = [dayOf(read.from), dayOf(read.to)]
    for (const row of analytics.rollups.get(projectId)?.values() ?? []) {
      if (row.day < from || row.day >= to) continue
      if (read.affiliateId !== undefined && row.affiliateId !== read.affiliateId) continue
      if (read.linkId !== undefined && row.linkId !== read.linkId) continue
      const sum = sums.at(bucket(row.day), read.groupBy === null ? null : groupOf(row, read.groupBy))
      sum.clicks += row.clicks
      sum.visitors += row.visitors
      sum.botClicks += row.botClicks
    }
    return sums.list()
  }
  const dayOf = dayIn(read.timeZone)
  for (const click of analytics.clicks.get(projectId)?.values() ?? []) {
    if (click.at < read.from || click.at >= read.to) continue
    if (read.affiliateId !== undefined && click.affiliateId !== read.affiliateId) continue
    if (read.linkId !== undefined && click.linkId !== read.linkId) continue
    const sum = sums.at(read.interval === null ? null : bucket(dayOf(click.at)), read.groupBy === null ? null : groupOf(click, read.groupBy))
    sum.clicks += 1
    if (click.newVisitor) sum.visitors += 1
  }
  return sums.list()
}

export function outcomeFigures(state: MemoryState, projectId: string, read: AnalyticsRead): OutcomeFigures[] {
  const sums = new Sums<OutcomeFigures>(() => ({ start: null, group: null, signups: 0, conversions: 0, revenue: 0n, commission: 0n }))
  const dayOf = dayIn(read.timeZone)
  const clickOf = (clickId: string | null) => (clickId === null ? undefined : state.analytics.clicksById.get(`${projectId}|${clickId}`))
  /** The row's (start, group), or null when the read leaves it out. */
  const place = (row: { affiliateId: number | null; clickId: string | null; createdAt: Date }) => {
    if (row.createdAt < read.from || row.createdAt >= read.to) return null
    if (read.affiliateId !== undefined && row.affiliateId !== read.affiliateId) return null
    const click = clickOf(row.clickId)
    if (read.linkId !== undefined && click?.linkId !== read.linkId) return null
    const start = read.interval === null ? null : bucketStart(dayOf(row.createdAt), read.interval)
    if (read.groupBy === null) return sums.at(start, null)
    if (read.groupBy === 'affiliate') return sums.at(start, row.affiliateId === null ? null : String(row.affiliateId))
    return sums.at(start, click ? groupOf(click, read.groupBy) : null)
  }
  for (const referral of state.referrals.group('project', projectId)) {
    if (referral.affiliateId === null) continue
    const sum = place(referral)
    if (sum) sum.signups += 1
  }
  for (const conversion of state.conversions.group('project', projectId)) {
    if (conversion.status !== 'active') continue
    const sum = place(conversion)
    if (!sum) continue
    sum.commission += conversion.value
    if (conversion.tier !== 1) continue
    sum.conversions += 1
    sum.revenue += conversion.revenue ?? 0n
  }
  return sums.list()
}
