// Due: the affiliates whose payable balance reaches the minimum under the payout terms
// (docs/payouts.md), with the conversions each payout settles; the selected rows are marked paid
// as one batch (the Payouts page's batch action); and the affiliates' payout requests.
import { html } from '../../web/html.js'
import { day, money } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { methodSelect } from './payouts.js'
import { termsOf } from '../../core/rules/payout-terms.js'

export async function duePage(context: AdminRequest): Promise<AdminResult> {
  const { program, paths, csrf } = context
  const payables = await program.payouts.payables()
  const due = await program.payouts.due()
  const later = payables.filter((entry) => !entry.due && entry.nextPayableDate !== null).sort((a, b) => a.nextPayableDate!.localeCompare(b.nextPayableDate!))
  const requests = await program.payouts.requests({ limit: 50 })
  const settings = await program.settings()
  const terms = termsOf(settings.payouts)
  const rule = terms
    ? html`<p class="muted">Payable ${terms.termsDays} days after the end of the month a commission's hold ends; due from ${money(terms.minimumAmount, settings.currency)}; paid on day ${terms.schedule.day} of the month.</p>`
    : html`<p class="muted">No payout terms are set: what is past its hold is due, with no minimum.</p>`
  const body = html`<h1>Due</h1>
${rule}
<section class="card" aria-labelledby="due-title">
<h2 id="due-title">Due now</h2>
${
  due.length === 0
    ? html`<p class="muted">Nobody is due a payout right now.${
        later.length > 0 ? html` Next: ${money(later[0]!.nextPayableAmount!, later[0]!.currency)} becomes payable to ${later[0]!.affiliateEmail} on <time datetime="${later[0]!.nextPayableDate!}">${later[0]!.nextPayableDate!}</time>.` : null
      }</p>`
    : html`<form method="post" action="${paths.payoutsBatch}">
<input type="hidden" name="csrf" value="${csrf}">
<div class="table-wrap"><table>
<caption class="skip">Affiliates due a payout</caption>
<thead><tr><th scope="col">Pay</th><th scope="col">Affiliate</th><th scope="col" class="num">Due</th><th scope="col">Conversions</th></tr></thead>
<tbody>${due.map(
        (entry) =>
          html`<tr data-due="${entry.affiliateEmail}"><td><input type="checkbox" name="affiliate" value="${entry.affiliateId}" checked aria-label="Pay ${entry.affiliateEmail}"><input type="hidden" name="amount_${entry.affiliateId}" value="${entry.amount}"></td><td><a href="${paths.affiliate(entry.affiliateId)}">${entry.affiliateEmail}</a></td><td class="num" data-due-amount>${money(entry.amount, entry.currency)}</td><td>${entry.conversionIds.map((id, index) => html`${index > 0 ? ', ' : ''}<a href="${paths.conversion(id)}">#${id}</a>`)}</td></tr>`,
      )}</tbody>
</table></div>
<label for="due-method">Paid with</label>
${methodSelect('due-method')}
<div class="actions"><button type="submit">Mark selected paid</button></div>
</form>`
}
</section>
<section class="card" aria-labelledby="requests-title">
<h2 id="requests-title">Payout requests</h2>
${
  requests.items.length === 0
    ? html`<p class="muted">No affiliate has asked for a payout.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="requests-title"><table>
<thead><tr><th scope="col">Asked on</th><th scope="col">Affiliate</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead>
<tbody>${requests.items.map(
        (request) =>
          html`<tr data-request="${request.affiliateEmail ?? ''}"><td>${day(request.createdAt)}</td><td>${request.affiliateEmail ?? html`<span class="muted">deleted</span>`}</td><td class="num">${money(request.amount, request.currency)}</td><td data-request-status>${request.status === 'open' ? 'open' : html`paid${request.resolvedAt ? html` on ${day(request.resolvedAt)}` : null}`}</td></tr>`,
      )}</tbody>
</table></div>`
}
</section>`
  return { title: 'Due', body }
}
