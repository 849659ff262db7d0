// The payouts page's card of payouts sent through PayPal Payouts or Stripe Connect: where each
// stands in the ledger, the provider's own status of the item and its last reply (docs/payouts.md).
import type { PayoutView } from '../../core/rules/views.js'
import { html } from '../../web/html.js'
import { day, money } from '../../web/format.js'
import type { AdminProgram } from '../program.js'

const PROVIDERS = { paypal: 'PayPal Payouts', stripe: 'Stripe Connect' } as const

/** The card, or nothing when none of these payouts went through a provider. */
export async function providerPayoutsCard(program: AdminProgram, payouts: readonly PayoutView[]) {
  const sent = []
  for (const payout of payouts) {
    const row = await program.providerPayouts.get(payout.id)
    if (row) sent.push({ payout, row })
  }
  if (sent.length === 0) return null
  return html`<section class="card" aria-labelledby="provider-title">
<h2 id="provider-title">Sent through a provider</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="provider-title"><table>
<thead><tr><th scope="col">Date</th><th scope="col">Affiliate</th><th scope="col" class="num">Amount</th><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">Provider status</th><th scope="col">Reference</th><th scope="col">Reply</th></tr></thead>
<tbody>${sent.map(
    ({ payout, row }) =>
      html`<tr data-provider-payout="${payout.id}"><td>${day(payout.paymentDate)}</td><td>${payout.affiliateEmail}</td><td class="num">${money(payout.amount, payout.currency)}</td><td>${PROVIDERS[row.provider]}</td><td data-state>${row.state}</td><td data-item-status>${row.itemStatus ?? ''}</td><td>${row.reference ?? ''}</td><td data-reply>${row.reply ?? ''}</td></tr>`,
  )}</tbody>
</table></div>
<p class="muted">Processing: the amount is held until the provider pays (then its conversions are settled) or does not (then it goes back to the balance).</p>
</section>`
}
