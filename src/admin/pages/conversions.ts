// Conversions: every conversion, newest first, filtered by status, affiliate, type and creation
// day; one conversion's details with a refund form (in full, or a part of the sale amount) that
// goes through conversions.update as PUT /conversions/:id does (docs/ledger.md "Refunds and clawbacks").
// The filtered list exports as CSV, every page of it.
import { ConflictError, NotFoundError, ValidationError } from '../../core/model/errors.js'
import { formatMoney, minorDigits, parseMoney } from '../../core/model/money.js'
import type { ListConversionsInput } from '../../core/model/schemas.js'
import type { ConversionStatus, ConversionType } from '../../core/model/types.js'
import type { ConversionView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import { pageNumber, pager } from '../../web/pager.js'
import { commissionRule, conversionStatus, day, money } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { formRefusal, type Refusal } from '../refusal.js'
import { conversionsCsv } from '../csv-export.js'
import { allConversions } from '../scan.js'
import { affiliatesOf } from './review.js'

const PER_PAGE = 50
const STATUSES: ConversionStatus[] = ['pending', 'active', 'review', 'refunded', 'rejected']
const TYPES: ConversionType[] = ['purchase', 'signup', 'trial', 'bonus']
const FILTERS = ['status', 'affiliate', 'type', 'from', 'to'] as const
type Filter = Record<(typeof FILTERS)[number], string>
const DAY_MS = 86_400_000

/** A `YYYY-MM-DD` day of the filter form as the instant it starts (UTC). */
function dayStart(raw: string, field: string): Date {
  const date = new Date(`${raw}T00:00:00.000Z`)
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(raw) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw) {
    throw new ValidationError(field, `${field} must be a day such as 2026-03-01`)
  }
  return date
}

/** The list call's filters and the status to keep, or null when the named affiliate does not exist. */
async function queryOf({ program }: AdminRequest, filter: Filter): Promise<{ query: Omit<ListConversionsInput, 'limit' | 'offset'>; status: ConversionStatus | null } | null> {
  const status = STATUSES.find((candidate) => candidate === filter.status) ?? null
  if (filter.status !== '' && status === null) throw new ValidationError('status', `status must be one of ${STATUSES.join(', ')}`)
  const type = TYPES.find((candidate) => candidate === filter.type)
  if (filter.type !== '' && type === undefined) throw new ValidationError('type', 'type must be purchase, signup or bonus')
  const query: Omit<ListConversionsInput, 'limit' | 'offset'> = {
    ...(type ? { type } : {}),
    ...(filter.from ? { from: dayStart(filter.from, 'from') } : {}),
    ...(filter.to ? { to: new Date(dayStart(filter.to, 'to').getTime() + DAY_MS) } : {}),
  }
  if (filter.affiliate !== '') {
    const ref = /^[1-9][0-9]{0,14}$/.test(filter.affiliate) ? Number(filter.affiliate) : filter.affiliate
    const affiliate = await program.affiliates.get(ref).catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error)))
    if (!affiliate) return null
    query.affiliateId = affiliate.id
  }
  return { query, status }
}

/** One page of the matching conversions: straight from the store, or scanned when filtering by status (not a store filter). */
async function matching(context: AdminRequest, filter: Filter, page: number): Promise<{ items: ConversionView[]; total: number }> {
  const found = await queryOf(context, filter)
  if (!found) return { items: [], total: 0 }
  const offset = (page - 1) * PER_PAGE
  if (found.status === null) return context.program.conversions.list({ ...found.query, limit: PER_PAGE, offset })
  const all = (await allConversions(context.program, found.query)).filter((conversion) => conversion.status === found.status)
  return { items: all.slice(offset, offset + PER_PAGE), total: all.length }
}

function filterForm({ paths }: AdminRequest, filter: Filter): Html {
  const options = (values: string[], chosen: string, any: string) =>
    html`<option value="">${any}</option>${values.map((value) => html`<option value="${value}"${chosen === value ? html` selected` : null}>${value}</option>`)}`
  return html`<form class="card filters" method="get" action="${paths.conversions}" role="search" aria-label="Filter conversions">
<div class="field"><label for="filter-status">Status</label><select id="filter-status" name="status">${options(STATUSES, filter.status, 'Any status')}</select></div>
<div class="field grow"><label for="filter-affiliate">Affiliate (email or id)</label><input id="filter-affiliate" name="affiliate" value="${filter.affiliate}"></div>
<div class="field"><label for="filter-type">Type</label><select id="filter-type" name="type">${options(TYPES, filter.type, 'Any type')}</select></div>
<div class="field date"><label for="filter-from">Created from</label><input id="filter-from" name="from" type="date" value="${filter.from}" aria-describedby="filter-days"></div>
<div class="field date"><label for="filter-to">Created to</label><input id="filter-to" name="to" type="date" value="${filter.to}" aria-describedby="filter-days"></div>
<div class="actions"><button type="submit">Filter</button> <a href="${paths.conversions}">Clear filters</a> <a href="${paths.conversionPreview}">What would a conversion earn?</a></div>
<p id="filter-days" class="muted hint">Days are UTC days, both included.</p>
</form>`
}

/** Every matching conversion (up to the scan limit), for the export. */
async function allMatching(context: AdminRequest, filter: Filter): Promise<ConversionView[]> {
  const found = await queryOf(context, filter)
  if (!found) return []
  const all = await allConversions(context.program, found.query)
  return found.status === null ? all : all.filter((conversion) => conversion.status === found.status)
}

const filterOf = (params: URLSearchParams): Filter => Object.fromEntries(FILTERS.map((name) => [name, (params.get(name) ?? '').trim().slice(0, 254)])) as Filter

/** The conversions the page lists for the filters in the form, every page of them, as a CSV download. */
export async function exportConversions(context: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const filter = filterOf(form)
  const conversions = await allMatching(context, filter)
  const affiliates = await affiliatesOf(context.program, conversions)
  const emails = new Map([...affiliates].map(([id, affiliate]) => [id, affiliate?.email ?? null]))
  const stamp = (context.program.clock?.now() ?? new Date()).toISOString().slice(0, 10)
  const filters = FILTERS.filter((name) => filter[name] !== '').map((name) => `${name} ${filter[name]}`).join(', ')
  await context.audit('conversions.export', null, `${conversions.length} rows${filters === '' ? '' : `, ${filters}`}`)
  return { download: { filename: `conversions-${stamp}.csv`, contentType: 'text/csv; charset=utf-8', body: conversionsCsv(conversions, emails) } }
}

export async function conversionsPage(context: AdminRequest): Promise<AdminResult> {
  const { program, url, paths, csrf } = context
  const filter = filterOf(url.searchParams)
  const page = pageNumber(url)
  let list: { items: ConversionView[]; total: number }
  try {
    if (page === null) throw new ValidationError('page', 'The page number must be a whole number from 1.')
    list = await matching(context, filter, page)
  } catch (error) {
    const refusal = formRefusal(error)
    if (!refusal) throw error
    return { title: 'Conversions', status: refusal.status, body: html`<h1>Conversions</h1><p class="error" role="alert">${refusal.message}</p>${filterForm(context, filter)}` }
  }
  const affiliates = await affiliatesOf(program, list.items)
  const query = new URLSearchParams(FILTERS.filter((name) => filter[name] !== '').map((name) => [name, filter[name]])).toString()
  const body = html`<h1>Conversions</h1>
${filterForm(context, filter)}
<section class="card">
${
  list.items.length === 0
    ? html`<p class="muted">No conversion matches.</p>`
    : html`<div class="table-wrap"><table>
<caption class="skip">Conversions, newest first</caption>
<thead><tr><th scope="col">Conversion</th><th scope="col">Date</th><th scope="col">Affiliate</th><th scope="col">Type</th><th scope="col">Customer</th><th scope="col" class="num">Sale</th><th scope="col" class="num">Commission</th><th scope="col">Status</th><th scope="col">Paid</th></tr></thead>
<tbody>${list.items.map(
        (conversion) => html`<tr data-conversion="${conversion.id}"><td><a href="${paths.conversion(conversion.id)}">#${conversion.id}</a></td><td>${day(conversion.createdAt)}</td><td>${affiliates.get(conversion.affiliateId)?.email ?? `#${conversion.affiliateId}`}</td><td>${conversion.type}</td><td>${conversion.customerEmail ?? ''}</td><td class="num">${conversion.baseValue === null ? '' : money(conversion.baseValue, conversion.baseValueCurrency ?? conversion.currency)}</td><td class="num">${money(conversion.value, conversion.currency)}</td><td>${conversionStatus(conversion)}</td><td>${conversion.paid ? 'Yes' : 'No'}</td></tr>`,
      )}</tbody>
</table></div>`
}
<div class="table-foot"><p class="muted">${list.total} conversion${list.total === 1 ? '' : 's'}.</p>
${
  list.total === 0
    ? null
    : html`<form method="post" action="${paths.conversionsExport}"><input type="hidden" name="csrf" value="${csrf}">${FILTERS.map(
        (name) => html`<input type="hidden" name="${name}" value="${filter[name]}">`,
      )}<button type="submit" class="secondary">Export CSV</button></form>`
}</div>
${pager(query ? `${paths.conversions}?${query}` : paths.conversions, page!, PER_PAGE, list.total, 'Conversions')}
</section>`
  return { title: 'Conversions', body }
}

/** `a - b` of two decimal amounts of `currency`, exactly. */
function difference(a: string, b: string, currency: string): string {
  const digits = minorDigits(currency)
  return formatMoney(parseMoney(a, digits, 'amount') - parseMoney(b, digits, 'amount'), digits)
}

/** What of the sale amount can still be refunded, in the sale's currency; null without a sale amount. */
function refundable(conversion: ConversionView): string | null {
  return conversion.baseValue === null ? null : difference(conversion.baseValue, conversion.refundedBaseValue, conversion.baseValueCurrency ?? conversion.currency)
}

interface RefundForm {
  amount: string
  reason: string
  refusal: Refusal | null
}

function conversionBody({ paths, csrf, url }: AdminRequest, conversion: ConversionView, affiliateEmail: string | null, form: RefundForm): Html {
  const saleCurrency = conversion.baseValueCurrency ?? conversion.currency
  const remaining = refundable(conversion)
  const row = (label: string, value: Html | string) => html`<tr><th scope="row">${label}</th><td>${value}</td></tr>`
  const final = conversion.status === 'refunded' || conversion.status === 'rejected'
  return html`<h1>Conversion #${conversion.id}</h1>
${url.searchParams.has('refunded') ? html`<p class="notice" role="status">The refund is saved.</p>` : null}
<section class="card"><table>
<caption class="skip">Conversion #${conversion.id}</caption>
${row('Date', day(conversion.createdAt))}
${row('Affiliate', html`<a href="${paths.affiliate(conversion.affiliateId)}">${affiliateEmail ?? `#${conversion.affiliateId}`}</a>`)}
${row('Customer', conversion.customerEmail ?? '')}
${row('Type', conversion.type)}
${row('Reference', conversion.reference ?? '')}
${row('Sale amount', conversion.baseValue === null ? 'none' : money(conversion.baseValue, saleCurrency))}
${row('Refunded', money(conversion.refundedBaseValue, saleCurrency))}
${row('Product', conversion.productId ?? 'none')}
${row('Commission', money(conversion.value, conversion.currency))}
${row('Rule', commissionRule(conversion, conversion.currency))}
${row('Status', conversionStatus(conversion))}
${row('On hold until', day(conversion.holdUntil))}
${row('Paid', conversion.paid ? 'Yes' : 'No')}
${conversion.refundReason ? row('Refund reason', conversion.refundReason) : null}
${conversion.reviewReason ? row(conversion.status === 'rejected' ? 'Rejected because' : 'Held because', conversion.reviewReason) : null}
</table></section>
${form.refusal ? html`<p class="error" role="alert" id="refund-error">${form.refusal.message}</p><p>Nothing was changed.</p>` : null}
${
  final
    ? html`<p class="muted">This conversion is ${conversion.status}: its status and amounts are final.</p>`
    : html`<section class="card" aria-labelledby="refund-title">
<h2 id="refund-title">Refund</h2>
<form method="post" action="${paths.conversionRefund(conversion.id)}">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="seen_refunded" value="${conversion.refundedBaseValue}">
<label for="refund-amount">Amount to refund (${saleCurrency})</label>
<input id="refund-amount" name="amount" inputmode="decimal" value="${form.amount}" aria-describedby="refund-hint${form.refusal ? ' refund-error' : ''}"${form.refusal ? html` aria-invalid="true"` : null}>
<p id="refund-hint" class="muted">${
        remaining === null
          ? 'This conversion has no sale amount: leave the amount empty to refund it in full.'
          : `Leave empty to refund all that remains (${money(remaining, saleCurrency)}); a part lowers the commission in proportion.`
      }${conversion.paid ? ' It is paid: a refund in full is taken back from the next payout.' : ''}</p>
<label for="refund-reason">Reason (optional)</label>
<input id="refund-reason" name="reason" maxlength="500" value="${form.reason}">
<div class="actions"><button type="submit">Refund</button></div>
</form>
</section>`
}
<p><a href="${paths.conversions}">Back to conversions</a></p>`
}

async function affiliateEmailOf({ program }: AdminRequest, conversion: ConversionView): Promise<string | null> {
  return (await affiliatesOf(program, [conversion])).get(conversion.affiliateId)?.email ?? null
}

export async function conversionPage(context: AdminRequest, id: number): Promise<AdminResult> {
  const conversion = await context.program.conversions.get(id)
  const body = conversionBody(context, conversion, await affiliateEmailOf(context, conversion), { amount: '', reason: '', refusal: null })
  return { title: `Conversion #${id}`, body }
}

/** A refund in full (empty amount: status refunded) or of part of the sale amount (refundAmount), as the API takes them. */
export async function refundConversion(context: AdminRequest, id: number, form: URLSearchParams): Promise<AdminResult> {
  const { program, paths, changes } = context
  const amount = (form.get('amount') ?? '').trim()
  const reason = (form.get('reason') ?? '').trim()
  try {
    await changes(async (change) => {
      const before = await change.program.conversions.get(id)
      // A page shown before another refund (a second tab, a resubmitted form) must not refund twice.
      if (form.get('seen_refunded') !== before.refundedBaseValue) throw new ConflictError('This conversion was refunded since the page was shown; check the amounts below and try again.')
      const after = await change.program.conversions.update(id, { ...(amount === '' ? { status: 'refunded' as const } : { refundAmount: amount }), ...(reason === '' ? {} : { reason }) })
      const currency = before.baseValueCurrency ?? before.currency
      const refunded = money(difference(after.refundedBaseValue, before.refundedBaseValue, currency), currency)
      await change.audit('conversion.refund', `conversion:${id}`, `${refunded}${after.status === 'refunded' ? ', in full' : ''}${reason === '' ? '' : `: ${reason}`}`)
    })
  } catch (error) {
    const refusal = formRefusal(error)
    if (!refusal) throw error
    const now = await program.conversions.get(id)
    const body = conversionBody(context, now, await affiliateEmailOf(context, now), { amount, reason, refusal })
    return { title: `Conversion #${id}`, status: refusal.status, body }
  }
  return { redirect: `${paths.conversion(id)}?refunded=1` }
}
