// Due: the affiliates whose payable balance reaches the minimum under the payout terms
// (docs/payouts.md), with the conversions each payout settles; the selected rows are marked paid
// as one batch (the Payouts page's batch action).
import { html } from '../../web/html.js'
import { money } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'

export async function duePage(context: AdminRequest): Promise<AdminResult> {
  const { program, paths, csrf } = context
  const due = await program.payouts.due()
  const settings = await program.settings()
  const terms = settings.payouts
  const rule = terms
    ? html`<p class="muted">Payable ${terms.termsDays} days after the end of the month a commission's hold ends; due from ${money(terms.minimumAmount, settings.currency)}; paid on day ${terms.schedule.day} of the month.</p>`
    : html`<p class="muted">No payout terms are set: what is past its hold is due, with no minimum.</p>`
  const body = html`<h1>Due</h1>
${rule}
<section class="card" aria-labelledby="due-title">
<h2 id="due-title">Due now</h2>
${
  due.length === 0
    ? html`<p class="muted">Nobody is due a payout right now.</p>`
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
<select id="due-method" name="method"><option value="paypal">PayPal</option><option value="wise">Wise</option><option value="bank">Bank transfer</option><option value="manual">Manual</option><option value="other">Other</option></select>
<div class="actions"><button type="submit">Mark selected paid</button></div>
</form>`
}
</section>`
  return { title: 'Due', body }
}
