// Calendar days of a project's time zone ('YYYY-MM-DD') and the stats buckets built from them.
// Days are plain dates: arithmetic on them runs in UTC, where every day has 24 hours.

export type StatsInterval = 'day' | 'week' | 'month'

/**
 * A function giving the calendar day of an instant in `timeZone`. Build one and reuse it:
 * formatters are slow to create, and it remembers the last day's [start, end) so that instants
 * inside it (every event of today) cost two comparisons instead of a formatting.
 */
export function dayFormatter(timeZone: string): (at: Date) => string {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })
  /** The day of `time` and how far the zone's clock is ahead of UTC then. */
  const wallClock = (time: number) => {
    const parts: Record<string, string> = {}
    for (const part of format.formatToParts(time)) parts[part.type] = part.value
    const day = `${parts.year}-${parts.month}-${parts.day}`
    const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second))
    return { day, offset: wall - Math.floor(time / 1000) * 1000 }
  }
  let day = ''
  let start = 0
  let end = 0
  return (at) => {
    const time = at.getTime()
    if (time >= start && time < end) return day
    const found = wallClock(time)
    day = found.day
    // The day's bounds if the offset holds all day; when it changes that day (a DST switch) only this minute is remembered.
    const guess = toUtc(day).getTime() - found.offset
    const holdsAllDay = wallClock(guess).offset === found.offset && wallClock(guess + DAY_MS - 1).offset === found.offset
    start = holdsAllDay ? guess : Math.floor(time / 60_000) * 60_000
    end = holdsAllDay ? guess + DAY_MS : start + 60_000
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

const formatters = new Map<string, (at: Date) => string>()

/**
 * The instant `day` starts in `timeZone`: its first minute whose day there is `day` (zones are
 * whole minutes off UTC, and at most a day: the start is found by halving 30 hours around UTC's).
 */
export function dayStartIn(timeZone: string, day: string): Date {
  let dayOf = formatters.get(timeZone)
  if (dayOf === undefined) formatters.set(timeZone, (dayOf = dayFormatter(timeZone)))
  const midnight = toUtc(day).getTime()
  let before = midnight - 15 * 3_600_000
  let from = midnight + 15 * 3_600_000
  while (from - before > 60_000) {
    const middle = before + Math.floor((from - before) / 120_000) * 60_000
    if (dayOf(new Date(middle)) >= day) from = middle
    else before = middle
  }
  return new Date(from)
}

/** Whether `text` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const at = toUtc(text)
  return !Number.isNaN(at.getTime()) && fromUtc(at) === text
}
