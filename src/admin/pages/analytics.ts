// Analytics (docs/admin.md "Analytics"): the analytics query of docs/analytics.md behind a GET form
// of filters; the totals as a funnel, a chart of clicks, signups and conversions per bucket, and a
// table of the groups (or of the buckets, without a grouping), which exports as CSV. A filter the
// query refuses shows its message with the form, as typed.
import { translator } from '../../core/model/i18n/translate.js'
import { readAnalytics, type AnalyticsView } from '../../web/analytics-answers.js'
import { analyticsChart } from '../../web/analytics-chart.js'
import { answeredPeriod } from '../../web/analytics-period.js'
import { analyticsTable, firstColumn } from '../../web/analytics-table.js'
import { analyticsTotals } from '../../web/analytics-totals.js'
import { html } from '../../web/html.js'
import { ANALYTICS_FILTERS, analyticsFilterForm, analyticsFilterOf, analyticsRequest, answeredFilter, filterRefusal, hiddenFilters, type AnalyticsFilter } from '../analytics-filter.js'
import { analyticsCsv } from '../csv-export.js'
import type { AdminRequest, AdminResult } from '../page.js'

/** The console is in English; the parts it shares with the portal read the English catalogue. */
const t = translator('en')

/** The answers for the filters, or the page saying which filter the query refused. */
async function answered(context: AdminRequest, filter: AnalyticsFilter): Promise<AnalyticsView | AdminResult> {
  try {
    return await readAnalytics(context.program, analyticsRequest(filter), t, 'en')
  } catch (error) {
    const refusal = filterRefusal(error)
    if (!refusal) throw error
    const body = html`<h1>Analytics</h1><p class="error" role="alert">${refusal.message}</p><p>Nothing is shown for these filters; change them below.</p>${analyticsFilterForm(context.paths, filter, t)}`
    return { title: 'Analytics', status: refusal.status, body }
  }
}

export async function analyticsPage(context: AdminRequest): Promise<AdminResult> {
  const { paths, csrf, url } = context
  const filter = analyticsFilterOf(url.searchParams)
  const view = await answered(context, filter)
  if (!('series' in view)) return view
  const { series, groups, lines } = view
  const shown = answeredFilter(filter, series)
  const table = groups ?? series
  const caption = t('analytics.table_caption', { group: firstColumn(table, t), ...answeredPeriod(table) })
  const body = html`<h1>Analytics</h1>
${analyticsFilterForm(paths, shown, t)}
${analyticsTotals(series, t)}
${analyticsChart(series, t, 'en')}
<section class="card" aria-labelledby="analytics-table-title">
<h2 id="analytics-table-title">${caption}</h2>
${analyticsTable(table, lines, caption, t)}
<div class="table-foot"><p class="muted">Conversion rate: conversions per click.</p>
<form method="post" action="${paths.analyticsExport}"><input type="hidden" name="csrf" value="${csrf}">${hiddenFilters(shown)}<button type="submit" class="secondary">Export CSV</button></form></div>
</section>`
  return { title: 'Analytics', body }
}

/** The page's table for the same filters, as a CSV download. */
export async function exportAnalytics(context: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const filter = analyticsFilterOf(form)
  const view = await answered(context, filter)
  if (!('series' in view)) return view
  const { series, groups, lines } = view
  const stamp = (context.program.clock?.now() ?? new Date()).toISOString().slice(0, 10)
  const filters = ANALYTICS_FILTERS.filter((name) => filter[name] !== '').map((name) => `${name} ${filter[name]}`).join(', ')
  await context.audit('analytics.export', null, `${lines.length} rows${filters === '' ? '' : `, ${filters}`}`)
  return { download: { filename: `analytics-${stamp}.csv`, contentType: 'text/csv; charset=utf-8', body: analyticsCsv(lines, groups !== null, series.currency) } }
}
