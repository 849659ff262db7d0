// One affiliate's edit form: name, email, referral code, status, sub-program, language, payout preference
// (PayPal email, Wise details), payment notes and its own commission rules (JSON, the settings'
// `commission` form: docs/commissions.md "Per-affiliate rules"), saved through affiliates.update as the API's
// update routes do. Only the fields that changed are sent; refused input is shown again as typed.
// Its links are listed and created below the form (affiliate-links.ts).
import { tierCard } from '../../web/tier-progress.js'
import { ValidationError } from '../../core/model/errors.js'
import { LANGUAGES, LOCALES } from '../../core/model/i18n/locales.js'
import type { UpdateAffiliateInput } from '../../core/model/schemas.js'
import type { AffiliateView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import { applicationSection } from './applications.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { formRefusal, type Refusal } from '../refusal.js'
import { portalLinkSection } from './portal-link.js'
import { linksSection, NO_LINK_VALUES, type LinkFormState } from './affiliate-links.js'
import type { TaxDetailsView } from '../../core/affiliates/tax-details.js'

const FIELDS = ['name', 'email', 'referralCode', 'status', 'partnerSlug', 'payoutMethod', 'paypalEmail', 'wiseAccountId', 'wiseEmail', 'paymentMethod', 'paymentDetails', 'locale', 'commission'] as const
type Field = (typeof FIELDS)[number]
type Values = Record<Field, string>
/** The form field of each of the core's Wise fields. */
const WISE_FIELDS: Record<string, Field> = { wiseDetails: 'wiseAccountId', 'wiseDetails.accountId': 'wiseAccountId', 'wiseDetails.email': 'wiseEmail' }

function valuesOf(affiliate: AffiliateView): Values {
  return {
    name: affiliate.name ?? '',
    email: affiliate.email,
    referralCode: affiliate.referralCode,
    status: affiliate.status,
    partnerSlug: affiliate.partnerSlug ?? '',
    payoutMethod: affiliate.payoutMethod ?? '',
    paypalEmail: affiliate.paypalEmail ?? '',
    wiseAccountId: affiliate.wiseDetails?.accountId ?? '',
    wiseEmail: affiliate.wiseDetails?.email ?? '',
    paymentMethod: affiliate.paymentMethod ?? '',
    paymentDetails: affiliate.paymentDetails ?? '',
    locale: affiliate.locale ?? '',
    commission: affiliate.commission === null ? '' : JSON.stringify(affiliate.commission, null, 2),
  }
}

/** The commission rules typed in the form: empty is none (the sub-program's or project's apply). */
function commissionOf(text: string): unknown {
  if (text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    throw new ValidationError('commission', 'commission: must be JSON, such as {"purchase": {"type": "percentage", "rate": 50}}')
  }
}

/** The update input as the core takes it: an emptied optional field is null. */
function inputOf(values: Values): Record<string, unknown> {
  const orNull = (value: string) => (value === '' ? null : value)
  const wise = values.wiseAccountId === '' && values.wiseEmail === '' ? null : { accountId: values.wiseAccountId, email: values.wiseEmail }
  return {
    name: orNull(values.name),
    email: values.email,
    referralCode: values.referralCode,
    status: values.status,
    partnerSlug: orNull(values.partnerSlug),
    payoutMethod: orNull(values.payoutMethod),
    paypalEmail: orNull(values.paypalEmail),
    wiseDetails: wise,
    paymentMethod: orNull(values.paymentMethod),
    paymentDetails: orNull(values.paymentDetails),
    locale: orNull(values.locale),
    commission: commissionOf(values.commission),
  }
}

/** The fields of `next` that differ from `current`. */
function changed(current: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(next).filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(current[field])))
}

function editBody(context: AdminRequest, affiliate: AffiliateView, values: Values, refusal: Refusal | null, taxDetails: TaxDetailsView | null, links: Html): Html {
  const { paths, csrf, url } = context
  const atFault = refusal?.field ? (WISE_FIELDS[refusal.field] ?? (refusal.field.startsWith('commission') ? 'commission' : refusal.field)) : null
  const attributes = (field: Field) => (field === atFault ? html` aria-invalid="true" aria-describedby="edit-error"` : null)
  const input = (field: Field, label: string, type = 'text', extra: Html | null = null) =>
    html`<label for="edit-${field}">${label}</label><input id="edit-${field}" name="${field}" type="${type}" value="${values[field]}"${attributes(field)}${extra}>`
  const select = (field: Field, label: string, options: Array<[string, string]>) =>
    html`<label for="edit-${field}">${label}</label><select id="edit-${field}" name="${field}"${attributes(field)}>${options.map(
      ([value, text]) => html`<option value="${value}"${values[field] === value ? html` selected` : null}>${text}</option>`,
    )}</select>`
  return html`<h1>Edit ${affiliate.email}</h1>
${url.searchParams.has('saved') ? html`<p class="notice" role="status">The affiliate is saved.</p>` : null}
${url.searchParams.has('erased') ? html`<p class="notice" role="status">The affiliate's personal data is erased; its amounts stay.</p>` : null}
${url.searchParams.has('created') ? html`<p class="notice" role="status">The affiliate is created. Their referral code is <strong>${affiliate.referralCode}</strong>.</p>` : null}
${refusal ? html`<p class="error" role="alert" id="edit-error">${refusal.message}</p><p>Nothing was changed.</p>` : null}
${tierCard(affiliate)}
<form class="card" method="post" action="${paths.affiliate(affiliate.id)}">
<input type="hidden" name="csrf" value="${csrf}">
<fieldset><legend>Affiliate</legend>
${input('name', 'Name', 'text', html` maxlength="200"`)}
${input('email', 'Email', 'email', html` required`)}
${input('referralCode', 'Referral code', 'text', html` required`)}
${select('status', 'Status', [['pending', 'pending'], ['active', 'active'], ['inactive', 'inactive'], ['blocked', 'blocked']])}
${input('partnerSlug', 'Sub-program (partner slug)')}
${select('locale', 'Language of the portal and emails', [['', 'the browser’s, else the program’s'], ...LOCALES.map((code): [string, string] => [code, LANGUAGES[code].name])])}
</fieldset>
<fieldset><legend>Payouts</legend>
${select('payoutMethod', 'Preferred payout method', [['', 'not chosen'], ['paypal', 'PayPal'], ['wise', 'Wise'], ['manual', 'Manual']])}
${input('paypalEmail', 'PayPal email', 'email')}
${input('wiseAccountId', 'Wise account id')}
${input('wiseEmail', 'Wise email', 'email')}
${input('paymentMethod', 'Payment method (free text)', 'text', html` maxlength="100"`)}
<label for="edit-paymentDetails">Payment details</label>
<textarea id="edit-paymentDetails" name="paymentDetails" maxlength="2000"${attributes('paymentDetails')}>${values.paymentDetails}</textarea>
</fieldset>
<fieldset><legend>Commission</legend>
<label for="edit-commission">Own commission rules (JSON)</label>
<textarea id="edit-commission" name="commission" rows="4" maxlength="20000" aria-describedby="edit-commission-hint"${attributes('commission')}>${values.commission}</textarea>
<p id="edit-commission-hint" class="muted hint">The settings' <code>commission</code> form, for example <code>{"purchase": {"type": "percentage", "rate": 50}}</code>. They win over the sub-program's and the project's rules, never over an excluded product. Empty: those rules apply.</p>
</fieldset>
<div class="actions"><button type="submit">Save</button> <a href="${paths.conversions}?affiliate=${affiliate.id}">Conversions of this affiliate</a></div>
</form>
${links}
${portalLinkSection(context, affiliate)}
${applicationSection(affiliate, context.fieldLabels)}
${taxSection(taxDetails)}
<section class="card" aria-labelledby="erase-title"><h2 id="erase-title">Personal data</h2>
<p><a href="${paths.affiliateErase(affiliate.id)}">Erase this affiliate's personal data</a> (GDPR; asks first).</p></section>
<p><a href="${paths.affiliates}">Back to affiliates</a></p>`
}

/** The newest links the affiliate page lists. */
const LINKS_SHOWN = 100

/** The links section of the affiliate's page, with its form as `linkForm` left it (empty by default). */
async function linksOf(context: AdminRequest, id: number, linkForm: LinkFormState = { values: NO_LINK_VALUES, refusal: null }): Promise<Html> {
  return linksSection(context, id, await context.program.links.list({ affiliate: id, limit: LINKS_SHOWN }), linkForm)
}

/** The affiliate's page; `linkForm`: a refused new link, shown again as typed (status of its refusal). */
export async function affiliateEditPage(context: AdminRequest, id: number, linkForm?: LinkFormState): Promise<AdminResult> {
  const affiliate = await context.program.affiliates.get(id)
  const body = editBody(context, affiliate, valuesOf(affiliate), null, await context.program.taxDetails.get(id), await linksOf(context, id, linkForm))
  return { title: `Edit ${affiliate.email}`, body, ...(linkForm?.refusal ? { status: linkForm.refusal.status } : {}) }
}

export async function saveAffiliate(context: AdminRequest, id: number, form: URLSearchParams): Promise<AdminResult> {
  const { program, paths, changes } = context
  const values = Object.fromEntries(FIELDS.map((field) => [field, (form.get(field) ?? '').trim()])) as Values
  // What the form changes is read, written and audit-logged in one transaction; a refusal shows the affiliate as it is.
  const refused = await changes(async (change) => {
    const affiliate = await change.program.affiliates.get(id)
    const fields = changed(inputOf(valuesOf(affiliate)), inputOf(values))
    if (Object.keys(fields).length === 0) return null
    // The core validates every field, as it does the API's bodies.
    await change.program.affiliates.update(id, fields as UpdateAffiliateInput)
    await change.audit('affiliate.update', `affiliate:${id}`, `${affiliate.email}: ${Object.keys(fields).join(', ')}`)
    return null
  }).catch((error: unknown) => {
    const refusal = formRefusal(error)
    if (!refusal) throw error
    return refusal
  })
  if (refused) {
    const affiliate = await program.affiliates.get(id)
    return { title: `Edit ${affiliate.email}`, status: refused.status, body: editBody(context, affiliate, values, refused, await program.taxDetails.get(id), await linksOf(context, id)) }
  }
  return { redirect: `${paths.affiliate(id)}?saved=1` }
}

/** The affiliate's tax details, the tax id masked (docs/tax-details.md); they enter them in the portal. */
function taxSection(taxDetails: TaxDetailsView | null): Html {
  return html`<section class="card" aria-labelledby="tax-title"><h2 id="tax-title">Tax details</h2>
${
  taxDetails
    ? html`<dl><dt>Legal name</dt><dd>${taxDetails.legalName}</dd><dt>Country</dt><dd>${taxDetails.country}</dd><dt>Form</dt><dd>${taxDetails.formType}</dd><dt>Tax id</dt><dd data-tax-id>${taxDetails.taxIdMasked}</dd></dl>`
    : html`<p class="muted">None on file. The affiliate enters them in the portal.</p>`
}
</section>`
}
