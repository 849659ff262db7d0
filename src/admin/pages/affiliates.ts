// Affiliates: search by email, name or referral code, filter by status, approve or block pending
// ones (and block or unblock the rest) through affiliates.update, as the API does; each links to
// its edit form.
import { ValidationError } from '../../core/errors.js'
import type { AffiliateStatus } from '../../core/types.js'
import type { AffiliateView } from '../../core/views.js'
import { html } from '../../web/html.js'
import { money } from '../../portal/format.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { allAffiliates } from '../scan.js'

const STATUSES: AffiliateStatus[] = ['pending', 'active', 'blocked']
const SHOWN = 200

function matches(affiliate: AffiliateView, query: string): boolean {
  const needle = query.toLowerCase()
  return [affiliate.email, affiliate.name ?? '', affiliate.referralCode].some((value) => value.toLowerCase().includes(needle))
}

export async function affiliatesPage({ program, url, paths, csrf }: AdminRequest): Promise<AdminResult> {
  const query = (url.searchParams.get('q') ?? '').trim().slice(0, 200)
  const rawStatus = url.searchParams.get('status') ?? ''
  const status = STATUSES.find((candidate) => candidate === rawStatus) ?? null
  if (rawStatus !== '' && status === null) return { title: 'Affiliates', status: 400, body: html`<h1>Affiliates</h1><p class="error" role="alert">The status filter must be pending, active or blocked.</p>` }
  const found = (await allAffiliates(program, status)).filter((affiliate) => query === '' || matches(affiliate, query))
  const statusButton = (affiliate: AffiliateView, next: AffiliateStatus, label: string, secondary = false) =>
    html`<form class="inline" method="post" action="${paths.affiliateStatus(affiliate.id)}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="status" value="${next}"><button type="submit"${secondary ? html` class="secondary"` : null} aria-label="${label} ${affiliate.email}">${label}</button></form>`
  const actions = (affiliate: AffiliateView) =>
    affiliate.status === 'pending'
      ? html`${statusButton(affiliate, 'active', 'Approve')} ${statusButton(affiliate, 'blocked', 'Block', true)}`
      : affiliate.status === 'active'
        ? statusButton(affiliate, 'blocked', 'Block', true)
        : statusButton(affiliate, 'active', 'Unblock', true)
  const body = html`<h1>Affiliates</h1>
${url.searchParams.has('changed') ? html`<p class="notice" role="status">The affiliate's status is saved.</p>` : null}
<form class="card" method="get" action="${paths.affiliates}" role="search">
<label for="q">Search by email, name or referral code</label>
<input id="q" name="q" type="search" value="${query}">
<label for="status">Status</label>
<select id="status" name="status"><option value="">Any status</option>${STATUSES.map(
    (value) => html`<option value="${value}"${status === value ? html` selected` : null}>${value}</option>`,
  )}</select>
<div class="actions"><button type="submit">Search</button></div>
</form>
<section class="card">
${
  found.length === 0
    ? html`<p class="muted">No affiliate matches.</p>`
    : html`<div class="table-wrap"><table>
<caption class="skip">Affiliates</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Code</th><th scope="col">Status</th><th scope="col" class="num">Unpaid</th><th scope="col">Actions</th></tr></thead>
<tbody>${found.slice(0, SHOWN).map(
        (affiliate) => html`<tr data-affiliate="${affiliate.email}"><td>${affiliate.email}</td><td>${affiliate.name ?? ''}</td><td>${affiliate.referralCode}</td><td><span class="badge" data-status="${affiliate.status}">${affiliate.status}</span></td><td class="num">${money(affiliate.earnings.unpaid, affiliate.currency)}</td><td>${actions(affiliate)} <a href="${paths.affiliate(affiliate.id)}" aria-label="Edit ${affiliate.email}">Edit</a></td></tr>`,
      )}</tbody>
</table></div>
<p class="muted">${found.length} affiliate${found.length === 1 ? '' : 's'}${found.length > SHOWN ? html`; the first ${SHOWN} are shown, narrow the search to see others` : null}.</p>`
}
</section>`
  return { title: 'Affiliates', body }
}

export async function changeAffiliateStatus({ program, paths, audit }: AdminRequest, id: number, form: URLSearchParams): Promise<AdminResult> {
  const next = form.get('status')
  if (next !== 'active' && next !== 'blocked') throw new ValidationError('status', 'status must be active or blocked')
  const before = await program.affiliates.get(id)
  await program.affiliates.update(id, { status: next })
  const action = next === 'blocked' ? 'affiliate.block' : before.status === 'pending' ? 'affiliate.approve' : 'affiliate.unblock'
  await audit(action, `affiliate:${id}`, before.email)
  return { redirect: `${paths.affiliates}?changed=1` }
}
