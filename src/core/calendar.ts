// Calendar days of a project's time zone ('YYYY-MM-DD') and the stats buckets built from them.
// Days are plain dates: arithmetic on them runs in UTC, where every day has 24 hours.

export type StatsInterval = 'day' | 'week' | 'month'

/** A function giving the calendar day of an instant in `timeZone`. Build one and reuse it: formatters are slow to create. */
export function dayFormatter(timeZone: string): (at: Date) => string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
  // Time zones change offset only on whole minutes: one answer per minute spares formatting on every click.
  let minute = Number.NaN
  let day = ''
  return (at) => {
    const current = Math.floor(at.getTime() / 60_000)
    if (current !== minute) {
      const parts = format.formatToParts(at)
      const part = (type: string) => parts.find((item) => item.type === type)!.value
      day = `${part('year')}-${part('month')}-${part('day')}`
      minute = current
    }
    return day
  }
}

const DAY_MS = 86_400_000

function toUtc(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`)
}

function fromUtc(at: Date): string {
  return at.toISOString().slice(0, 10)
}

export function addCalendarDays(day: string, days: number): string {
  return fromUtc(new Date(toUtc(day).getTime() + days * DAY_MS))
}

/** Whole days from `from` to `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to).getTime() - toUtc(from).getTime()) / DAY_MS)
}

/** The first day of the bucket holding `day`: itself, its week's Monday (ISO weeks) or its month's first day. */
export function bucketStart(day: string, interval: StatsInterval): string {
  if (interval === 'day') return day
  if (interval === 'month') return `${day.slice(0, 7)}-01`
  const weekday = (toUtc(day).getUTCDay() + 6) % 7
  return addCalendarDays(day, -weekday)
}

/** The first day of the bucket after the one starting on `start`. */
export function nextBucket(start: string, interval: StatsInterval): string {
  if (interval === 'day') return addCalendarDays(start, 1)
  if (interval === 'week') return addCalendarDays(start, 7)
  const at = toUtc(start)
  at.setUTCMonth(at.getUTCMonth() + 1)
  return fromUtc(at)
}

/** Whether `text` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const at = toUtc(text)
  return !Number.isNaN(at.getTime()) && fromUtc(at) === text
}
