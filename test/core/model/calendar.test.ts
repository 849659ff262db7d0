// The calendar day of an instant in a project's time zone, as stats and the daily counters use it:
// right on both sides of every midnight and DST switch, whatever order instants come in.
import { describe, expect, it } from 'vitest'
import { addCalendarDays, dayFormatter, dayStartIn } from '../../../src/core/model/calendar.js'

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Apia', 'Asia/Kathmandu', 'America/St_Johns']
const HOUR = 3_600_000

describe('dayFormatter', () => {
  for (const timeZone of ZONES) {
    const intl = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    const expected = (time: number) => intl.format(time)

    it(`gives Intl's day in ${timeZone} on both sides of each midnight of 2012 (DST switches, Apia's skipped day)`, () => {
      const dayOf = dayFormatter(timeZone)
      const from = Date.UTC(2011, 11, 25)
      for (let time = from; time < from + 380 * 24 * HOUR; time += HOUR) {
        if (expected(time) === expected(time + HOUR)) continue
        // The exact millisecond the day changes.
        let [low, high] = [time, time + HOUR]
        while (high - low > 1) {
          const middle = Math.floor((low + high) / 2)
          if (expected(middle) === expected(time)) low = middle
          else high = middle
        }
        for (const edge of [low - HOUR, low, high, high + HOUR]) expect(dayOf(new Date(edge)), new Date(edge).toISOString()).toBe(expected(edge))
      }
    })

    it(`gives Intl's day in ${timeZone} for instants in any order`, () => {
      const dayOf = dayFormatter(timeZone)
      let seed = 7
      const next = () => (seed = (seed * 48_271) % 2_147_483_647)
      for (let index = 0; index < 5_000; index += 1) {
        const time = Date.UTC(2000, 0, 1) + (next() % (30 * 365)) * 24 * HOUR + (next() % (24 * HOUR))
        expect(dayOf(new Date(time))).toBe(expected(time))
      }
    })
  }
})

describe('dayStartIn', () => {
  for (const timeZone of ZONES) {
    it(`gives the first instant of each day of 2012 in ${timeZone} (the per-affiliate signup bound counts from it)`, () => {
      const dayOf = dayFormatter(timeZone)
      for (let day = '2012-01-01'; day < '2013-01-01'; day = addCalendarDays(day, 1)) {
        const start = dayStartIn(timeZone, day).getTime()
        expect(dayOf(new Date(start)), `${timeZone} ${day}`).toBe(day)
        expect(dayOf(new Date(start - 1)) < day, `${timeZone} ${day}`).toBe(true)
      }
    })
  }

  it("skips Apia's missing day (2011-12-30): it starts where the next day does", () => {
    expect(dayStartIn('Pacific/Apia', '2011-12-30')).toEqual(dayStartIn('Pacific/Apia', '2011-12-31'))
  })
})
