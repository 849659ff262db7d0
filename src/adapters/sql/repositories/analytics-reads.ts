// The reads of the analytics query in SQL (docs/analytics.md "Which rows answer"): clicks from
// the rollups when the read allows it (its group is one they keep, its days the project's), else
// from the raw clicks, bucketed in the read's time zone; signups, conversions, revenue and
// commission from the referred users and conversions, joined to the click each came through when
// grouped or filtered by one of its dimensions.
import { dayFormatter } from '../../../core/model/calendar.js'
import { ValidationError } from '../../../core/model/errors.js'
import { DIMENSION_FIELDS, readsRollups, type AnalyticsDimension, type AnalyticsInterval, type AnalyticsRead, type ClickFigures, type OutcomeFigures } from '../../../core/ports/analytics.js'
import type { SqlRow } from '../executor.js'
import { columnName, money, type Tables } from '../tables.js'

/** A dimension's value as the group key: ids as text, '' (a rollup's unknown) and link 0 as null. */
function groupOf(dimension: AnalyticsDimension | null, alias: string): string {
  if (dimension === null) return 'NULL::text'
  const column = `${alias}.${columnName(DIMENSION_FIELDS[dimension], 'text')}`
  if (dimension === 'link') return `NULLIF(${column}, 0)::text`
  if (dimension === 'affiliate') return `${column}::text`
  return `NULLIF(${column}, '')`
}

/** The bucket's first day of a local timestamp or a date (YYYY-MM-DD), or null without interval. */
function bucketOf(interval: AnalyticsInterval | null, local: string): string {
  return interval === null ? 'NULL::text' : `to_char(date_trunc('${interval}', ${local})::date, 'YYYY-MM-DD')`
}

class Params {
  readonly values: unknown[] = []
  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

/** The clicks, visitors and bot clicks of the read, per bucket and group. */
export function clickFiguresQuery(t: Tables, projectId: string, read: AnalyticsRead): { text: string; params: unknown[] } {
  const params = new Params()
  const project = params.add(projectId)
  const where = [`r.project_id = ${project}`]
  if (read.affiliateId !== undefined) where.push(`r.affiliate_id = ${params.add(read.affiliateId)}`)
  if (read.linkId !== undefined) where.push(`r.link_id = ${params.add(read.linkId)}`)
  if (readsRollups(read)) {
    // Rollup days are the project's days: from and to are day starts there.
    const dayOf = dayFormatter(read.projectTimeZone)
    where.push(`r.day >= ${params.add(dayOf(read.from))}::date`, `r.day < ${params.add(dayOf(read.to))}::date`)
    return {
      text: `SELECT ${bucketOf(read.interval, 'r.day::timestamp')} AS start, ${groupOf(read.groupBy, 'r')} AS grp,
               sum(r.clicks) AS clicks, sum(r.visitors) AS visitors, sum(r.bot_clicks) AS bot_clicks
             FROM ${t.schema}.click_rollups r WHERE ${where.join(' AND ')} GROUP BY 1, 2`,
      params: params.values,
    }
  }
  // The hour bounds let PostgreSQL skip the months outside the range (the partition key is hour).
  const firstHour = new Date(Math.floor(read.from.getTime() / 3_600_000) * 3_600_000)
  const to = params.add(read.to)
  where.push(`r.hour >= ${params.add(firstHour)}`, `r.hour < ${to}`, `r.at >= ${params.add(read.from)}`, `r.at < ${to}`)
  const start = read.interval === null ? 'NULL::text' : bucketOf(read.interval, `(r.at AT TIME ZONE ${params.add(read.timeZone)})`)
  return {
    text: `SELECT ${start} AS start, ${groupOf(read.groupBy, 'r')} AS grp,
             count(*) AS clicks, count(*) FILTER (WHERE r.new_visitor) AS visitors, 0 AS bot_clicks
           FROM ${t.schema}.link_clicks r WHERE ${where.join(' AND ')} GROUP BY 1, 2`,
    params: params.values,
  }
}

/**
 * Signups (referred users of an affiliate created in the range) and counted conversions created in
 * the range, per bucket and group, in one statement. Grouped by a click dimension (or filtered by
 * link), each row is joined to the click it came through, if that click is still stored.
 */
export function outcomeFiguresQuery(t: Tables, projectId: string, read: AnalyticsRead): { text: string; params: unknown[] } {
  const params = new Params()
  const project = params.add(projectId)
  const from = params.add(read.from)
  const to = params.add(read.to)
  const zone = read.interval === null ? null : params.add(read.timeZone)
  const affiliate = read.affiliateId === undefined ? null : params.add(read.affiliateId)
  const link = read.linkId === undefined ? null : params.add(read.linkId)
  const joinsClick = link !== null || (read.groupBy !== null && read.groupBy !== 'affiliate')
  // One click per row: an id names one click (its hour is part of it), LIMIT 1 makes sure no row counts twice.
  const click = (alias: string) =>
    joinsClick ? `LEFT JOIN LATERAL (SELECT * FROM ${t.schema}.link_clicks k WHERE k.project_id = ${alias}.project_id AND k.id = ${alias}.click_id LIMIT 1) c ON true` : ''
  const group = (alias: string) => (read.groupBy === 'affiliate' ? `${alias}.affiliate_id::text` : joinsClick ? groupOf(read.groupBy, 'c') : 'NULL::text')
  const start = (alias: string) => (zone === null ? 'NULL::text' : bucketOf(read.interval, `(${alias}.created_at AT TIME ZONE ${zone})`))
  const filters = (alias: string) =>
    [`${alias}.project_id = ${project}`, `${alias}.created_at >= ${from}`, `${alias}.created_at < ${to}`]
      .concat(affiliate === null ? [] : [`${alias}.affiliate_id = ${affiliate}`])
      .concat(link === null ? [] : [`c.link_id = ${link}`])
      .join(' AND ')
  return {
    text: `SELECT start, grp, sum(signups) AS signups, sum(conversions) AS conversions, sum(revenue) AS revenue, sum(commission) AS commission FROM (
             SELECT ${start('u')} AS start, ${group('u')} AS grp, count(*) AS signups, 0 AS conversions, 0 AS revenue, 0 AS commission
             FROM ${t.referrals.name} u ${click('u')}
             WHERE ${filters('u')} AND u.affiliate_id IS NOT NULL GROUP BY 1, 2
             UNION ALL
             SELECT ${start('v')}, ${group('v')}, 0, count(*) FILTER (WHERE v.tier = 1), coalesce(sum(v.revenue_minor) FILTER (WHERE v.tier = 1), 0), sum(v.value_minor)
             FROM ${t.conversions.name} v ${click('v')}
             WHERE ${filters('v')} AND v.status = 'active' GROUP BY 1, 2
           ) o GROUP BY start, grp`,
    params: params.values,
  }
}

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))

export function readClickFigures(rows: SqlRow[]): ClickFigures[] {
  return rows.map((row) => ({ start: text(row.start), group: text(row.grp), clicks: Number(row.clicks), visitors: Number(row.visitors), botClicks: Number(row.bot_clicks) }))
}

export function readOutcomeFigures(rows: SqlRow[]): OutcomeFigures[] {
  return rows.map((row) => ({
    start: text(row.start),
    group: text(row.grp),
    signups: Number(row.signups),
    conversions: Number(row.conversions),
    revenue: money(row.revenue),
    commission: money(row.commission),
  }))
}

/** A time zone the runtime knows but the database does not is the caller's 400, never a 500. */
export function timeZoneRejected(error: unknown): never {
  const failure = error as { code?: string; message?: string }
  if (failure.code === '22023' && /time zone/i.test(failure.message ?? '')) {
    throw new ValidationError('timeZone', (name) => `${name('timeZone')}: the database does not know this time zone`)
  }
  throw error
}
