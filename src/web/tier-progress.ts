// The affiliate's performance tier and progress to the next (docs/commissions.md "Performance
// tiers"), as the portal's overview and the console's affiliate page show it.
import { html, type Html } from './html.js'
import { money } from './format.js'
import type { AffiliateView } from '../core/rules/views.js'

const PERIOD_NAMES = { month: 'this month', quarter: 'this quarter', year: 'this year', lifetime: 'in all' } as const

/** A card with the tier held, the period's figures and what the next tier needs; null when the project sets no tiers. */
export function tierCard(affiliate: Pick<AffiliateView, 'tier' | 'tierProgress' | 'currency'>): Html | null {
  const progress = affiliate.tierProgress
  if (progress === null) return null
  const period = PERIOD_NAMES[progress.period]
  const figure = (name: string, label: string, value: string) =>
    html`<div class="figure"><dt id="fig-${name}">${label}</dt><dd aria-labelledby="fig-${name}" data-figure="${name}">${value}</dd></div>`
  const next = progress.next
  const needs = next && [next.minRevenue === null ? null : `${money(next.minRevenue, affiliate.currency)} revenue`, next.minCustomers === null ? null : `${next.minCustomers} new customers`].filter((part) => part !== null).join(' or ')
  return html`<section class="card" aria-labelledby="tier-title">
<h2 id="tier-title">Performance tier</h2>
<dl class="grid">
${figure('tier', 'Tier', affiliate.tier ?? 'None yet')}
${figure('tier-revenue', `Revenue ${period}`, money(progress.revenue, affiliate.currency))}
${figure('tier-customers', `New customers ${period}`, String(progress.customers))}
${figure('tier-next', 'Next tier', next ? `${next.name}: ${needs} ${period}` : 'Top tier reached')}
</dl>
</section>`
}
