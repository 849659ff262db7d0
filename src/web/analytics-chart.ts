// The analytics pages' chart (docs/admin.md "Analytics", docs/portal.md): clicks, signups and
// conversions per day, week or month of an answer without groups, each in a band of its own with
// its own count axis (clicks outnumber the rest), drawn as inline SVG bars with a title and a
// description, and every bucket's figures in a table under it: no script, no hovering, the same
// to a screen reader (the approach of the portal's activity chart). Its words come from `t`, so
// it speaks the page's language.
import { addCalendarDays } from '../core/model/calendar.js'
import type { Locale } from '../core/model/i18n/locales.js'
import type { Translate } from '../core/model/i18n/translate.js'
import type { AnalyticsAnswer, AnalyticsRow } from '../core/project/analytics.js'
import type { AnalyticsInterval } from '../core/ports/analytics.js'
import { axisTop, labelledBuckets } from './chart-axes.js'
import { html, type Html } from './html.js'

const METRICS = ['clicks', 'signups', 'conversions'] as const
type ChartMetric = (typeof METRICS)[number]

const WIDTH = 720
const BAND_HEIGHT = 80
/** Beyond this many buckets a bar would be thinner than a pixel: the table alone answers. */
export const MAX_DRAWN_BUCKETS = 400

/** A bucket's first day as the time axis labels it: "7 Mar", "7. März"; a month as "Mar 2026". */
function axisLabel(start: string, interval: AnalyticsInterval, locale: Locale): string {
  const options: Intl.DateTimeFormatOptions = interval === 'month' ? { month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short' }
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(new Date(`${start}T00:00:00Z`))
}

/** One metric's bars as a single path: a bar per bucket, scaled to the band's top. */
function barsPath(counts: readonly number[], top: number): string {
  const slot = WIDTH / counts.length
  const width = slot * 0.7
  return counts
    .map((count, index) => {
      if (count === 0) return ''
      const height = (count / top) * BAND_HEIGHT
      return `M${(index * slot + (slot - width) / 2).toFixed(1)} ${BAND_HEIGHT}v-${height.toFixed(1)}h${width.toFixed(1)}V${BAND_HEIGHT}z`
    })
    .join('')
}

function band(metric: ChartMetric, rows: readonly AnalyticsRow[], period: { from: string; to: string }, t: Translate): Html {
  const counts = rows.map((row) => row[metric])
  const total = counts.reduce((sum, count) => sum + count, 0)
  const peak = Math.max(0, ...counts)
  const top = axisTop(Math.max(1, peak))
  const name = t(`analytics.${metric}`)
  const gridline = (y: number) => html`<line class="gridline" x1="0" x2="${WIDTH}" y1="${y}" y2="${y}" vector-effect="non-scaling-stroke"></line>`
  return html`<p class="band-name" aria-hidden="true">${name}</p>
<div class="count-axis" aria-hidden="true"><span data-axis="top">${top}</span><span>${top / 2}</span><span>0</span></div>
<svg viewBox="0 0 ${WIDTH} ${BAND_HEIGHT}" preserveAspectRatio="none" role="img" aria-labelledby="chart-${metric}-title chart-${metric}-desc" data-metric="${metric}">
<title id="chart-${metric}-title">${name}</title>
<desc id="chart-${metric}-desc">${t('analytics.chart.band', { metric: name, total, peak, ...period })}</desc>
${gridline(0)}${gridline(BAND_HEIGHT / 2)}<path class="${metric}" d="${barsPath(counts, top)}"></path>
</svg>`
}

/** The chart of `series` (an answer with an interval and no groups) and the table of its buckets. */
export function analyticsChart(series: AnalyticsAnswer, t: Translate, locale: Locale): Html {
  const interval = series.interval ?? 'day'
  const { rows, totals } = series
  const period = { from: series.from, to: addCalendarDays(series.to, -1) }
  const drawn = rows.length <= MAX_DRAWN_BUCKETS
  const starts = rows.map((row) => row.start ?? series.from)
  return html`<section class="card" aria-labelledby="analytics-chart-title">
<h2 id="analytics-chart-title">${t(`analytics.chart.${interval}`)}</h2>
${
  drawn
    ? html`<figure class="chart bands" data-buckets="${rows.length}">
${METRICS.map((metric) => band(metric, rows, period, t))}
<div class="date-axis" aria-hidden="true">${labelledBuckets(rows.length).map((index) => html`<span data-axis="date">${axisLabel(starts[index]!, interval, locale)}</span>`)}</div>
<figcaption data-chart-summary>${t('analytics.chart.caption', { clicks: totals.clicks, signups: totals.signups, conversions: totals.conversions, ...period })}</figcaption>
</figure>`
    : html`<p class="muted">${t('analytics.chart.too_many', { count: rows.length })}</p>`
}
<details class="chart-days">
<summary>${t(`analytics.figures.${interval}`)}</summary>
<div class="table-wrap"><table data-chart-table>
<caption class="skip">${t(`analytics.chart.${interval}`)}</caption>
<thead><tr><th scope="col">${t(`analytics.bucket.${interval}`)}</th>${METRICS.map((metric) => html`<th scope="col" class="num">${t(`analytics.${metric}`)}</th>`)}</tr></thead>
<tbody>${rows.map(
    (row, index) => html`<tr><th scope="row"><time datetime="${starts[index]!}">${starts[index]!}</time></th>${METRICS.map((metric) => html`<td class="num">${row[metric]}</td>`)}</tr>`,
  )}</tbody>
</table></div>
</details>
</section>`
}
