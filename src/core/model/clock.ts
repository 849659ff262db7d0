// Time source. The core never calls `new Date()` directly, so tests can move time.

export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

export interface TestClock extends Clock {
  set(at: Date | string): void
  advance(by: { days?: number; hours?: number; minutes?: number; seconds?: number; ms?: number }): void
}

/** A clock that only moves when told to. @default start 2026-01-01T00:00:00.000Z */
export function testClock(start: Date | string = '2026-01-01T00:00:00.000Z'): TestClock {
  let current = new Date(start).getTime()
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at).getTime()
    },
    advance: ({ days = 0, hours = 0, minutes = 0, seconds = 0, ms = 0 }) => {
      current += (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + ms
    },
  }
}

const DAY_MS = 86_400_000

export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS)
}

/** Calendar months in UTC; the day is clamped to the target month's last day. */
export function addMonths(at: Date, months: number): Date {
  const result = new Date(at.getTime())
  const day = result.getUTCDate()
  result.setUTCDate(1)
  result.setUTCMonth(result.getUTCMonth() + months)
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate()
  result.setUTCDate(Math.min(day, lastDay))
  return result
}
