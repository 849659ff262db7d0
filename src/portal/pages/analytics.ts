// Analytics (docs/portal.md): the analytics query of docs/analytics.md for the signed-in affiliate
// only (whatever the query string names), by link, campaign or source over a period: the totals
// as a funnel, a chart of clicks, signups and conversions per bucket and a table of the groups, in
// the page's language. A filter the query refuses shows the form again, with the field named.
import { ValidationError } from '../../core/model/errors.js'
import type { MessageKey } from '../../core/model/i18n/translate.js'
import type { AnalyticsInput } from '../../core/project/analytics.js'
import { readAnalytics, type AnalyticsView } from '../../web/analytics-answers.js'
import { analyticsChart } from '../../web/analytics-chart.js'
import { groupingField, periodFields } from '../../web/analytics-filter-fields.js'
import { answeredPeriod, queryPeriod, type PeriodFields } from '../../web/analytics-period.js'
import { analyticsTable, firstColumn } from '../../web/analytics-table.js'
import { analyticsTotals } from '../../web/analytics-totals.js'
import { html, type Html } from '../../web/html.js'
import type { PageResult, SignedInRequest } from '../page.js'

/** What an affiliate may group its figures by; the first is the default. */
const GROUPINGS = ['link', 'utm_campaign', 'utm_source'] as const

interface PortalFilter extends PeriodFields {
  interval: string
  groupBy: string
}

/** The label of each field of the query the form has, as a refusal names it. */
const LABELS: Record<string, MessageKey> = { from: 'analytics.from', to: 'analytics.to', interval: 'analytics.interval', groupBy: 'analytics.group_by' }

const filterOf = (params: URLSearchParams): PortalFilter => {
  const read = (name: string) => (params.get(name) ?? '').trim().slice(0, 64)
  return { from: read('from'), to: read('to'), interval: read('interval') || 'day', groupBy: read('group_by') || GROUPINGS[0] }
}

function filterForm({ paths, t }: SignedInRequest, filter: PortalFilter, timeZone: string | null): Html {
  return html`<form class="card filters" method="get" action="${paths.analytics}" role="search" aria-label="${t('analytics.title')}">
${periodFields(filter, t, timeZone === null ? null : 'filter-days')}
${groupingField(filter.groupBy, GROUPINGS, t, null)}
<div class="actions"><button type="submit">${t('analytics.show')}</button></div>
${timeZone ? html`<p id="filter-days" class="muted hint">${t('analytics.period_hint', { timeZone })}</p>` : null}
</form>`
}

/** The answers for the signed-in affiliate; a grouping the portal does not offer is refused like a bad value. */
function read(context: SignedInRequest, filter: PortalFilter): Promise<AnalyticsView> {
  const { program, affiliate, t, locale } = context
  if (!(GROUPINGS as readonly string[]).includes(filter.groupBy)) throw new ValidationError('groupBy', `must be one of ${GROUPINGS.join(', ')}`)
  const groupBy = filter.groupBy as (typeof GROUPINGS)[number]
  // Checked by the query, which refuses an interval of the wrong kind and names it.
  const interval = filter.interval as AnalyticsInput['interval']
  return readAnalytics(program, { filters: { ...queryPeriod(filter), affiliate: affiliate.id }, interval, groupBy, owner: affiliate.id }, t, locale)
}

export async function analyticsPage(context: SignedInRequest): Promise<PageResult> {
  const { url, t, locale } = context
  const filter = filterOf(url.searchParams)
  const page = (status: number, content: Html) => ({
    title: t('analytics.title'),
    status,
    body: html`<div lang="${locale}"><h1>${t('analytics.title')}</h1><p>${t('portal.analytics.intro')}</p>${content}</div>`,
  })
  let view: AnalyticsView
  try {
    view = await read(context, filter)
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    const label = LABELS[error.field ?? '']
    const field = label === undefined ? (error.field ?? '') : t(label)
    return page(400, html`<p class="error" role="alert">${t('portal.analytics.invalid', { field })}</p>${filterForm(context, filter, null)}`)
  }
  const { series, groups, lines } = view
  const table = groups!
  const caption = t('analytics.table_caption', { group: firstColumn(table, t), ...answeredPeriod(table) })
  return page(
    200,
    html`${filterForm(context, { ...filter, ...answeredPeriod(series) }, series.timeZone)}
${analyticsTotals(series, t)}
${analyticsChart(series, t, locale)}
<section class="card" aria-labelledby="analytics-table-title">
<h2 id="analytics-table-title">${caption}</h2>
${analyticsTable(table, lines, caption, t)}
</section>`,
  )
}
