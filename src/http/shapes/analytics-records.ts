// The analytics answer's schemas in both shapes (docs/analytics.md): the primary shape's
// snake_case names and the alternative's camelCase names of the same fields, as the stats answer
// has them. Each row carries the metrics asked for only; money is decimal text of the currency.
import * as v from 'valibot'
import { ANALYTICS_METRICS } from '../../core/project/analytics.js'
import { CLICK_DIMENSIONS } from '../../core/ports/analytics.js'
import { camelKeys } from './camel-case.js'

const day = v.pipe(v.string(), v.isoDate())
const count = v.pipe(v.number(), v.integer())
const decimalString = v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/))

const figures = {
  clicks: v.optional(count),
  visitors: v.optional(count),
  signups: v.optional(count),
  conversions: v.optional(count),
  revenue: v.optional(decimalString),
  commission: v.optional(decimalString),
  bot_clicks: v.optional(count),
}
/** A bucket's first day with an interval, a group's value with group_by (null: events without one). */
const row = { start: v.optional(day), group: v.optional(v.nullable(v.string())), ...figures }
const answer = {
  from: day,
  to: day,
  time_zone: v.string(),
  interval: v.nullable(v.picklist(['day', 'week', 'month'])),
  group_by: v.nullable(v.picklist(CLICK_DIMENSIONS)),
  currency: v.string(),
  metrics: v.array(v.picklist(ANALYTICS_METRICS)),
  omitted_groups: count,
}

const named = <S extends v.GenericSchema>(name: string, schema: S) => ({ name, schema })

export const analyticsResponse = named(
  'AnalyticsResponse',
  v.strictObject({ data: v.strictObject({ ...answer, rows: v.array(v.strictObject(row)), totals: v.strictObject(figures) }) }),
)
export const analyticsResponseAlternative = named(
  'AnalyticsResponse',
  v.strictObject({ data: v.strictObject({ ...camelKeys(answer), rows: v.array(v.strictObject(camelKeys(row))), totals: v.strictObject(camelKeys(figures)) }) }),
)
