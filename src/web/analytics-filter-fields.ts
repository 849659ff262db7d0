// The fields both analytics filter forms have (docs/admin.md "Analytics", docs/portal.md): the
// period's first and last day, the chart's buckets, and the grouping among those a page offers,
// labelled in the page's language.
import type { Translate } from '../core/model/i18n/translate.js'
import type { AnalyticsDimension } from '../core/ports/analytics.js'
import { html, type Html } from './html.js'

const INTERVALS = ['day', 'week', 'month'] as const

const option = (value: string, label: string, chosen: string) => html`<option value="${value}"${chosen === value ? html` selected` : null}>${label}</option>`

/** From, To and Bars per; `hintId` names the paragraph saying how days are read, when the form has one. */
export function periodFields(values: { from: string; to: string; interval: string }, t: Translate, hintId: string | null): Html {
  const described = hintId === null ? null : html` aria-describedby="${hintId}"`
  return html`<div class="field date"><label for="filter-from">${t('analytics.from')}</label><input id="filter-from" name="from" type="date" value="${values.from}"${described}></div>
<div class="field date"><label for="filter-to">${t('analytics.to')}</label><input id="filter-to" name="to" type="date" value="${values.to}"${described}></div>
<div class="field"><label for="filter-interval">${t('analytics.interval')}</label><select id="filter-interval" name="interval">${INTERVALS.map((interval) => option(interval, t(`analytics.interval.${interval}`), values.interval || 'day'))}</select></div>`
}

/** Group by, among `groupings`; `none` labels the choice of no grouping, when the page offers it. */
export function groupingField(chosen: string, groupings: readonly AnalyticsDimension[], t: Translate, none: string | null): Html {
  return html`<div class="field"><label for="filter-group">${t('analytics.group_by')}</label><select id="filter-group" name="group_by">${none === null ? null : option('', none, chosen)}${groupings.map((grouping) => option(grouping, t(`analytics.by.${grouping}`), chosen))}</select></div>`
}
