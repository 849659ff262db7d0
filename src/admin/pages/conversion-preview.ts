// "What would this earn?": the console's form over conversions.preview, which answers what a
// conversion would earn (affiliate, rule, rate, exchange rate, value, status, hold end) as
// POST /conversions/preview does, writing nothing (docs/commissions.md "Preview"). A GET form:
// it changes nothing, so it needs no CSRF token, and its answer can be linked to.
import type { ConversionPreview } from '../../core/conversions/conversion-create.js'
import type { CreateConversionInput } from '../../core/model/schemas.js'
import { html, type Html } from '../../web/html.js'
import { commissionRule, day, money } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'
import { NotFoundError } from '../../core/model/errors.js'
import { formRefusal, refusalOf, type Refusal } from '../refusal.js'

const FIELDS = ['affiliate', 'email', 'type', 'amount', 'currency', 'product', 'value'] as const
type Values = Record<(typeof FIELDS)[number], string>

/** The preview's input from the form: an affiliate by id or referral code, or none (found by the customer's email). */
function inputOf(values: Values): CreateConversionInput {
  const affiliate = values.affiliate
  return {
    type: values.type === 'signup' ? 'signup' : 'purchase',
    ...(affiliate === '' ? {} : /^[1-9][0-9]{0,14}$/.test(affiliate) ? { affiliateId: Number(affiliate) } : { referralCode: affiliate }),
    ...(values.email === '' ? {} : { email: values.email }),
    ...(values.amount === '' ? {} : { baseValue: values.amount }),
    ...(values.currency === '' ? {} : { baseValueCurrency: values.currency }),
    ...(values.product === '' ? {} : { productId: values.product }),
    ...(values.value === '' ? {} : { value: values.value }),
  }
}

function answer(preview: ConversionPreview): Html {
  const row = (label: string, value: Html | string) => html`<tr><th scope="row">${label}</th><td>${value}</td></tr>`
  return html`<section class="card" aria-labelledby="preview-title"><h2 id="preview-title">It would earn ${money(preview.value, preview.currency)}</h2>
<table><caption class="skip">What this conversion would earn</caption>
${row('Affiliate', `#${preview.affiliateId} (matched by ${preview.matchedBy.replace('_', ' ')})`)}
${row('Rule', commissionRule({ ruleSource: preview.ruleSource, basis: preview.basis, commissionRate: preview.rate, commissionAmount: preview.amount }, preview.currency))}
${row('Product', preview.productId ?? 'none')}
${row('Sale amount', preview.baseValue === null ? 'none' : money(preview.baseValue, preview.baseValueCurrency))}
${row('Exchange rate', preview.fxRate)}
${row('Status', preview.status)}
${row('On hold until', day(preview.holdUntil))}
${preview.tier2 ? row('Parent affiliate (tier 2)', `#${preview.tier2.affiliateId}: ${money(preview.tier2.value, preview.currency)}`) : null}
</table><p class="muted">Nothing was recorded.</p></section>`
}

function body({ paths }: AdminRequest, values: Values, result: ConversionPreview | null, refusal: Refusal | null): Html {
  const input = (field: keyof Values, label: string, extra: Html | null = null) =>
    html`<label for="preview-${field}">${label}</label><input id="preview-${field}" name="${field}" value="${values[field]}"${refusal?.field && refusal.field === fieldOf(field) ? html` aria-invalid="true" aria-describedby="preview-error"` : null}${extra}>`
  return html`<h1>What would this earn?</h1>
<p>The commission a conversion would earn under today's rules, as <code>POST /conversions/preview</code> answers it. Nothing is recorded.</p>
<form class="card" method="get" action="${paths.conversionPreview}">
${input('affiliate', 'Affiliate (id or referral code; empty: found by the customer)')}
${input('email', 'Customer email', html` type="email"`)}
<label for="preview-type">Type</label><select id="preview-type" name="type"><option value="purchase"${values.type !== 'signup' ? html` selected` : null}>purchase</option><option value="signup"${values.type === 'signup' ? html` selected` : null}>signup</option></select>
${input('amount', 'Sale amount', html` inputmode="decimal"`)}
${input('currency', 'Sale currency (empty: the program currency)', html` maxlength="3"`)}
${input('product', 'Product id')}
${input('value', 'Explicit commission (empty: by the rules)', html` inputmode="decimal"`)}
<div class="actions"><button type="submit">Preview</button></div>
</form>
${refusal ? html`<p class="error" role="alert" id="preview-error">${refusal.message}</p>` : null}
${result ? answer(result) : null}
<p><a href="${paths.conversions}">Back to conversions</a></p>`
}

/** The core's field a form field feeds. */
function fieldOf(field: keyof Values): string {
  return { affiliate: 'referralCode', email: 'email', type: 'type', amount: 'baseValue', currency: 'baseValueCurrency', product: 'productId', value: 'value' }[field]
}

export async function conversionPreviewPage(context: AdminRequest): Promise<AdminResult> {
  const params = context.url.searchParams
  const values = Object.fromEntries(FIELDS.map((field) => [field, (params.get(field) ?? '').trim().slice(0, 255)])) as Values
  if (!params.has('type')) return { title: 'What would this earn?', body: body(context, values, null, null) }
  try {
    const preview = await context.program.conversions.preview(inputOf(values))
    return { title: 'What would this earn?', body: body(context, values, preview, null) }
  } catch (error) {
    // Not found (no such affiliate or customer) is an answer here, not a missing page.
    const refusal = formRefusal(error) ?? (error instanceof NotFoundError ? refusalOf(error) : null)
    if (!refusal) throw error
    return { title: 'What would this earn?', status: refusal.status, body: body(context, values, null, refusal) }
  }
}
