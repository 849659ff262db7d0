// Payouts: who has how much payable now (payouts.payables: the Due page's and the portal's
// reading) and since when, and what becomes payable on which day; record one payout;
// export the selected rows as a PayPal Payouts or Wise batch file; mark that batch paid in one
// transaction (payouts.createBatch). The exported amounts travel in the form, so the batch marked
// paid is the batch that was exported.
import { ValidationError } from '../../core/model/errors.js'
import { formatMoney, minorDigits, parseMoney } from '../../core/model/money.js'
import type { PayoutMethod } from '../../core/model/types.js'
import type { AffiliateView } from '../../core/rules/views.js'
import { html } from '../../web/html.js'
import { day, isZero, money } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { paypalPayoutsFile, paypalRecipient, wiseBatchFile, wiseRecipient, type BatchLine } from '../payout-files.js'
import { allAffiliates, allConversions } from '../scan.js'
import { providerPayoutsCard } from './provider-payouts.js'
import { checkedIds } from './review.js'

const METHODS: Array<[PayoutMethod, string]> = [
  ['paypal', 'PayPal'],
  ['wise', 'Wise'],
  ['bank', 'Bank transfer'],
  ['manual', 'Manual'],
  ['other', 'Other'],
]

/** The payout method picker of a form marking payouts paid. */
export const methodSelect = (id: string) =>
  html`<select id="${id}" name="method">${METHODS.map(([value, label]) => html`<option value="${value}">${label}</option>`)}</select>`

/** When the affiliate's oldest unpaid, released conversion became payable; null when none. */
async function owedSince(context: AdminRequest, affiliate: AffiliateView): Promise<Date | null> {
  const unpaid = await allConversions(context.program, { affiliateId: affiliate.id, paid: false })
  const payable = unpaid.filter((conversion) => conversion.status === 'active').map((conversion) => conversion.holdUntil.getTime())
  return payable.length === 0 ? null : new Date(Math.min(...payable))
}

export async function payoutsPage(context: AdminRequest): Promise<AdminResult> {
  const { program, url, paths, csrf } = context
  const payables = await program.payouts.payables()
  const views = new Map((await allAffiliates(program)).map((affiliate) => [affiliate.id, affiliate]))
  const payableNow = new Map(payables.filter((entry) => !isZero(entry.payable)).map((entry) => [entry.affiliateId, entry.payable]))
  const owed = [...payableNow.keys()].flatMap((id) => views.get(id) ?? [])
  const later = payables.filter((entry) => entry.nextPayableDate !== null)
  const since = new Map<number, Date | null>()
  for (const affiliate of owed) since.set(affiliate.id, await owedSince(context, affiliate))
  // docs/tax-details.md: without tax details on file they cannot be paid, so they are not selectable.
  const unpayable = new Set<number>()
  if ((await program.settings()).payouts?.requireTaxDetails) {
    for (const affiliate of owed) if (!(await program.taxDetails.get(affiliate.id))) unpayable.add(affiliate.id)
  }
  const recent = await program.payouts.list({ limit: 20 })
  const paid = url.searchParams.get('paid')
  const body = html`<h1>Payouts</h1>
${paid !== null && /^[0-9]{1,4}$/.test(paid) ? html`<p class="notice" role="status">${paid} payout${paid === '1' ? '' : 's'} recorded.</p>` : null}
<section class="card" aria-labelledby="owed-title">
<h2 id="owed-title">Payable now</h2>
${
  owed.length === 0
    ? html`<p class="muted">Nothing is payable right now.</p>`
    : html`<form method="post" action="${paths.payoutsBatch}">
<input type="hidden" name="csrf" value="${csrf}">
<div class="table-wrap"><table>
<caption class="skip">Affiliates with money payable now</caption>
<thead><tr><th scope="col">Pay</th><th scope="col">Affiliate</th><th scope="col">Prefers</th><th scope="col">PayPal / Wise email</th><th scope="col" class="num">Payable</th><th scope="col">Hold ended</th></tr></thead>
<tbody>${owed.map((affiliate) => {
        const from = since.get(affiliate.id) ?? null
        const pay = unpayable.has(affiliate.id)
          ? html`<span class="muted" data-no-tax-details>No tax details</span>`
          : html`<input type="checkbox" name="affiliate" value="${affiliate.id}" checked aria-label="Pay ${affiliate.email}"><input type="hidden" name="amount_${affiliate.id}" value="${payableNow.get(affiliate.id)!}">`
        return html`<tr data-owed="${affiliate.email}"><td>${pay}</td><td>${affiliate.name ? html`${affiliate.name}<br>` : null}<span class="muted">${affiliate.email}</span></td><td>${affiliate.payoutMethod ?? 'not chosen'}</td><td>${affiliate.payoutMethod === 'wise' ? wiseRecipient(affiliate) : paypalRecipient(affiliate)}</td><td class="num" data-owed-amount>${money(payableNow.get(affiliate.id)!, affiliate.currency)}</td><td>${from ? day(from) : ''}</td></tr>`
      })}</tbody>
</table></div>
<div class="actions">
<button type="submit" class="secondary" formaction="${paths.payoutsExport}" name="format" value="paypal">Export PayPal Payouts CSV</button>
<button type="submit" class="secondary" formaction="${paths.payoutsExport}" name="format" value="wise">Export Wise batch CSV</button>
</div>
<label for="batch-method">Paid with</label>
${methodSelect('batch-method')}
<div class="actions"><button type="submit">Mark selected paid</button></div>
<p class="muted">Marking paid records one payout per selected affiliate, all or none, for the amounts shown.</p>
</form>`
}
</section>
<section class="card" aria-labelledby="later-title">
<h2 id="later-title">Payable later</h2>
${
  later.length === 0
    ? html`<p class="muted">Nothing unpaid is waiting for its hold or the payout terms.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="later-title"><table>
<thead><tr><th scope="col">Affiliate</th><th scope="col" class="num">Amount</th><th scope="col">Payable on</th></tr></thead>
<tbody>${later.map(
        (entry) =>
          html`<tr data-later="${entry.affiliateEmail}"><td>${entry.affiliateEmail}</td><td class="num" data-later-amount>${money(entry.nextPayableAmount!, entry.currency)}</td><td data-later-date><time datetime="${entry.nextPayableDate!}">${entry.nextPayableDate!}</time></td></tr>`,
      )}</tbody>
</table></div>`
}
</section>
<section class="card" aria-labelledby="record-title">
<h2 id="record-title">Record a payout</h2>
<form method="post" action="${paths.payouts}">
<input type="hidden" name="csrf" value="${csrf}">
<label for="payout-email">Affiliate email</label>
<input id="payout-email" name="email" type="email" required>
<label for="payout-amount">Amount</label>
<input id="payout-amount" name="amount" inputmode="decimal" required>
<label for="payout-method">Method</label>
${methodSelect('payout-method')}
<div class="actions"><button type="submit">Record payout</button></div>
</form>
</section>
<section class="card" aria-labelledby="recent-title">
<h2 id="recent-title">Recent payouts</h2>
${
  recent.items.length === 0
    ? html`<p class="muted">No payouts yet.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="recent-title"><table>
<thead><tr><th scope="col">Date</th><th scope="col">Affiliate</th><th scope="col" class="num">Amount</th><th scope="col">Method</th></tr></thead>
<tbody>${recent.items.map((payout) => html`<tr><td>${day(payout.paymentDate)}</td><td>${payout.affiliateEmail}</td><td class="num">${money(payout.amount, payout.currency)}</td><td>${payout.method}</td></tr>`)}</tbody>
</table></div>`
}
</section>
${await providerPayoutsCard(program, recent.items)}`
  return { title: 'Payouts', body }
}

const methodOf = (form: URLSearchParams): PayoutMethod => {
  const method = METHODS.find(([value]) => value === form.get('method'))
  if (!method) throw new ValidationError('method', 'choose a payout method')
  return method[0]
}

/** The selected rows with their amounts, checked as money in the affiliates' currency. */
async function selectedLines({ program }: AdminRequest, form: URLSearchParams): Promise<BatchLine[]> {
  const lines: BatchLine[] = []
  for (const id of checkedIds(form, 'affiliate')) {
    const affiliate = await program.affiliates.get(id)
    const amount = form.get(`amount_${id}`) ?? ''
    parseMoney(amount, minorDigits(affiliate.currency), 'amount', false)
    lines.push({ affiliate, amount })
  }
  return lines
}

function total(lines: BatchLine[]): string {
  const currency = lines[0]!.affiliate.currency
  const digits = minorDigits(currency)
  return `${formatMoney(lines.reduce((sum, line) => sum + parseMoney(line.amount, digits, 'amount'), 0n), digits)} ${currency}`
}

export async function exportBatch(context: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const format = form.get('format')
  if (format !== 'paypal' && format !== 'wise') throw new ValidationError('format', 'choose PayPal or Wise')
  const lines = await selectedLines(context, form)
  const stamp = context.program.clock?.now() ?? new Date()
  const reference = `Affiliate commissions ${stamp.toISOString().slice(0, 10)}`
  const body = format === 'paypal' ? paypalPayoutsFile(lines, reference) : wiseBatchFile(lines, reference)
  await context.audit(`payouts.export_${format}`, `affiliates:${lines.map((line) => line.affiliate.id).join(',')}`, `${lines.length} rows, total ${total(lines)}`)
  const filename = `${format}-payouts-${stamp.toISOString().slice(0, 10)}.csv`
  return { download: { filename, contentType: 'text/csv; charset=utf-8', body } }
}

export async function markBatchPaid(context: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const method = methodOf(form)
  const payouts = await context.changes(async (change) => {
    const lines = await selectedLines(change, form)
    const paid = await change.program.payouts.createBatch(lines.map(({ affiliate, amount }) => ({ affiliateId: affiliate.id, amount, method })))
    await change.audit('payouts.batch_paid', `payouts:${paid.map((payout) => payout.id).join(',')}`, `${paid.length} payouts by ${method}, total ${total(lines)}`)
    return paid
  })
  return { redirect: `${context.paths.payouts}?paid=${payouts.length}` }
}

export async function recordPayout(context: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const method = methodOf(form)
  await context.changes(async ({ program, audit }) => {
    const payout = await program.payouts.create({ affiliateEmail: (form.get('email') ?? '').trim(), amount: (form.get('amount') ?? '').trim(), method })
    await audit('payout.create', `payout:${payout.id}`, `${payout.affiliateEmail}: ${money(payout.amount, payout.currency)} by ${method}`)
  })
  return { redirect: `${context.paths.payouts}?paid=1` }
}
