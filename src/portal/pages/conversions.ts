// Conversions: the affiliate's own, newest first, paged; one conversion's details. An id of
// another affiliate's conversion answers exactly like an id that does not exist.
import { NotFoundError } from '../../core/model/errors.js'
import type { ConversionType } from '../../core/model/types.js'
import { html } from '../../web/html.js'
import { pageNumber, pager } from '../../web/pager.js'
import { conversionStatus, day, money } from '../../web/format.js'
import type { PageResult, SignedInRequest } from '../page.js'

export const CONVERSIONS_PER_PAGE = 25

/** How the portal names each type of conversion. */
const TYPE_LABELS: Record<ConversionType, string> = { purchase: 'Purchase', signup: 'Signup', trial: 'Trial', bonus: 'Bonus' }

export async function conversionsPage({ program, affiliate, url, paths }: SignedInRequest): Promise<PageResult> {
  const page = pageNumber(url)
  if (page === null) return { title: 'Conversions', status: 400, body: html`<h1>Conversions</h1><p class="error">The page number must be a whole number from 1.</p>` }
  const list = await program.conversions.list({ affiliateId: affiliate.id, limit: CONVERSIONS_PER_PAGE, offset: (page - 1) * CONVERSIONS_PER_PAGE })
  const rows = list.items.map(
    (conversion) => html`<tr>
<td><a href="${paths.conversion(conversion.id)}">#${conversion.id}</a></td>
<td>${day(conversion.createdAt)}</td>
<td>${TYPE_LABELS[conversion.type]}</td>
<td class="num" data-value="${conversion.id}">${money(conversion.value, conversion.currency)}</td>
<td>${conversionStatus(conversion)}</td>
<td>${conversion.status === 'pending' ? day(conversion.holdUntil) : html`<span class="muted">—</span>`}</td>
<td>${conversion.paid ? 'Yes' : 'No'}</td>
</tr>`,
  )
  const body = html`<h1>Conversions</h1>
<section class="card">
${
  list.items.length === 0
    ? html`<p class="muted">No conversions yet.</p>`
    : html`<div class="table-wrap"><table>
<caption class="skip">Your conversions, newest first</caption>
<thead><tr><th scope="col">Conversion</th><th scope="col">Date</th><th scope="col">Type</th><th scope="col" class="num">Commission</th><th scope="col">Status</th><th scope="col">On hold until</th><th scope="col">Paid</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
<p class="muted">${list.total} conversion${list.total === 1 ? '' : 's'} in all.</p>
${pager(paths.conversions, page, CONVERSIONS_PER_PAGE, list.total, 'Conversions')}
</section>`
  return { title: 'Conversions', body }
}

export async function conversionPage({ program, affiliate, paths }: SignedInRequest, rawId: string): Promise<PageResult> {
  const id = /^[1-9][0-9]{0,14}$/.test(rawId) ? Number(rawId) : null
  const conversion = id === null ? null : await program.conversions.get(id).catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error)))
  if (!conversion || conversion.affiliateId !== affiliate.id) throw new NotFoundError('conversion not found')
  const row = (label: string, value: ReturnType<typeof html> | string) => html`<tr><th scope="row">${label}</th><td>${value}</td></tr>`
  const body = html`<h1>Conversion #${conversion.id}</h1>
<section class="card"><table>
${row('Date', day(conversion.createdAt))}
${row('Type', TYPE_LABELS[conversion.type])}
${row('Commission', money(conversion.value, conversion.currency))}
${row('Rate', conversion.commissionType === 'percentage' && conversion.commissionRate !== null ? `${conversion.commissionRate}%` : 'Fixed amount')}
${row('Status', conversionStatus(conversion))}
${row('On hold until', day(conversion.holdUntil))}
${row('Paid', conversion.paid ? 'Yes' : 'No')}
${conversion.baseValue !== null ? row('Sale amount', `${conversion.baseValue} ${conversion.baseValueCurrency ?? ''}`) : null}
${conversion.status === 'refunded' && conversion.refundReason ? row('Refund reason', conversion.refundReason) : null}
</table></section>
<p><a href="${paths.conversions}">Back to conversions</a></p>`
  return { title: `Conversion #${conversion.id}`, body }
}
