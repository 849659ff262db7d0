// The console's analytics filters (docs/admin.md "Analytics"): read from the page's query string or
// the export form, handed to the analytics query as typed (the query checks each and names the one
// at fault, here by its label), drawn as the GET form above the figures and carried by the export form.
import { NotFoundError, ValidationError } from '../core/model/errors.js'
import type { AnalyticsAnswer, AnalyticsInput } from '../core/project/analytics.js'
import { CLICK_DIMENSIONS } from '../core/ports/analytics.js'
import type { Translate } from '../core/model/i18n/translate.js'
import type { AnalyticsRequest } from '../web/analytics-answers.js'
import { groupingField, periodFields } from '../web/analytics-filter-fields.js'
import { answeredPeriod, queryPeriod } from '../web/analytics-period.js'
import { html, type Html } from '../web/html.js'
import type { AdminPaths } from './paths.js'

export const ANALYTICS_FILTERS = ['from', 'to', 'interval', 'group_by', 'affiliate', 'link', 'timezone'] as const
export type AnalyticsFilter = Record<(typeof ANALYTICS_FILTERS)[number], string>

/** The form's label of each field of the query, as a refusal names it. */
const LABELS: Record<string, string> = { from: 'From', to: 'To', interval: 'Bars per', groupBy: 'Group by', affiliate: 'Affiliate', link: 'Link id', timeZone: 'Time zone' }
const WHOLE_NUMBER = /^[1-9][0-9]{0,14}$/

export const analyticsFilterOf = (params: URLSearchParams): AnalyticsFilter =>
  Object.fromEntries(ANALYTICS_FILTERS.map((name) => [name, (params.get(name) ?? '').trim().slice(0, 254)])) as AnalyticsFilter

/** The filters as the query takes them; a value it would refuse is passed as typed, for its own message. */
export function analyticsRequest(filter: AnalyticsFilter): AnalyticsRequest {
  const typed = (value: string) => (value === '' ? undefined : value)
  const filters: Record<string, unknown> = {
    ...queryPeriod(filter),
    timeZone: typed(filter.timezone),
    affiliate: filter.affiliate === '' ? undefined : WHOLE_NUMBER.test(filter.affiliate) ? Number(filter.affiliate) : filter.affiliate,
    link: filter.link === '' ? undefined : WHOLE_NUMBER.test(filter.link) ? Number(filter.link) : filter.link,
  }
  // Checked by the query, which refuses any value of the wrong kind and names its field.
  return { filters: filters as AnalyticsRequest['filters'], interval: typed(filter.interval) as AnalyticsInput['interval'], groupBy: typed(filter.group_by) as AnalyticsInput['groupBy'] }
}

/** A refusal of the query as the page shows it, or null for an error that is not about the filters. */
export function filterRefusal(error: unknown): { status: 400 | 404; message: string } | null {
  if (error instanceof ValidationError) return { status: 400, message: error.describe((field) => LABELS[field] ?? field) }
  // The query looks up only the affiliate filtered by.
  if (error instanceof NotFoundError) return { status: 404, message: 'Affiliate: no affiliate has this email or id.' }
  return null
}

/** The filters with what the query took for those left empty: its period, time zone and the chart's days. */
export function answeredFilter(filter: AnalyticsFilter, answer: AnalyticsAnswer): AnalyticsFilter {
  return { ...filter, ...answeredPeriod(answer), interval: answer.interval ?? 'day', timezone: answer.timeZone }
}

/** The GET form of the filters. */
export function analyticsFilterForm(paths: AdminPaths, filter: AnalyticsFilter, t: Translate): Html {
  return html`<form class="card filters" method="get" action="${paths.analytics}" role="search" aria-label="Filter analytics">
${periodFields(filter, t, 'filter-days')}
${groupingField(filter.group_by, CLICK_DIMENSIONS, t, 'Nothing')}
<div class="field grow"><label for="filter-affiliate">Affiliate (email or id)</label><input id="filter-affiliate" name="affiliate" value="${filter.affiliate}"></div>
<div class="field"><label for="filter-link">Link id</label><input id="filter-link" name="link" inputmode="numeric" value="${filter.link}"></div>
<div class="field"><label for="filter-timezone">Time zone</label><input id="filter-timezone" name="timezone" value="${filter.timezone}" autocomplete="off" aria-describedby="filter-days"></div>
<div class="actions"><button type="submit">${t('analytics.show')}</button> <a href="${paths.analytics}">Clear filters</a></div>
<p id="filter-days" class="muted hint">${t('analytics.period_hint', { timeZone: filter.timezone || 'the time zone' })} Left empty: the last 30 days up to today, in the program's time zone.</p>
</form>`
}

/** The filters as hidden fields of the export form, so the file answers what the page shows. */
export const hiddenFilters = (filter: AnalyticsFilter): Html => html`${ANALYTICS_FILTERS.map((name) => html`<input type="hidden" name="${name}" value="${filter[name]}">`)}`
