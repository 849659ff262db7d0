// Affiliates: search by email, name or referral code, filter by status, approve or block pending
// ones (and block or unblock the rest) through affiliates.update, as the API does; each links to
// its edit form. The found affiliates export as CSV; an empty program leads to its first affiliate.
import { ValidationError } from '../../core/model/errors.js'
import type { AffiliateStatus } from '../../core/model/types.js'
import type { AffiliateView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import { money } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { affiliatesCsv } from '../csv-export.js'
import { allAffiliates } from '../scan.js'

const STATUSES: AffiliateStatus[] = ['pending', 'active', 'blocked']
const SHOWN = 200

function matches(affiliate: AffiliateView, query: string): boolean {
  const needle = query.toLowerCase()
  return [affiliate.email, affiliate.name ?? '', affiliate.referralCode].some((value) => value.toLowerCase().includes(needle))
}

interface Search {
  query: string
  status: AffiliateStatus | null
}

/** The search of a query string or an export form; a status that is not one is refused. */
function searchOf(params: URLSearchParams): Search {
  const query = (params.get('q') ?? '').trim().slice(0, 200)
  const rawStatus = params.get('status') ?? ''
  const status = STATUSES.find((candidate) => candidate === rawStatus) ?? null
  if (rawStatus !== '' && status === null) throw new ValidationError('status', 'The status filter must be pending, active or blocked.')
  return { query, status }
}

async function found(context: AdminRequest, { query, status }: Search): Promise<AffiliateView[]> {
  return (await allAffiliates(context.program, status)).filter((affiliate) => query === '' || matches(affiliate, query))
}

function searchForm({ paths }: AdminRequest, { query, status }: Search): Html {
  return html`<form class="card filters" method="get" action="${paths.affiliates}" role="search" aria-label="Search affiliates">
<div class="field grow"><label for="q">Search by email, name or referral code</label><input id="q" name="q" type="search" value="${query}"></div>
<div class="field"><label for="status">Status</label><select id="status" name="status"><option value="">Any status</option>${STATUSES.map(
    (value) => html`<option value="${value}"${status === value ? html` selected` : null}>${value}</option>`,
  )}</select></div>
<div class="actions"><button type="submit">Search</button></div>
</form>`
}

/** What an empty program shows: the way to its first affiliate. */
export function firstAffiliate({ paths }: AdminRequest): Html {
  return html`<section class="card empty" aria-labelledby="empty-title">
<h2 id="empty-title">No affiliates yet</h2>
<p>Affiliates share your referral links and coupons and earn a commission on the customers they bring.</p>
<p><a class="button" href="${paths.affiliateNew}">Create your first affiliate</a></p>
<p class="muted">Then give them a coupon on the <a href="${paths.coupons}">Coupons</a> page, and check the commission rules on <a href="${paths.settings}">Settings</a>.</p>
</section>`
}

export async function affiliatesPage(context: AdminRequest): Promise<AdminResult> {
  const { program, url, paths, csrf } = context
  let search: Search
  try {
    search = searchOf(url.searchParams)
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    return { title: 'Affiliates', status: 400, body: html`<h1>Affiliates</h1><p class="error" role="alert">${error.message}</p>` }
  }
  const { query, status } = search
  const list = await found(context, search)
  const statusButton = (affiliate: AffiliateView, next: AffiliateStatus, label: string, secondary = false) =>
    html`<form class="inline" method="post" action="${paths.affiliateStatus(affiliate.id)}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="status" value="${next}"><button type="submit"${secondary ? html` class="secondary"` : null} aria-label="${label} ${affiliate.email}">${label}</button></form>`
  const actions = (affiliate: AffiliateView) =>
    affiliate.status === 'pending'
      ? html`${statusButton(affiliate, 'active', 'Approve')} ${statusButton(affiliate, 'blocked', 'Block', true)}`
      : affiliate.status === 'active'
        ? statusButton(affiliate, 'blocked', 'Block', true)
        : statusButton(affiliate, 'active', 'Unblock', true)
  const empty = list.length === 0 && query === '' && status === null
  const body = html`<div class="heading"><h1>Affiliates</h1>${empty ? null : html`<a class="button" href="${paths.affiliateNew}">Add an affiliate</a>`}</div>
${url.searchParams.has('changed') ? html`<p class="notice" role="status">The affiliate's status is saved.</p>` : null}
${
  empty
    ? firstAffiliate(context)
    : html`${searchForm(context, search)}
<section class="card">
${
  list.length === 0
    ? html`<p class="muted">No affiliate matches.</p>`
    : html`<div class="table-wrap"><table>
<caption class="skip">Affiliates</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Code</th><th scope="col">Status</th><th scope="col" class="num">Unpaid</th><th scope="col">Actions</th></tr></thead>
<tbody>${list.slice(0, SHOWN).map(
        (affiliate) => html`<tr data-affiliate="${affiliate.email}"><td>${affiliate.email}</td><td>${affiliate.name ?? ''}</td><td>${affiliate.referralCode}</td><td><span class="badge" data-status="${affiliate.status}">${affiliate.status}</span></td><td class="num">${money(affiliate.earnings.unpaid, affiliate.currency)}</td><td>${actions(affiliate)} <a href="${paths.affiliate(affiliate.id)}" aria-label="Edit ${affiliate.email}">Edit</a></td></tr>`,
      )}</tbody>
</table></div>`
}
<div class="table-foot"><p class="muted">${list.length} affiliate${list.length === 1 ? '' : 's'}${list.length > SHOWN ? html`; the first ${SHOWN} are shown, narrow the search to see others (the export has them all)` : null}.</p>
${
  list.length === 0
    ? null
    : html`<form method="post" action="${paths.affiliatesExport}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="q" value="${query}"><input type="hidden" name="status" value="${status ?? ''}"><button type="submit" class="secondary">Export CSV</button></form>`
}</div>
</section>`
}`
  return { title: 'Affiliates', body }
}

/** The affiliates the page shows for the search in the form, as a CSV download. */
export async function exportAffiliates(context: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const search = searchOf(form)
  const list = await found(context, search)
  const stamp = (context.program.clock?.now() ?? new Date()).toISOString().slice(0, 10)
  const filters = [search.query === '' ? null : `search "${search.query}"`, search.status === null ? null : `status ${search.status}`].filter(Boolean).join(', ')
  await context.audit('affiliates.export', null, `${list.length} rows${filters === '' ? '' : `, ${filters}`}`)
  return { download: { filename: `affiliates-${stamp}.csv`, contentType: 'text/csv; charset=utf-8', body: affiliatesCsv(list) } }
}

export async function changeAffiliateStatus({ paths, changes }: AdminRequest, id: number, form: URLSearchParams): Promise<AdminResult> {
  const next = form.get('status')
  if (next !== 'active' && next !== 'blocked') throw new ValidationError('status', 'status must be active or blocked')
  await changes(async ({ program, audit }) => {
    const before = await program.affiliates.get(id)
    await program.affiliates.update(id, { status: next })
    const action = next === 'blocked' ? 'affiliate.block' : before.status === 'pending' ? 'affiliate.approve' : 'affiliate.unblock'
    await audit(action, `affiliate:${id}`, before.email)
  })
  return { redirect: `${paths.affiliates}?changed=1` }
}
