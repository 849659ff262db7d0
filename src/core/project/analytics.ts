// The analytics query (docs/analytics.md): clicks, visitors, bot clicks, signups, conversions,
// revenue and commission over a range of days of a time zone, per day, week or month, grouped by
// a link, an affiliate, a campaign field or what the click's browser told, for the whole program,
// one affiliate or one link. The reads are the storage's (rollups where they can answer, the raw
// clicks where not); this validates, turns days into instants, and shapes the rows.
import * as v from 'valibot'
import { addCalendarDays, dayFormatter, dayStartIn, daysBetween, isCalendarDay } from '../model/calendar.js'
import { findAffiliate } from '../affiliates/affiliates.js'
import { NotFoundError } from '../model/errors.js'
import type { ProjectContext } from '../rules/context.js'
import { ValidationError } from '../model/errors.js'
import { email, timeZone as knownTimeZone, validate } from '../model/schemas.js'
import { CLICK_DIMENSIONS, type AnalyticsDimension, type AnalyticsInterval, type AnalyticsRead, type ClickFigures, type OutcomeFigures } from '../ports/analytics.js'
import { analyticsRows, type AnalyticsFigures, type AnalyticsRow, type FigureRow } from './analytics-rows.js'
import { MAX_STATS_DAYS } from './stats.js'

export { MAX_ANALYTICS_GROUPS, MAX_ANALYTICS_ROWS, type AnalyticsFigures, type AnalyticsRow } from './analytics-rows.js'

export const ANALYTICS_METRICS = ['clicks', 'visitors', 'signups', 'conversions', 'revenue', 'commission', 'bot_clicks'] as const
export type AnalyticsMetric = (typeof ANALYTICS_METRICS)[number]
const CLICK_METRICS: readonly AnalyticsMetric[] = ['clicks', 'visitors', 'bot_clicks']
/** Each metric's field in a row. */
const METRIC_FIELDS: ReadonlyArray<readonly [AnalyticsMetric, keyof AnalyticsFigures]> = [
  ['clicks', 'clicks'],
  ['visitors', 'visitors'],
  ['signups', 'signups'],
  ['conversions', 'conversions'],
  ['revenue', 'revenue'],
  ['commission', 'commission'],
  ['bot_clicks', 'botClicks'],
]

const DEFAULT_DAYS = 30

const calendarDay = v.pipe(
  v.string('must be a date'),
  v.check(isCalendarDay, 'must be a date written YYYY-MM-DD'),
  // Instants around the range are read back as days of four-digit years, and month buckets end by 9999.
  v.check((day) => day >= '1970-01-01' && day <= '9999-01-01', 'must be a date between 1970-01-01 and 9999-01-01'),
)
const isMetric = (name: string): name is AnalyticsMetric => (ANALYTICS_METRICS as readonly string[]).includes(name)
/** IANA names only: an offset such as "+01:00" means the opposite to PostgreSQL (POSIX) and to the runtime. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/

export const analyticsInput = v.strictObject({
  /** @default every metric */
  metrics: v.optional(
    v.pipe(
      v.array(v.string(), 'must be a list of metrics'),
      v.minLength(1, 'must name at least one metric'),
      v.check((names) => names.every(isMetric), `must name only ${ANALYTICS_METRICS.join(', ')}`),
    ),
  ),
  /** @default none: one row per bucket */
  groupBy: v.optional(v.picklist(CLICK_DIMENSIONS, `must be one of ${CLICK_DIMENSIONS.join(', ')}`)),
  /** @default none: one row per group, over the whole range */
  interval: v.optional(v.picklist(['day', 'week', 'month'], 'must be day, week or month')),
  /** First day, inclusive. @default 30 days before `to` */
  from: v.optional(calendarDay),
  /** Day after the last, exclusive. @default tomorrow in the time zone (so today is the last day) */
  to: v.optional(calendarDay),
  /** An IANA time zone. @default the project's timeZone setting */
  timeZone: v.optional(v.pipe(knownTimeZone, v.regex(IANA_NAME, 'must be an IANA time zone such as "Europe/Paris"'))),
  /** One affiliate's figures: its email (or id). */
  affiliate: v.optional(v.union([email, v.pipe(v.number(), v.safeInteger(), v.minValue(1))], 'must be an email or an affiliate id')),
  /** One link's figures: its id. */
  link: v.optional(v.pipe(v.number('must be a link id'), v.safeInteger('must be a link id'), v.minValue(1, 'must be a link id'))),
})
export type AnalyticsInput = v.InferInput<typeof analyticsInput>

export interface AnalyticsAnswer {
  from: string
  to: string
  timeZone: string
  interval: AnalyticsInterval | null
  groupBy: AnalyticsDimension | null
  currency: string
  /** The metrics asked for: the others are 0 in every row, not read. */
  metrics: AnalyticsMetric[]
  rows: AnalyticsRow[]
  /** Every event of the range, listed groups or not. */
  totals: AnalyticsFigures
  /** Groups beyond the limit (MAX_ANALYTICS_GROUPS, and MAX_ANALYTICS_ROWS rows), counted in the totals only. */
  omittedGroups: number
}

/** The runtime's own spelling of a zone ("utc" is "UTC"), so that the project's zone is recognised however it is written. */
const canonicalZone = (name: string): string => new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone

/** The row with only the figures asked for (a read gives several metrics at once). */
function onlyAsked(row: ClickFigures | OutcomeFigures, asked: ReadonlySet<AnalyticsMetric>): FigureRow {
  const kept: FigureRow = { start: row.start, group: row.group }
  for (const [metric, field] of METRIC_FIELDS) {
    const value = (row as Partial<AnalyticsFigures>)[field]
    if (asked.has(metric) && value !== undefined) Object.assign(kept, { [field]: value })
  }
  return kept
}

export function analyticsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  return {
    /** The figures asked for, over the range, per bucket and group (docs/analytics.md). */
    async query(input: AnalyticsInput = {}): Promise<AnalyticsAnswer> {
      const data = validate(analyticsInput, input)
      const project = await ctx.project()
      const projectTimeZone = canonicalZone(project.settings.timeZone ?? 'UTC')
      const timeZone = data.timeZone === undefined ? projectTimeZone : canonicalZone(data.timeZone)
      const to = data.to ?? addCalendarDays(dayFormatter(timeZone)(ctx.clock.now()), 1)
      const from = data.from ?? addCalendarDays(to, -DEFAULT_DAYS)
      const span = daysBetween(from, to)
      if (span <= 0) throw new ValidationError('to', (name) => `${name('to')}: must be after ${name('from')}`)
      if (span > MAX_STATS_DAYS) throw new ValidationError('from', (name) => `${name('from')}: the range may cover at most ${MAX_STATS_DAYS} days`)
      const metrics = data.metrics === undefined ? [...ANALYTICS_METRICS] : [...new Set(data.metrics.filter(isMetric))]
      const interval = data.interval ?? null
      const groupBy = data.groupBy ?? null
      const read: AnalyticsRead = { from: dayStartIn(timeZone, from), to: dayStartIn(timeZone, to), timeZone, projectTimeZone, interval, groupBy }
      if (data.link !== undefined) read.linkId = data.link
      const { clicks, outcomes } = await storage.transaction(async (tx) => {
        if (data.affiliate !== undefined) read.affiliateId = (await findAffiliate(tx, projectId, data.affiliate)).id
        // A deleted link's clicks stay in the rollups, but naming it is asking for a link there is not.
        if (data.link !== undefined && !(await tx.links.get(projectId, data.link))) throw new NotFoundError('no link has this id', 'link')
        const clicks: ClickFigures[] = metrics.some((metric) => CLICK_METRICS.includes(metric)) ? await tx.analytics.clickFigures(projectId, read) : []
        const outcomes: OutcomeFigures[] = metrics.some((metric) => !CLICK_METRICS.includes(metric)) ? await tx.analytics.outcomeFigures(projectId, read) : []
        return { clicks, outcomes }
      })
      const asked = new Set<AnalyticsMetric>(metrics)
      const figures = [...clicks, ...outcomes].map((row) => onlyAsked(row, asked))
      const shaped = analyticsRows({ from, to, interval, grouped: groupBy !== null, figures })
      return { from, to, timeZone, interval, groupBy, currency: project.settings.currency, metrics, ...shaped }
    },
  }
}
