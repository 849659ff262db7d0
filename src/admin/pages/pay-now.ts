// Pay now (docs/payouts.md "Payout runs"): the batch a payout run would send, shown before anything
// is sent; a CSRF-checked POST sends it, provided it is still the batch that was shown, and the
// page then lists what happened to each affiliate. This period's run payouts are listed with their
// state at the provider.
import { createHash } from 'node:crypto'
import { Currency } from '../../core/model/money.js'
import type { PayoutRunItem, PayoutRunResult } from '../../core/payouts/payout-runs.js'
import { html } from '../../web/html.js'
import { money } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'

const PROVIDERS = { paypal: 'PayPal Payouts', stripe: 'Stripe Connect' } as const
const OUTCOMES: Record<PayoutRunItem['outcome'], string> = {
  would_send: 'to send',
  paid: 'paid',
  processing: 'processing',
  failed: 'failed',
  skipped: 'not sent',
}

/** What the confirmation names: the affiliates, amounts and providers of the batch shown. */
function batchDigest(result: PayoutRunResult): string {
  const lines = result.items.filter((item) => item.outcome !== 'skipped').map((item) => `${item.affiliateId}:${item.amount}:${item.provider}:${item.payoutId ?? ''}`)
  return createHash('sha256').update(`${result.period}\n${lines.join('\n')}`).digest('hex').slice(0, 32)
}

function itemsTable(result: PayoutRunResult, caption: string) {
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table>
<caption class="skip">${caption}</caption>
<thead><tr><th scope="col">Affiliate</th><th scope="col" class="num">Amount</th><th scope="col">Through</th><th scope="col">Result</th><th scope="col">Why / provider reply</th></tr></thead>
<tbody>${result.items.map(
    (item) =>
      html`<tr data-run-item="${item.affiliateEmail}"><td>${item.affiliateEmail}</td><td class="num">${money(item.amount, item.currency)}</td><td>${item.provider ? PROVIDERS[item.provider] : html`<span class="muted">none</span>`}</td><td data-outcome="${item.outcome}">${OUTCOMES[item.outcome]}${item.resumed ? ' (sent again)' : ''}</td><td>${item.reason ?? ''}</td></tr>`,
  )}</tbody>
</table></div>`
}

async function periodCard(context: AdminRequest, period: string) {
  const sent = await context.program.providerPayouts.listRun(period)
  if (sent.length === 0) return html`<p class="muted">No run has paid anybody for ${period} yet.</p>`
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Paid by runs of ${period}"><table>
<thead><tr><th scope="col">Affiliate</th><th scope="col" class="num">Amount</th><th scope="col">Through</th><th scope="col">Status</th><th scope="col">Provider status</th><th scope="col">Reference</th><th scope="col">Reply</th></tr></thead>
<tbody>${sent.map(
    (row) =>
      html`<tr data-period-payout="${row.payout.affiliateEmail}"><td>${row.payout.affiliateEmail}</td><td class="num">${money(new Currency(row.payout.currency).amount(row.payout.amount).format(), row.payout.currency)}</td><td>${PROVIDERS[row.provider]}</td><td data-state>${row.state}</td><td>${row.itemStatus ?? ''}</td><td>${row.reference ?? ''}</td><td>${row.reply ?? ''}</td></tr>`,
  )}</tbody>
</table></div>`
}

const notConfigured = html`<h1>Pay now</h1>
<section class="card"><p role="status">Automatic payouts are not configured on this console: give the server <code>payoutProviders</code> (PayPal Payouts, Stripe Connect) and turn them on with <code>payouts.automatic</code>, or pass createAdminConsole's <code>payoutRuns</code>.</p></section>`

function planCard(context: AdminRequest, plan: PayoutRunResult, note: ReturnType<typeof html> | null) {
  const toSend = plan.counts.wouldSend + plan.counts.processing
  return html`<section class="card" aria-labelledby="plan-title">
<h2 id="plan-title">The batch for ${plan.period}</h2>
${note}
${plan.items.length === 0 ? html`<p class="muted">Nobody is due a payout right now.</p>` : itemsTable(plan, 'The batch a run would send')}
${
  toSend === 0
    ? null
    : html`<form method="post" action="${context.paths.payNow}">
<input type="hidden" name="csrf" value="${context.csrf}">
<input type="hidden" name="batch" value="${batchDigest(plan)}">
<div class="actions"><button type="submit">Send ${toSend} payout${toSend === 1 ? '' : 's'}</button></div>
</form>`
}
<p class="muted">Each affiliate is paid at most once per month by runs, whoever starts them (this page, the API, the CLI or the schedule).</p>
</section>`
}

export async function payNowPage(context: AdminRequest): Promise<AdminResult> {
  if (!context.payoutRuns) return { title: 'Pay now', body: notConfigured }
  let plan: PayoutRunResult
  try {
    plan = await context.payoutRuns.run({ dryRun: true })
  } catch (error) {
    return { title: 'Pay now', status: 409, body: html`<h1>Pay now</h1><section class="card"><p class="error" role="alert">${(error as Error).message}</p></section>` }
  }
  const body = html`<h1>Pay now</h1>
${planCard(context, plan, null)}
<section class="card" aria-labelledby="period-title"><h2 id="period-title">Paid by runs of ${plan.period}</h2>${await periodCard(context, plan.period)}</section>`
  return { title: 'Pay now', body }
}

export async function runPayouts(context: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  if (!context.payoutRuns) return { title: 'Pay now', status: 404, body: notConfigured }
  // Sent only when the batch is still the one shown: anything else is shown again to confirm.
  const plan = await context.payoutRuns.run({ dryRun: true })
  if (form.get('batch') !== batchDigest(plan)) {
    const note = html`<p class="error" role="alert">The batch changed since it was shown: nothing was sent. Check it again.</p>`
    return { title: 'Pay now', status: 409, body: html`<h1>Pay now</h1>${planCard(context, plan, note)}` }
  }
  const result = await context.payoutRuns.run({ dryRun: false })
  const { counts } = result
  await context.audit('payouts.run', `payout_run:${result.period}`, `${counts.paid} paid, ${counts.processing} processing, ${counts.failed} failed, ${counts.skipped} not sent`)
  const body = html`<h1>Payout run ${result.period}</h1>
<section class="card" aria-labelledby="result-title">
<h2 id="result-title">Result</h2>
<p role="status" data-run-counts>${counts.paid} paid, ${counts.processing} processing, ${counts.failed} failed, ${counts.skipped} not sent.</p>
${itemsTable(result, 'What the run did for each affiliate')}
<p class="muted">Processing: sent, the provider has not said yet (PayPal), or it did not answer (sent again by the next run or sync). The amount is held meanwhile.</p>
<p><a href="${context.paths.payNow}">Back to Pay now</a></p>
</section>`
  return { title: `Payout run ${result.period}`, body }
}
