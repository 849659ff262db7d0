// The rows of an analytics answer as the analytics pages list them (docs/admin.md "Analytics",
// docs/portal.md): one line per group, or per bucket when the answer has no groups, with clicks,
// visitors, signups, conversions, the conversion rate (conversions per click), revenue and
// commission. The console's CSV is written from the same lines, so the file says what the table says.
import { formatMoney, minorDigits } from '../core/model/money.js'
import type { Locale } from '../core/model/i18n/locales.js'
import type { MessageKey, Translate } from '../core/model/i18n/translate.js'
import type { AnalyticsAnswer } from '../core/project/analytics.js'
import { money, percentOf } from './format.js'
import { html, type Html } from './html.js'

/** One line of the table: what it is (a group's value or a bucket's first day), its label and its figures. */
export interface AnalyticsLine {
  /** The group's value (null: events without one), or the bucket's first day. */
  value: string | null
  label: string
  clicks: number
  visitors: number
  signups: number
  conversions: number
  /** Conversions per click as a percentage in the page's language; null without clicks. */
  rate: string | null
  /** Decimal text of the answer's currency. */
  revenue: string
  commission: string
}

/**
 * The lines of `answer`: per group when it is grouped (`labels` names them), else per bucket.
 * Rates are written as `locale` writes them.
 */
export function analyticsLines(answer: AnalyticsAnswer, labels: ReadonlyMap<string | null, string> | null, locale: Locale): AnalyticsLine[] {
  const digits = minorDigits(answer.currency)
  return answer.rows.map((row) => {
    const value = answer.groupBy === null ? (row.start ?? answer.from) : (row.group ?? null)
    return {
      value,
      label: answer.groupBy === null ? (value ?? '') : (labels?.get(value) ?? value ?? ''),
      clicks: row.clicks,
      visitors: row.visitors,
      signups: row.signups,
      conversions: row.conversions,
      rate: percentOf(row.conversions, row.clicks, locale),
      revenue: formatMoney(row.revenue, digits),
      commission: formatMoney(row.commission, digits),
    }
  })
}

/** What the first column holds: the grouping's name, or the bucket's. */
export function firstColumn(answer: AnalyticsAnswer, t: Translate): string {
  if (answer.groupBy !== null) return t(`analytics.by.${answer.groupBy}`)
  return t(`analytics.bucket.${answer.interval ?? 'day'}`)
}

/** The table of the lines, with `caption` for screen readers; an empty answer says so. */
export function analyticsTable(answer: AnalyticsAnswer, lines: readonly AnalyticsLine[], caption: string, t: Translate): Html {
  if (lines.length === 0) return html`<p class="muted" data-analytics-empty>${t('analytics.no_groups')}</p>`
  const { currency } = answer
  const head = (key: MessageKey) => html`<th scope="col" class="num">${t(key)}</th>`
  const amount = (text: string) => html`<td class="num">${money(text, currency)}</td>`
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table data-analytics-table>
<caption class="skip">${caption}</caption>
<thead><tr><th scope="col">${firstColumn(answer, t)}</th>${head('analytics.clicks')}${head('analytics.visitors')}${head('analytics.signups')}${head('analytics.conversions')}${head('analytics.conversion_rate')}${head('analytics.revenue')}${head('analytics.commission')}</tr></thead>
<tbody>${lines.map(
    (line) => html`<tr><th scope="row">${answer.groupBy === null ? html`<time datetime="${line.label}">${line.label}</time>` : line.label}</th><td class="num">${line.clicks}</td><td class="num">${line.visitors}</td><td class="num">${line.signups}</td><td class="num">${line.conversions}</td><td class="num">${line.rate ?? '–'}</td>${amount(line.revenue)}${amount(line.commission)}</tr>`,
  )}</tbody>
</table></div>
${answer.omittedGroups > 0 ? html`<p class="muted">${t('analytics.omitted', { count: answer.omittedGroups })}</p>` : null}`
}
