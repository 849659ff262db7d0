// Creating an affiliate: email, name, referral code (made up when left empty), status (active,
// or pending to approve later) and sub-program, through affiliates.create as POST /affiliates
// does. Refused input is shown again as typed; a created affiliate opens on its edit page.
import type { CreateAffiliateInput } from '../../core/model/schemas.js'
import { html, type Html } from '../../web/html.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { formRefusal, type Refusal } from '../refusal.js'

const FIELDS = ['email', 'name', 'referralCode', 'status', 'partnerSlug'] as const
type Field = (typeof FIELDS)[number]
type Values = Record<Field, string>

const EMPTY: Values = { email: '', name: '', referralCode: '', status: 'active', partnerSlug: '' }

function newBody({ paths, csrf }: AdminRequest, values: Values, refusal: Refusal | null): Html {
  const attributes = (field: Field) => (field === refusal?.field ? html` aria-invalid="true" aria-describedby="new-error"` : null)
  const input = (field: Field, label: string, type: string, extra: Html | null = null) =>
    html`<label for="new-${field}">${label}</label><input id="new-${field}" name="${field}" type="${type}" value="${values[field]}"${attributes(field)}${extra}>`
  return html`<h1>Add an affiliate</h1>
${refusal ? html`<p class="error" role="alert" id="new-error">${refusal.message}</p><p>Nothing was changed.</p>` : null}
<form class="card" method="post" action="${paths.affiliateNew}">
<input type="hidden" name="csrf" value="${csrf}">
${input('email', 'Email', 'email', html` required autocomplete="off"`)}
${input('name', 'Name (optional)', 'text', html` maxlength="200"`)}
${input('referralCode', 'Referral code (optional)', 'text', html` aria-describedby="new-code-hint"`)}
<p id="new-code-hint" class="muted">The code in their referral link. Left empty, a random one is made up.</p>
<label for="new-status">Status</label>
<select id="new-status" name="status"${attributes('status')}>${[
    ['active', 'Active: earns from now on'],
    ['pending', 'Pending: approve later'],
  ].map(([value, text]) => html`<option value="${value}"${values.status === value ? html` selected` : null}>${text}</option>`)}</select>
${input('partnerSlug', 'Sub-program (partner slug, optional)', 'text')}
<div class="actions"><button type="submit">Create affiliate</button> <a href="${paths.affiliates}">Cancel</a></div>
</form>`
}

export async function newAffiliatePage(context: AdminRequest): Promise<AdminResult> {
  return { title: 'Add an affiliate', body: newBody(context, EMPTY, null) }
}

export async function createAffiliate(context: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const { paths, changes } = context
  const values = Object.fromEntries(FIELDS.map((field) => [field, (form.get(field) ?? '').trim()])) as Values
  const input: CreateAffiliateInput = {
    email: values.email,
    status: values.status as CreateAffiliateInput['status'],
    ...(values.name === '' ? {} : { name: values.name }),
    ...(values.referralCode === '' ? {} : { referralCode: values.referralCode }),
    ...(values.partnerSlug === '' ? {} : { partnerSlug: values.partnerSlug }),
  }
  let created
  try {
    // The core validates every field (an email taken, a code taken, an unknown sub-program), as it does the API's bodies.
    created = await changes(async ({ program, audit }) => {
      const affiliate = await program.affiliates.create(input)
      await audit('affiliate.create', `affiliate:${affiliate.id}`, `${affiliate.email} (${affiliate.status}, code ${affiliate.referralCode})`)
      return affiliate
    })
  } catch (error) {
    const refusal = formRefusal(error)
    if (!refusal) throw error
    return { title: 'Add an affiliate', status: refusal.status, body: newBody(context, values, refusal) }
  }
  return { redirect: `${paths.affiliate(created.id)}?created=1` }
}
