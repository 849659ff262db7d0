// Coupons: every coupon code with its affiliate and discount, filtered by status and affiliate;
// create one for an affiliate, turn one off (or on again) through coupons.create and
// coupons.update, as POST and PUT /coupons do. A turned-off coupon no longer attributes a sale.
import { NotFoundError, ValidationError } from '../../core/model/errors.js'
import type { CouponView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import { pageNumber, pager } from '../../web/pager.js'
import { day } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { formRefusal, type Refusal } from '../refusal.js'

const PER_PAGE = 50
const STATUSES = ['active', 'inactive'] as const
type CouponStatus = (typeof STATUSES)[number]
const DISCOUNT_TYPES: Array<[string, string]> = [
  ['', 'No discount noted'],
  ['percentage', 'Percentage off'],
  ['fixed', 'Fixed amount off'],
]
const CREATE_FIELDS = ['code', 'affiliate', 'discountType', 'discountValue', 'processorCouponId'] as const
type CreateValues = Record<(typeof CREATE_FIELDS)[number], string>
const NO_VALUES: CreateValues = { code: '', affiliate: '', discountType: '', discountValue: '', processorCouponId: '' }

interface Filter {
  status: string
  affiliate: string
}

/** The affiliate named by an email or an id; a ValidationError on `field` when there is none. */
async function affiliateIdOf({ program }: AdminRequest, ref: string, field: string): Promise<number> {
  try {
    return (await program.affiliates.get(/^[1-9][0-9]{0,14}$/.test(ref) ? Number(ref) : ref)).id
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ValidationError) throw new ValidationError(field, 'no affiliate has this email or id')
    throw error
  }
}

async function listed(context: AdminRequest, filter: Filter, page: number): Promise<{ items: CouponView[]; total: number }> {
  const status = STATUSES.find((candidate) => candidate === filter.status)
  if (filter.status !== '' && status === undefined) throw new ValidationError('status', 'status must be active or inactive')
  const affiliateId = filter.affiliate === '' ? undefined : await affiliateIdOf(context, filter.affiliate, 'affiliate')
  return context.program.coupons.list({ limit: PER_PAGE, offset: (page - 1) * PER_PAGE, ...(status ? { status } : {}), ...(affiliateId ? { affiliateId } : {}) })
}

function filterForm({ paths }: AdminRequest, filter: Filter): Html {
  return html`<form class="card filters" method="get" action="${paths.coupons}" role="search" aria-label="Filter coupons">
<div class="field"><label for="filter-status">Status</label><select id="filter-status" name="status"><option value="">Any status</option>${STATUSES.map(
    (value) => html`<option value="${value}"${filter.status === value ? html` selected` : null}>${value}</option>`,
  )}</select></div>
<div class="field grow"><label for="filter-affiliate">Affiliate (email or id)</label><input id="filter-affiliate" name="affiliate" value="${filter.affiliate}"></div>
<div class="actions"><button type="submit">Filter</button> <a href="${paths.coupons}">Clear filters</a></div>
</form>`
}

const discountOf = (coupon: CouponView): string =>
  coupon.discountValue === null ? '' : coupon.discountType === 'percentage' ? `${coupon.discountValue}% off` : coupon.discountType === 'fixed' ? `${coupon.discountValue} off` : coupon.discountValue

function createForm({ paths, csrf }: AdminRequest, values: CreateValues, refusal: Refusal | null): Html {
  const attributes = (field: string) => (field === refusal?.field ? html` aria-invalid="true" aria-describedby="coupon-error"` : null)
  return html`<section class="card" aria-labelledby="create-coupon-title">
<h2 id="create-coupon-title">Create a coupon</h2>
${refusal ? html`<p class="error" role="alert" id="coupon-error">${refusal.message}</p><p>Nothing was changed.</p>` : null}
<form method="post" action="${paths.coupons}">
<input type="hidden" name="csrf" value="${csrf}">
<div class="form-grid">
<div><label for="coupon-code">Code</label><input id="coupon-code" name="code" required value="${values.code}"${attributes('code')}></div>
<div><label for="coupon-affiliate">Affiliate (email or id)</label><input id="coupon-affiliate" name="affiliate" required value="${values.affiliate}"${attributes('affiliate')}></div>
<div><label for="coupon-type">Discount</label><select id="coupon-type" name="discountType"${attributes('discountType')}>${DISCOUNT_TYPES.map(
    ([value, text]) => html`<option value="${value}"${values.discountType === value ? html` selected` : null}>${text}</option>`,
  )}</select></div>
<div><label for="coupon-value">Discount value (optional)</label><input id="coupon-value" name="discountValue" maxlength="50" value="${values.discountValue}"${attributes('discountValue')}></div>
<div><label for="coupon-processor">Provider's coupon id (optional)</label><input id="coupon-processor" name="processorCouponId" maxlength="255" value="${values.processorCouponId}"${attributes('processorCouponId')}></div>
</div>
<p class="muted">A sale made with an active coupon is credited to its affiliate. The discount itself is given by your checkout; it is noted here for the affiliate's portal.</p>
<div class="actions"><button type="submit">Create coupon</button></div>
</form>
</section>`
}

async function couponsBody(context: AdminRequest, values: CreateValues, refusal: Refusal | null): Promise<{ body: Html; status: number }> {
  const { url, paths, csrf } = context
  const filter: Filter = { status: (url.searchParams.get('status') ?? '').trim(), affiliate: (url.searchParams.get('affiliate') ?? '').trim().slice(0, 254) }
  const page = pageNumber(url)
  let list: { items: CouponView[]; total: number }
  try {
    if (page === null) throw new ValidationError('page', 'The page number must be a whole number from 1.')
    list = await listed(context, filter, page)
  } catch (error) {
    const listRefusal = formRefusal(error)
    if (!listRefusal) throw error
    return { status: listRefusal.status, body: html`<h1>Coupons</h1><p class="error" role="alert">${listRefusal.message}</p>${filterForm(context, filter)}` }
  }
  const query = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== '')).toString()
  const toggle = (coupon: CouponView) => {
    const next: CouponStatus = coupon.status === 'active' ? 'inactive' : 'active'
    const label = next === 'inactive' ? 'Turn off' : 'Turn on'
    return html`<form class="inline" method="post" action="${paths.couponStatus(coupon.id)}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="status" value="${next}"><button type="submit" class="secondary" aria-label="${label} coupon ${coupon.code}">${label}</button></form>`
  }
  const changed = url.searchParams.get('changed')
  const body = html`<h1>Coupons</h1>
${url.searchParams.has('created') ? html`<p class="notice" role="status">The coupon is created.</p>` : null}
${changed === 'inactive' ? html`<p class="notice" role="status">The coupon is turned off: it no longer credits sales.</p>` : changed === 'active' ? html`<p class="notice" role="status">The coupon is turned on again.</p>` : null}
${filterForm(context, filter)}
<section class="card">
${
  list.items.length === 0
    ? html`<p class="muted">${query === '' ? 'No coupons yet: create one below.' : 'No coupon matches.'}</p>`
    : html`<div class="table-wrap"><table>
<caption class="skip">Coupons</caption>
<thead><tr><th scope="col">Code</th><th scope="col">Affiliate</th><th scope="col">Discount</th><th scope="col">Provider's id</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Actions</th></tr></thead>
<tbody>${list.items.map(
        (coupon) => html`<tr data-coupon="${coupon.code}"><td><strong>${coupon.code}</strong></td><td>${coupon.affiliateEmail ? html`<a href="${paths.affiliate(coupon.affiliateId)}">${coupon.affiliateEmail}</a>` : `#${coupon.affiliateId}`}</td><td>${discountOf(coupon)}</td><td>${coupon.processorCouponId ?? ''}</td><td><span class="badge" data-status="${coupon.status}">${coupon.status}</span></td><td>${day(coupon.createdAt)}</td><td>${toggle(coupon)}</td></tr>`,
      )}</tbody>
</table></div>`
}
<p class="muted">${list.total} coupon${list.total === 1 ? '' : 's'}.</p>
${pager(query ? `${paths.coupons}?${query}` : paths.coupons, page!, PER_PAGE, list.total, 'Coupons')}
</section>
${createForm(context, values, refusal)}`
  return { body, status: refusal?.status ?? 200 }
}

export async function couponsPage(context: AdminRequest): Promise<AdminResult> {
  const { body, status } = await couponsBody(context, NO_VALUES, null)
  return { title: 'Coupons', body, status }
}

export async function createCoupon(context: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const values = Object.fromEntries(CREATE_FIELDS.map((field) => [field, (form.get(field) ?? '').trim()])) as CreateValues
  let created: CouponView
  try {
    if (!DISCOUNT_TYPES.some(([value]) => value === values.discountType)) throw new ValidationError('discountType', 'choose a kind of discount')
    created = await context.changes(async (change) => {
      const affiliateId = await affiliateIdOf(change, values.affiliate, 'affiliate')
      const coupon = await change.program.coupons.create({
        affiliateId,
        code: values.code,
        ...(values.discountType === '' ? {} : { discountType: values.discountType }),
        ...(values.discountValue === '' ? {} : { discountValue: values.discountValue }),
        ...(values.processorCouponId === '' ? {} : { processorCouponId: values.processorCouponId }),
      })
      await change.audit('coupon.create', `coupon:${coupon.id}`, `${coupon.code} for ${coupon.affiliateEmail ?? `affiliate #${coupon.affiliateId}`}`)
      return coupon
    })
  } catch (error) {
    const refusal = formRefusal(error)
    if (!refusal) throw error
    const { body } = await couponsBody(context, values, refusal)
    return { title: 'Coupons', status: refusal.status, body }
  }
  return { redirect: `${context.paths.coupons}?created=1` }
}

export async function changeCouponStatus({ paths, changes }: AdminRequest, id: number, form: URLSearchParams): Promise<AdminResult> {
  const next = STATUSES.find((candidate) => candidate === form.get('status'))
  if (next === undefined) throw new ValidationError('status', 'status must be active or inactive')
  await changes(async ({ program, audit }) => {
    const before = await program.coupons.get(id)
    if (before.status === next) return
    await program.coupons.update(id, { status: next })
    await audit(next === 'inactive' ? 'coupon.deactivate' : 'coupon.activate', `coupon:${id}`, before.code)
  })
  return { redirect: `${paths.coupons}?changed=${next}` }
}
