// The overview's activity panel: clicks and purchases per day of the last 30 or 90 days, from the
// program's per-day counters (docs/stats.md), as an SVG bar chart with its totals written out, so
// it needs no script and reads the same to a screen reader.
import { addCalendarDays } from '../core/calendar.js'
import type { StatsSeries } from '../core/stats.js'
import { html, type Html } from '../web/html.js'

export const CHART_RANGES = [30, 90] as const
export type ChartRange = (typeof CHART_RANGES)[number]

const WIDTH = 720
const HEIGHT = 160
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

export function activityChart(series: StatsSeries, days: ChartRange, overviewPath: string): Html {
  const { buckets, totals } = series
  const peak = Math.max(1, ...buckets.map((bucket) => bucket.clicks), ...buckets.map((bucket) => bucket.purchases))
  const slot = WIDTH / Math.max(1, buckets.length)
  const barWidth = Math.max(1, slot / 2 - 1)
  const bar = (kind: 'clicks' | 'purchases', index: number, count: number) => {
    const height = (count / peak) * (HEIGHT - 10)
    const x = index * slot + (kind === 'clicks' ? 0 : barWidth)
    return html`<rect class="${kind}" x="${x.toFixed(1)}" y="${(HEIGHT - height).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${height.toFixed(1)}"></rect>`
  }
  const summary = `${plural(totals.clicks, 'click')}, ${plural(totals.signups, 'signup')} and ${plural(totals.purchases, 'purchase')} from ${series.from} to ${addCalendarDays(series.to, -1)}`
  return html`<section class="card" aria-labelledby="activity-chart-title">
<h2 id="activity-chart-title">Last ${String(days)} days</h2>
<p class="actions">${CHART_RANGES.map((range) =>
    range === days
      ? html`<a href="${overviewPath}?days=${String(range)}" aria-current="true">${String(range)} days</a>`
      : html`<a href="${overviewPath}?days=${String(range)}">${String(range)} days</a>`,
  )}</p>
<figure class="chart">
<svg viewBox="0 0 ${String(WIDTH)} ${String(HEIGHT)}" role="img" aria-labelledby="activity-chart-caption" data-days="${String(buckets.length)}">
${buckets.map((bucket, index) => html`${bar('clicks', index, bucket.clicks)}${bar('purchases', index, bucket.purchases)}`)}
</svg>
<figcaption id="activity-chart-caption" data-figure="activity">${summary}. <span class="legend clicks">Clicks</span> <span class="legend purchases">Purchases</span></figcaption>
</figure>
</section>`
}
