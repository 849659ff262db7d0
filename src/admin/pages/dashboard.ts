// Dashboard: the program at a glance. This month so far against last month (clicks, signups,
// purchases, revenue, commission earned, from the per-day counters of docs/stats.md), and now:
// affiliates, referred and paying customers, commissions owed and payable now. An empty
// program shows the way to its first affiliate instead.
import { addCalendarDays, bucketStart, nextBucket } from '../../core/model/calendar.js'
import { formatMoney, minorDigits, parseMoney } from '../../core/model/money.js'
import type { StatsBucket } from '../../core/project/stats.js'
import type { AffiliateView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { allAffiliates } from '../scan.js'
import { firstAffiliate } from './affiliates.js'

type Measure = 'clicks' | 'signups' | 'purchases' | 'revenue' | 'commission'
const MEASURES: Array<[Measure, string]> = [
  ['clicks', 'Clicks'],
  ['signups', 'Signups'],
  ['purchases', 'Purchases'],
  ['revenue', 'Revenue'],
  ['commission', 'Commission earned'],
]

const monthName = (start: string, month: 'long' | 'short' = 'long'): string => new Date(`${start}T00:00:00Z`).toLocaleString('en-GB', { month, year: 'numeric', timeZone: 'UTC' })

/** The exact sum of one earnings figure over the affiliates, as decimal text. */
function sum(affiliates: AffiliateView[], figure: 'unpaid', currency: string): string {
  const digits = minorDigits(currency)
  return formatMoney(
    affiliates.reduce((total, affiliate) => total + parseMoney(affiliate.earnings[figure], digits, figure), 0n),
    digits,
  )
}

function comparison(current: StatsBucket, previous: StatsBucket, currency: string, today: string): Html {
  const digits = minorDigits(currency)
  const shown = (measure: Measure, bucket: StatsBucket): string => {
    const value = bucket[measure]
    return typeof value === 'bigint' ? formatMoney(value, digits) : String(value)
  }
  const change = (measure: Measure): string => {
    const difference = BigInt(current[measure]) - BigInt(previous[measure])
    const sign = difference > 0n ? '+' : difference < 0n ? '−' : '±'
    const size = difference < 0n ? -difference : difference
    return measure === 'revenue' || measure === 'commission' ? `${sign}${formatMoney(size, digits)}` : `${sign}${size}`
  }
  return html`<section class="card" aria-labelledby="months-title">
<h2 id="months-title">This month against last</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="months-title"><table>
<caption class="skip">${monthName(current.start)} to ${today} against ${monthName(previous.start)}</caption>
<thead><tr><th scope="col">Measure</th><th scope="col" class="num">${monthName(current.start, 'short')}<br><span class="muted">so far</span></th><th scope="col" class="num">${monthName(previous.start, 'short')}</th><th scope="col" class="num">Change</th></tr></thead>
<tbody>${MEASURES.map(
    ([measure, label]) => html`<tr data-measure="${measure}"><th scope="row">${label}${measure === 'revenue' || measure === 'commission' ? ` (${currency})` : ''}</th><td class="num" data-month="current">${shown(measure, current)}</td><td class="num" data-month="previous">${shown(measure, previous)}</td><td class="num" data-change>${change(measure)}</td></tr>`,
  )}</tbody>
</table></div>
</section>`
}

export async function dashboardPage(context: AdminRequest): Promise<AdminResult> {
  const { program, paths } = context
  const affiliates = await allAffiliates(program)
  if (affiliates.length === 0) return { title: 'Dashboard', body: html`<h1>Dashboard</h1>${firstAffiliate(context)}` }
  // The default series ends tomorrow in the project's time zone, so its last day is today there.
  const recent = await program.stats.program()
  const today = addCalendarDays(recent.to, -1)
  const thisMonth = bucketStart(today, 'month')
  const lastMonth = bucketStart(addCalendarDays(thisMonth, -1), 'month')
  const months = await program.stats.program({ from: lastMonth, to: nextBucket(thisMonth, 'month'), interval: 'month' })
  const [previous, current] = months.buckets as [StatsBucket, StatsBucket]
  const { currency } = months
  const [paying, referred] = await Promise.all([program.referrals.list({ status: 'converted', limit: 1 }), program.referrals.list({ status: 'pending', limit: 1 })])
  const count = (status: AffiliateView['status']) => affiliates.filter((affiliate) => affiliate.status === status).length
  const figure = (name: string, label: string, value: string, link: Html | null = null) =>
    html`<div class="figure"><dt id="fig-${name}">${label}</dt><dd aria-labelledby="fig-${name}" data-figure="${name}">${value}</dd>${link}</div>`
  const pending = count('pending')
  // What the Payouts and Due pages call payable (payouts.payables), not the eligible balance: under payout terms they differ.
  const digits = minorDigits(currency)
  const payableSum = formatMoney((await program.payouts.payables()).reduce((total, entry) => total + parseMoney(entry.payable, digits, 'payable'), 0n), digits)
  const body = html`<h1>Dashboard</h1>
<section class="card" aria-labelledby="now-title">
<h2 id="now-title">Now</h2>
<dl class="grid">
${figure('affiliates', 'Active affiliates', String(count('active')), html`<dd><a href="${paths.affiliates}">All affiliates</a></dd>`)}
${figure('pending', 'Waiting for approval', String(pending), pending === 0 ? null : html`<dd><a href="${paths.applications}">Review them</a></dd>`)}
${figure('customers', 'Paying customers', String(paying.total))}
${figure('referred', 'Referred, not paying yet', String(referred.total))}
${figure('owed', 'Commissions owed', `${sum(affiliates, 'unpaid', currency)} ${currency}`)}
${figure('payable', 'Payable now', `${payableSum} ${currency}`, html`<dd><a href="${paths.payouts}">Pay them</a></dd>`)}
</dl>
</section>
${comparison(current, previous, currency, today)}`
  return { title: 'Dashboard', body }
}
