// Tax details (docs/tax-details.md): legal name, country, W-9 or W-8BEN and the tax id, asked for
// when the program requires them before paying (payouts.requireTaxDetails). The tax id is never
// shown back: only its last four characters; a bad value shows the form again with the reason.
import { NotFoundError, ValidationError } from '../../core/model/errors.js'
import type { TaxDetailsView } from '../../core/affiliates/tax-details.js'
import type { TaxFormType } from '../../core/model/types.js'
import { html } from '../../web/html.js'
import { day } from '../../web/format.js'
import type { PageResult, SignedInRequest } from '../page.js'

const FIELD_LABELS: Record<string, string> = { legalName: 'Legal name', country: 'Country', formType: 'Form', taxId: 'Tax id' }
const FORMS: Array<[TaxFormType, string]> = [
  ['W-9', 'W-9 (US person: SSN or EIN)'],
  ['W-8BEN', 'W-8BEN (outside the US: foreign tax id)'],
]

interface FormValues {
  legalName: string
  country: string
  formType: string
}

async function requireTaxPage(context: SignedInRequest): Promise<void> {
  if (!(await context.program.settings()).payouts?.requireTaxDetails) throw new NotFoundError('this program does not collect tax details')
}

function taxForm({ paths, csrf }: SignedInRequest, current: TaxDetailsView | null, values: FormValues, message: { error?: string; saved?: boolean }): PageResult {
  const body = html`<h1>Tax details</h1>
${message.saved ? html`<p class="notice" role="status">Your tax details are saved.</p>` : null}
${message.error ? html`<p class="error" role="alert" id="tax-error">${message.error}</p>` : null}
<section class="card">
<h2>On file</h2>
${
  current
    ? html`<dl><dt>Legal name</dt><dd>${current.legalName}</dd><dt>Country</dt><dd>${current.country}</dd><dt>Form</dt><dd>${current.formType}</dd><dt>Tax id</dt><dd data-tax-id>${current.taxIdMasked}</dd><dt>Saved</dt><dd>${day(current.updatedAt)}</dd></dl>`
    : html`<p>No tax details yet. The program pays you once they are on file.</p>`
}
</section>
<section class="card">
<h2>${current ? 'Change your tax details' : 'Add your tax details'}</h2>
<form method="post" action="${paths.tax}">
<input type="hidden" name="csrf" value="${csrf}">
<label for="legal-name">Legal name</label>
<input id="legal-name" name="legal_name" required maxlength="200" autocomplete="name" value="${values.legalName}">
<label for="country">Country</label>
<input id="country" name="country" required maxlength="2" autocomplete="country" value="${values.country}" aria-describedby="country-hint">
<p id="country-hint" class="muted">Two-letter code, such as US, DE or GB.</p>
<label for="form-type">Form</label>
<select id="form-type" name="form_type">${FORMS.map(([value, label]) => html`<option value="${value}"${values.formType === value ? html` selected` : null}>${label}</option>`)}</select>
<label for="tax-id">Tax id</label>
<input id="tax-id" name="tax_id" required autocomplete="off" spellcheck="false" aria-describedby="tax-id-hint">
<p id="tax-id-hint" class="muted">Stored encrypted; shown only by its last four characters.</p>
<div class="actions"><button type="submit">Save tax details</button></div>
</form>
</section>`
  return { title: 'Tax details', body, ...(message.error ? { status: 400 } : {}) }
}

export async function taxDetailsPage(context: SignedInRequest): Promise<PageResult> {
  await requireTaxPage(context)
  const current = await context.program.taxDetails.get(context.affiliate.id)
  const values = { legalName: current?.legalName ?? context.affiliate.name ?? '', country: current?.country ?? '', formType: current?.formType ?? 'W-9' }
  return taxForm(context, current, values, { saved: context.url.searchParams.get('saved') === '1' })
}

export async function saveTaxDetails(context: SignedInRequest, form: URLSearchParams): Promise<PageResult> {
  await requireTaxPage(context)
  const values: FormValues = { legalName: (form.get('legal_name') ?? '').trim(), country: (form.get('country') ?? '').trim(), formType: form.get('form_type') ?? '' }
  try {
    await context.program.taxDetails.set(context.affiliate.id, { ...values, formType: values.formType as TaxFormType, taxId: form.get('tax_id') ?? '' })
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    const current = await context.program.taxDetails.get(context.affiliate.id)
    return taxForm(context, current, values, { error: error.describe((field) => FIELD_LABELS[field] ?? field) })
  }
  return { redirect: `${context.paths.tax}?saved=1` }
}
