// The periods performance tiers and bonuses count over (docs/commissions.md "Performance tiers",
// "Bonuses"), in calendar days of the project's time zone, and an affiliate's figures in them,
// summed from the per-day counters (docs/stats.md): O(days of the period), never O(conversions).
import type { StorageTx } from '../ports/storage.js'
import type { CommissionPeriod } from '../model/types.js'
import type { DayFigures, DayRange } from '../ports/tracking-storage.js'

export type { DayFigures, DayRange } from '../ports/tracking-storage.js'

/** What tiers and bonuses count: revenue (program currency, minor units) and new paying customers. */
export interface PeriodFigures {
  revenue: bigint
  customers: number
}

const LIFETIME: DayRange = { from: '1970-01-01', to: '9999-12-31' }
const MONTHS: Record<Exclude<CommissionPeriod, 'lifetime'>, number> = { month: 1, quarter: 3, year: 12 }

/** The period that holds `day`. */
export function periodOf(period: CommissionPeriod, day: string): DayRange {
  if (period === 'lifetime') return LIFETIME
  const months = MONTHS[period]
  const year = Number(day.slice(0, 4))
  const first = Math.floor((Number(day.slice(5, 7)) - 1) / months) * months
  return { from: monthStart(year, first), to: monthStart(year, first + months) }
}

/** The period just before the one starting at `from`. */
export function periodBefore(period: Exclude<CommissionPeriod, 'lifetime'>, from: string): DayRange {
  const year = Number(from.slice(0, 4))
  const month = Number(from.slice(5, 7)) - 1
  return { from: monthStart(year, month - MONTHS[period]), to: from }
}

/** The first day of a month (0-based, may run past either end of the year), as text without a Date: read on every conversion. */
function monthStart(year: number, month: number): string {
  const first = year * 12 + month
  const monthOfYear = ((first % 12) + 12) % 12
  return `${String((first - monthOfYear) / 12).padStart(4, '0')}-${String(monthOfYear + 1).padStart(2, '0')}-01`
}

/** The days the ranges span together: what one read covers. */
export function spanOf(ranges: readonly DayRange[]): DayRange {
  let { from, to } = ranges[0]!
  for (const range of ranges) {
    if (range.from < from) from = range.from
    if (range.to > to) to = range.to
  }
  return { from, to }
}

/**
 * The figures per range, summed from days read over their span; with `written`, its day's row is
 * that one (as a conversion's counter write left it) instead of the one read.
 */
export function figuresIn(days: readonly DayFigures[], ranges: readonly DayRange[], written: DayFigures | null = null): PeriodFigures[] {
  return ranges.map((range) => {
    const figures: PeriodFigures = { revenue: 0n, customers: 0 }
    for (const row of days) {
      if (row.day === written?.day || row.day < range.from || row.day >= range.to) continue
      figures.revenue += row.revenue
      figures.customers += row.customers
    }
    if (written && written.day >= range.from && written.day < range.to) {
      figures.revenue += written.revenue
      figures.customers += written.customers
    }
    return figures
  })
}

/** The affiliate's figures per range, read in one query over the days they span. */
export async function periodFigures(tx: StorageTx, projectId: string, affiliateId: number, ranges: readonly DayRange[]): Promise<PeriodFigures[]> {
  return figuresIn(await tx.tracking.daily(projectId, { ...spanOf(ranges), affiliateId }), ranges)
}
