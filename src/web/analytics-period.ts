// The period of the analytics pages' filters (docs/admin.md "Analytics", docs/portal.md): a first
// and a last day, both included, as the conversions filters read days; the analytics query's `to`
// is the day after the last. A value that is not a day goes to the query as typed, so that the
// query's own message refuses it.
import { addCalendarDays, isCalendarDay } from '../core/model/calendar.js'

/** The period as the form holds it: YYYY-MM-DD days, or '' for the query's default. */
export interface PeriodFields {
  from: string
  to: string
}

/** The query's from and to for the period typed: `to` becomes the day after the last day. */
export function queryPeriod(fields: PeriodFields): { from?: string; to?: string } {
  return {
    ...(fields.from === '' ? {} : { from: fields.from }),
    ...(fields.to === '' ? {} : { to: isCalendarDay(fields.to) ? addCalendarDays(fields.to, 1) : fields.to }),
  }
}

/** The period an answer covers, as the form shows it: its first and its last day. */
export function answeredPeriod(answer: { from: string; to: string }): PeriodFields {
  return { from: answer.from, to: addCalendarDays(answer.to, -1) }
}
