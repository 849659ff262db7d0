// The overview's activity panel: clicks and purchases per day of the last 30 or 90 days, from the
// program's per-day counters (docs/stats.md), as an SVG bar chart with a count axis and date
// labels, the range's totals as figures, and every day's numbers in a table, so it needs no
// script and no hovering, and reads the same to a screen reader. Axis labels are HTML beside the
// picture, so they keep their size however wide the chart is drawn.
import { addCalendarDays } from '../core/model/calendar.js'
import type { StatsBucket, StatsSeries } from '../core/project/stats.js'
import { axisTop, labelledBuckets } from '../web/chart-axes.js'
import { html, type Html } from '../web/html.js'

export const CHART_RANGES = [30, 90] as const
export type ChartRange = (typeof CHART_RANGES)[number]

const WIDTH = 720
const HEIGHT = 160
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** 2026-03-07 as "7 Mar". */
export const shortDay = (day: string): string => `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]}`

function bars(buckets: StatsBucket[], top: number): Html {
  const slot = WIDTH / Math.max(1, buckets.length)
  const barWidth = Math.max(1, slot / 2 - 1)
  const bar = (kind: 'clicks' | 'purchases', index: number, count: number) => {
    const height = (count / top) * HEIGHT
    const x = index * slot + (kind === 'clicks' ? 0 : barWidth)
    return html`<rect class="${kind}" x="${x.toFixed(1)}" y="${(HEIGHT - height).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${height.toFixed(1)}"></rect>`
  }
  const gridline = (y: number) => html`<line class="gridline" x1="0" x2="${String(WIDTH)}" y1="${String(y)}" y2="${String(y)}" vector-effect="non-scaling-stroke"></line>`
  return html`${gridline(0)}${gridline(HEIGHT / 2)}${buckets.map((bucket, index) => html`${bar('clicks', index, bucket.clicks)}${bar('purchases', index, bucket.purchases)}`)}`
}

export function activityChart(series: StatsSeries, days: ChartRange, overviewPath: string): Html {
  const { buckets, totals } = series
  const top = axisTop(Math.max(1, ...buckets.map((bucket) => bucket.clicks), ...buckets.map((bucket) => bucket.purchases)))
  const last = addCalendarDays(series.to, -1)
  const summary = `${plural(totals.clicks, 'click')}, ${plural(totals.signups, 'signup')} and ${plural(totals.purchases, 'purchase')} from ${series.from} to ${last}`
  const total = (name: string, label: string, value: number) =>
    html`<div class="figure"><dt id="chart-${name}">${label}</dt><dd aria-labelledby="chart-${name}" data-chart-total="${name}">${String(value)}</dd></div>`
  return html`<section class="card" aria-labelledby="activity-chart-title">
<h2 id="activity-chart-title">Last ${String(days)} days</h2>
<p class="actions">${CHART_RANGES.map((range) =>
    range === days
      ? html`<a href="${overviewPath}?days=${String(range)}" aria-current="true">${String(range)} days</a>`
      : html`<a href="${overviewPath}?days=${String(range)}">${String(range)} days</a>`,
  )}</p>
<dl class="grid totals">
${total('clicks', 'Clicks', totals.clicks)}
${total('signups', 'Signups', totals.signups)}
${total('purchases', 'Purchases', totals.purchases)}
</dl>
<figure class="chart">
<div class="count-axis" aria-hidden="true"><span data-axis="top">${String(top)}</span><span>${String(top / 2)}</span><span>0</span></div>
<svg viewBox="0 0 ${String(WIDTH)} ${String(HEIGHT)}" preserveAspectRatio="none" role="img" aria-labelledby="activity-chart-caption" data-days="${String(buckets.length)}">
${bars(buckets, top)}
</svg>
<div class="date-axis" aria-hidden="true">${labelledBuckets(buckets.length).map((index) => html`<span data-axis="date">${shortDay(buckets[index]!.start)}</span>`)}</div>
<figcaption id="activity-chart-caption" data-figure="activity">${summary}, per day. <span class="legend clicks">Clicks</span> <span class="legend purchases">Purchases</span></figcaption>
</figure>
<details class="chart-days">
<summary>Figures by day</summary>
<div class="table-wrap"><table>
<caption class="skip">Clicks, signups and purchases per day</caption>
<thead><tr><th scope="col">Day</th><th scope="col" class="num">Clicks</th><th scope="col" class="num">Signups</th><th scope="col" class="num">Purchases</th></tr></thead>
<tbody>${[...buckets].reverse().map(
    (bucket) => html`<tr><th scope="row"><time datetime="${bucket.start}">${bucket.start}</time></th><td class="num">${String(bucket.clicks)}</td><td class="num">${String(bucket.signups)}</td><td class="num">${String(bucket.purchases)}</td></tr>`,
  )}</tbody>
</table></div>
</details>
</section>`
}
