// Overview: referral link (copy button with the script, selectable text without), earnings as
// the API reports them (held, payable now and the day more becomes payable, paid, unpaid, next
// release), counts and coupons.
import { html } from '../../web/html.js'
import { addCalendarDays } from '../../core/model/calendar.js'
import { activityChart, type ChartRange } from '../activity-chart.js'
import { day, isZero, money } from '../../web/format.js'
import type { PageResult, SignedInRequest } from '../page.js'
import { tierCard } from '../../web/tier-progress.js'

export async function overviewPage({ program, affiliate, referralLink, url, paths }: SignedInRequest): Promise<PageResult> {
  const coupons = await program.coupons.list({ affiliateId: affiliate.id, status: 'active', limit: 100 })
  const days: ChartRange = url.searchParams.get('days') === '90' ? 90 : 30
  // The default range is the last 30 days of the project's time zone; 90 reaches back from its end.
  let series = await program.stats.affiliate(affiliate.email)
  if (days === 90) series = await program.stats.affiliate(affiliate.email, { from: addCalendarDays(series.to, -90), to: series.to })
  const { earnings, currency } = affiliate
  const payable = await program.payouts.payable(affiliate.id)
  const figure = (name: string, label: string, value: string) =>
    html`<div class="figure"><dt id="fig-${name}">${label}</dt><dd aria-labelledby="fig-${name}" data-figure="${name}">${value}</dd></div>`
  const body = html`<h1>Overview</h1>
${affiliate.status === 'pending' ? html`<p class="notice">Your account is waiting for approval; commissions are recorded meanwhile.</p>` : null}
<section class="card" aria-labelledby="link-title">
<h2 id="link-title">Your referral link</h2>
${
    referralLink === null
      ? null
      : html`<div class="copy">
<label class="skip" for="referral-link">Referral link</label>
<input id="referral-link" type="text" readonly value="${referralLink}">
<button type="button" data-copy="referral-link" hidden>Copy link</button>
<span id="referral-link-status" class="muted" role="status" aria-live="polite"></span>
</div>`
  }
<p class="muted">Referral code: <strong data-figure="referral-code">${affiliate.referralCode}</strong></p>
</section>
<section class="card" aria-labelledby="earnings-title">
<h2 id="earnings-title">Earnings</h2>
<dl class="grid">
${figure('held', 'On hold', money(earnings.held, currency))}
${figure('payable', 'Payable now', money(payable.payable, currency))}
<div class="figure"><dt id="fig-next-payable">Becomes payable next</dt><dd aria-labelledby="fig-next-payable" data-figure="next-payable">${
    payable.nextPayableDate === null
      ? 'Nothing waiting'
      : html`${money(payable.nextPayableAmount!, currency)} on <time datetime="${payable.nextPayableDate}">${payable.nextPayableDate}</time>`
  }</dd></div>
${figure('paid', 'Paid', money(earnings.paid, currency))}
${figure('unpaid', 'Unpaid', money(earnings.unpaid, currency))}
${!isZero(earnings.credit) ? figure('credit', 'Paid ahead (credit)', money(earnings.credit, currency)) : null}
<div class="figure"><dt id="fig-next-release">Next release from hold</dt><dd aria-labelledby="fig-next-release" data-figure="next-release">${
    earnings.nextReleaseDate ?? 'Nothing on hold'
  }</dd></div>
</dl>
</section>
<section class="card" aria-labelledby="activity-title">
<h2 id="activity-title">Activity</h2>
<dl class="grid">
${figure('clicks', 'Clicks', String(affiliate.clicks))}
${figure('signups', 'Signups', String(affiliate.signups))}
${figure('purchases', 'Purchases', String(affiliate.purchases))}
</dl>
</section>
${tierCard(affiliate)}
${activityChart(series, days, paths.overview)}
<section class="card" aria-labelledby="coupons-title">
<h2 id="coupons-title">Your coupons</h2>
${
  coupons.items.length === 0
    ? html`<p class="muted">No coupons yet.</p>`
    : html`<ul>${coupons.items.map((coupon) => html`<li><strong>${coupon.code}</strong>${coupon.discountValue ? html` <span class="muted">${coupon.discountValue}${coupon.discountType === 'percentage' ? '%' : ''} off</span>` : null}</li>`)}</ul>`
}
</section>
<p class="muted">Member since ${day(affiliate.createdAt)}.</p>`
  return { title: 'Overview', body }
}
