// The answers an analytics page shows (docs/admin.md "Analytics", docs/portal.md): the series per
// bucket, for the totals and the chart, and, with a grouping, the groups over the whole period
// with their labels. The table's lines are the groups', or the series' buckets without a grouping.
import type { Locale } from '../core/model/i18n/locales.js'
import type { Translate } from '../core/model/i18n/translate.js'
import type { ProjectScope } from '../core/program.js'
import type { AnalyticsAnswer, AnalyticsInput } from '../core/project/analytics.js'
import { groupLabels, type GroupReader } from './analytics-groups.js'
import { analyticsLines, type AnalyticsLine } from './analytics-table.js'

export interface AnalyticsView {
  series: AnalyticsAnswer
  groups: AnalyticsAnswer | null
  lines: AnalyticsLine[]
}

/** A page's filters as the query takes them: the period and who, the buckets of the chart, the grouping of the table. */
export interface AnalyticsRequest {
  filters: Omit<AnalyticsInput, 'interval' | 'groupBy' | 'metrics'>
  interval: AnalyticsInput['interval']
  groupBy: AnalyticsInput['groupBy']
  /** On the portal, the signed-in affiliate: only its own links are named by their key. */
  owner?: number
}

/** Both answers, one after the other so that a refusal always names the same field first. */
export async function readAnalytics(program: Pick<ProjectScope, 'analytics'> & GroupReader, request: AnalyticsRequest, t: Translate, locale: Locale): Promise<AnalyticsView> {
  // The chart needs buckets: days unless the page asks for weeks or months.
  const series = await program.analytics.query({ ...request.filters, interval: request.interval ?? 'day' })
  if (request.groupBy === undefined) return { series, groups: null, lines: analyticsLines(series, null, locale) }
  const groups = await program.analytics.query({ ...request.filters, groupBy: request.groupBy })
  const labels = await groupLabels(program, groups.groupBy!, groups.rows.map((row) => row.group ?? null), t, request.owner)
  return { series, groups, lines: analyticsLines(groups, labels, locale) }
}
