// The totals of an analytics answer as the analytics pages show them (docs/admin.md "Analytics",
// docs/portal.md): the funnel from clicks to visitors, signups and conversions in one row, then
// revenue, commission and the bot clicks, which the funnel does not count.
import type { Translate } from '../core/model/i18n/translate.js'
import type { AnalyticsAnswer } from '../core/project/analytics.js'
import { answeredPeriod } from './analytics-period.js'
import { minorMoney } from './format.js'
import { html, type Html } from './html.js'

const FUNNEL = ['clicks', 'visitors', 'signups', 'conversions'] as const

export function analyticsTotals(answer: AnalyticsAnswer, t: Translate): Html {
  const { totals, currency } = answer
  const figure = (name: string, label: string, value: string) =>
    html`<div class="figure"><dt id="total-${name}">${label}</dt><dd aria-labelledby="total-${name}" data-total="${name}">${value}</dd></div>`
  return html`<section class="card" aria-labelledby="analytics-totals-title">
<h2 id="analytics-totals-title">${t('analytics.totals', { ...answeredPeriod(answer) })}</h2>
<ol class="funnel" aria-label="${t('analytics.funnel')}">${FUNNEL.map(
    (metric) => html`<li><span class="name">${t(`analytics.${metric}`)}</span> <strong data-total="${metric}">${totals[metric]}</strong></li>`,
  )}</ol>
<dl class="grid">
${figure('revenue', t('analytics.revenue'), minorMoney(totals.revenue, currency))}
${figure('commission', t('analytics.commission'), minorMoney(totals.commission, currency))}
${figure('bot_clicks', t('analytics.bot_clicks'), String(totals.botClicks))}
</dl>
</section>`
}
