// The rows of an analytics answer (docs/analytics.md) from what the two reads gave: merged by
// bucket and group, every bucket of the range present when there is an interval (as stats do),
// groups ranked by clicks then revenue (then their value, for a stable order), the list bounded.
import { bucketStart, nextBucket, type StatsInterval } from '../model/calendar.js'
import type { AnalyticsKey } from '../ports/analytics.js'

export interface AnalyticsFigures {
  clicks: number
  /** Visitors new to their affiliate on their day, summed over the days (as stats count unique visitors). */
  visitors: number
  signups: number
  conversions: number
  /** Minor units of the project currency. */
  revenue: bigint
  /** Minor units of the project currency. */
  commission: bigint
  botClicks: number
}

export interface AnalyticsRow extends AnalyticsFigures {
  /** The bucket's first day (with an interval only); the first bucket may start before `from`. */
  start?: string
  /** The group's value (with groupBy only); null for events without one. */
  group?: string | null
}

/** The most groups an answer lists: the rest are counted in `omittedGroups`, and in the totals. */
export const MAX_ANALYTICS_GROUPS = 1000
/** The most rows an answer lists: with an interval, fewer groups are listed so that each has every bucket. */
export const MAX_ANALYTICS_ROWS = 50_000

export const zeroFigures = (): AnalyticsFigures => ({ clicks: 0, visitors: 0, signups: 0, conversions: 0, revenue: 0n, commission: 0n, botClicks: 0 })

function add(into: AnalyticsFigures, row: Partial<AnalyticsFigures>): void {
  into.clicks += row.clicks ?? 0
  into.visitors += row.visitors ?? 0
  into.signups += row.signups ?? 0
  into.conversions += row.conversions ?? 0
  into.revenue += row.revenue ?? 0n
  into.commission += row.commission ?? 0n
  into.botClicks += row.botClicks ?? 0
}

/** Some figures of one bucket and group, as a read gave them. */
export type FigureRow = AnalyticsKey & Partial<AnalyticsFigures>

export interface RowsRequest {
  from: string
  to: string
  interval: StatsInterval | null
  grouped: boolean
  figures: readonly FigureRow[]
}

export interface AnalyticsRows {
  rows: AnalyticsRow[]
  totals: AnalyticsFigures
  omittedGroups: number
}

/** Groups by rank: clicks, then revenue, descending; then by value, a null group last. */
function byRank([groupA, a]: [string | null, AnalyticsFigures], [groupB, b]: [string | null, AnalyticsFigures]): number {
  if (a.clicks !== b.clicks) return b.clicks - a.clicks
  if (a.revenue !== b.revenue) return b.revenue > a.revenue ? 1 : -1
  if (groupA === groupB) return 0
  if (groupA === null) return 1
  if (groupB === null) return -1
  return groupA < groupB ? -1 : 1
}

export function analyticsRows(request: RowsRequest): AnalyticsRows {
  const { interval } = request
  const starts: Array<string | null> = []
  if (interval === null) starts.push(null)
  else for (let start = bucketStart(request.from, interval); start < request.to; start = nextBucket(start, interval)) starts.push(start)

  // group -> start -> figures; the group's own sum ranks it.
  const groups = new Map<string | null, { sum: AnalyticsFigures; byStart: Map<string | null, AnalyticsFigures> }>()
  const totals = zeroFigures()
  const place = (start: string | null, group: string | null, figures: Partial<AnalyticsFigures>) => {
    const key = request.grouped ? group : null
    let entry = groups.get(key)
    if (!entry) groups.set(key, (entry = { sum: zeroFigures(), byStart: new Map() }))
    let cell = entry.byStart.get(start)
    if (!cell) entry.byStart.set(start, (cell = zeroFigures()))
    add(cell, figures)
    add(entry.sum, figures)
    add(totals, figures)
  }
  for (const row of request.figures) place(row.start, row.group, row)
  // Without groups the answer is the range's one series, events or not.
  if (!request.grouped && !groups.has(null)) groups.set(null, { sum: zeroFigures(), byStart: new Map() })

  const ranked = [...groups.entries()].map(([group, entry]) => [group, entry.sum] as [string | null, AnalyticsFigures]).sort(byRank)
  const limit = Math.max(1, Math.min(MAX_ANALYTICS_GROUPS, Math.floor(MAX_ANALYTICS_ROWS / starts.length)))
  const listed = ranked.slice(0, limit)
  const rows: AnalyticsRow[] = []
  for (const [group] of listed) {
    const byStart = groups.get(group)!.byStart
    for (const start of starts) {
      rows.push({
        ...(start === null ? {} : { start }),
        ...(request.grouped ? { group } : {}),
        ...(byStart.get(start) ?? zeroFigures()),
      })
    }
  }
  return { rows, totals, omittedGroups: ranked.length - listed.length }
}
