// Settings: how the affiliate wants to be paid (method, PayPal email, Wise email, payment details),
// and their language and emails (docs/email.md "Preferences"), saved through the same validation as
// the API; a bad value shows the form again with the reason.
import { ValidationError } from '../../core/model/errors.js'
import type { UpdateAffiliateInput } from '../../core/model/schemas.js'
import type { AffiliateView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import { LANGUAGES, LOCALES, type Locale } from '../../core/model/i18n/locales.js'
import { OPTIONAL_TOPICS, type MailTopic } from '../../core/model/mail-kinds.js'
import type { PageResult, SignedInRequest } from '../page.js'

const METHODS = [
  ['', 'Not chosen'],
  ['paypal', 'PayPal'],
  ['wise', 'Wise'],
  ['manual', 'Other (see payment details)'],
] as const

const FIELD_LABELS: Record<string, string> = {
  payoutMethod: 'Payout method',
  paypalEmail: 'PayPal email',
  wiseDetails: 'Wise email',
  'wiseDetails.email': 'Wise email',
  paymentDetails: 'Payment details',
  locale: 'Language',
}

interface FormValues {
  payoutMethod: string
  paypalEmail: string
  wiseEmail: string
  paymentDetails: string
  /** '' for the browser's language. */
  locale: string
  /** The optional topics turned off. */
  emailOptOut: MailTopic[]
}

/** The language and email section, in the page's language. */
function emailSection({ t, locale }: SignedInRequest, values: FormValues): Html {
  const box = (topic: MailTopic, id: string, label: string) =>
    html`<p><input type="checkbox" id="${id}" name="email_${topic}" value="on"${values.emailOptOut.includes(topic) ? null : html` checked`}> <label for="${id}">${label}</label></p>`
  return html`<h2 lang="${locale}">${t('portal.settings.emails')}</h2>
<div lang="${locale}">
<label for="locale">${t('portal.settings.language')}</label>
<select id="locale" name="locale"><option value="">${t('portal.settings.language_auto')}</option>${LOCALES.map(
    (code) => html`<option value="${code}" lang="${code}"${values.locale === code ? html` selected` : null}>${LANGUAGES[code].name}</option>`,
  )}</select>
<input type="hidden" name="email_preferences" value="1">
${box('commissions', 'email-commissions', t('portal.settings.email_commissions'))}
${box('summary', 'email-summary', t('portal.settings.email_summary'))}
<p class="muted">${t('portal.settings.emails_hint')}</p>
</div>`
}

function settingsForm(context: SignedInRequest, values: FormValues, message: { error?: string; saved?: boolean }, taxDetails: boolean): PageResult {
  const { paths, csrf } = context
  const body = html`<h1>Settings</h1>
${message.saved ? html`<p class="notice" role="status">Your payout settings are saved.</p>` : null}
${message.error ? html`<p class="error" role="alert" id="settings-error">${message.error}</p>` : null}
<section class="card">
<h2>How you get paid</h2>
<form method="post" action="${paths.settings}">
<input type="hidden" name="csrf" value="${csrf}">
<label for="payout-method">Payout method</label>
<select id="payout-method" name="payout_method">${METHODS.map(
    ([value, label]) => html`<option value="${value}"${values.payoutMethod === value ? html` selected` : null}>${label}</option>`,
  )}</select>
<label for="paypal-email">PayPal email</label>
<input id="paypal-email" name="paypal_email" type="email" autocomplete="email" value="${values.paypalEmail}" aria-describedby="paypal-hint">
<p id="paypal-hint" class="muted">Needed when the payout method is PayPal.</p>
<label for="wise-email">Wise email</label>
<input id="wise-email" name="wise_email" type="email" autocomplete="email" value="${values.wiseEmail}" aria-describedby="wise-hint">
<p id="wise-hint" class="muted">Where Wise sends your money when the payout method is Wise; your sign-in email when left empty.</p>
<label for="payment-details">Payment details</label>
<textarea id="payment-details" name="payment_details" maxlength="2000" aria-describedby="details-hint">${values.paymentDetails}</textarea>
<p id="details-hint" class="muted">Anything the program needs to pay you, such as bank details.</p>
${emailSection(context, values)}
<div class="actions"><button type="submit">Save settings</button></div>
</form>
</section>
${taxDetails ? html`<section class="card"><h2>Tax details</h2><p>This program needs your tax details before it pays you. <a href="${paths.tax}">Your tax details</a></p></section>` : null}`
  return { title: 'Settings', body, ...(message.error ? { status: 400 } : {}) }
}

const valuesOf = (affiliate: AffiliateView): FormValues => ({
  payoutMethod: affiliate.payoutMethod ?? '',
  paypalEmail: affiliate.paypalEmail ?? '',
  wiseEmail: affiliate.wiseDetails?.email ?? '',
  paymentDetails: affiliate.paymentDetails ?? '',
  locale: affiliate.locale ?? '',
  emailOptOut: affiliate.emailOptOut ?? [],
})

export async function settingsPage(context: SignedInRequest): Promise<PageResult> {
  return settingsForm(context, valuesOf(context.affiliate), { saved: context.url.searchParams.get('saved') === '1' }, await collectsTaxDetails(context))
}

export async function saveSettings(context: SignedInRequest, form: URLSearchParams): Promise<PageResult> {
  const values: FormValues = {
    payoutMethod: form.get('payout_method') ?? '',
    paypalEmail: (form.get('paypal_email') ?? '').trim(),
    wiseEmail: (form.get('wise_email') ?? '').trim(),
    paymentDetails: (form.get('payment_details') ?? '').trim(),
    locale: form.get('locale') ?? context.affiliate.locale ?? '',
    // A form without the email section (an older page) leaves the preferences as they were.
    emailOptOut: form.has('email_preferences') ? OPTIONAL_TOPICS.filter((topic) => !form.has(`email_${topic}`)) : (context.affiliate.emailOptOut ?? []),
  }
  // The Wise account id, when the program owner entered one in the console, stays as it was.
  const accountId = context.affiliate.wiseDetails?.accountId ?? ''
  try {
    await context.program.affiliates.update(context.affiliate.id, {
      payoutMethod: values.payoutMethod === '' ? null : (values.payoutMethod as UpdateAffiliateInput['payoutMethod']),
      paypalEmail: values.paypalEmail === '' ? null : values.paypalEmail,
      wiseDetails: values.wiseEmail === '' ? null : { accountId, email: values.wiseEmail },
      paymentDetails: values.paymentDetails === '' ? null : values.paymentDetails,
      locale: values.locale === '' ? null : (values.locale as Locale),
      emailOptOut: values.emailOptOut.length === 0 ? null : values.emailOptOut,
    })
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    return settingsForm(context, values, { error: error.describe((field) => FIELD_LABELS[field] ?? field) }, await collectsTaxDetails(context))
  }
  return { redirect: `${context.paths.settings}?saved=1` }
}

const collectsTaxDetails = async (context: SignedInRequest) => (await context.program.settings()).payouts?.requireTaxDetails === true
