// The embedded dashboard's one page (docs/embed.md): the affiliate's referral link with a copy
// button, its earnings as the API reports them, its latest conversions and payouts, and how it
// gets paid, all in its language. Sections the token or the page's `hide` names are left out.
import type { EmbedSection } from '../../core/model/embed-token.js'
import { minorDigits, parseMoney } from '../../core/model/money.js'
import type { Locale } from '../../core/model/i18n/locales.js'
import { formatAmount, formatDay, type Translate } from '../../core/model/i18n/translate.js'
import type { AffiliateView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import type { PortalProgram } from '../program.js'

/** How many conversions and payouts the page lists, newest first. */
export const EMBED_LIST_LENGTH = 10

export interface PayoutSettingsValues {
  payoutMethod: string
  paypalEmail: string
  wiseEmail: string
  paymentDetails: string
}

export interface DashboardView {
  program: PortalProgram
  affiliate: AffiliateView
  hide: readonly EmbedSection[]
  locale: Locale
  t: Translate
  referralLink: string | null
  /** Where the settings form posts, and the hidden fields it carries (the token, the appearance). */
  action: string
  carried: URLSearchParams
  settings: { values: PayoutSettingsValues; saved: boolean; error: string | null }
}

/** A decimal amount of the API ('-12.50') in the locale's writing of its currency. */
export function localMoney(amount: string, currency: string, locale: Locale): string {
  const negative = amount.startsWith('-')
  const minor = parseMoney(negative ? amount.slice(1) : amount, minorDigits(currency), 'amount')
  return formatAmount(negative ? -minor : minor, currency, locale)
}

export const settingsValuesOf = (affiliate: AffiliateView): PayoutSettingsValues => ({
  payoutMethod: affiliate.payoutMethod ?? '',
  paypalEmail: affiliate.paypalEmail ?? '',
  wiseEmail: affiliate.wiseDetails?.email ?? '',
  paymentDetails: affiliate.paymentDetails ?? '',
})

function linkSection({ affiliate, referralLink, t }: DashboardView): Html {
  return html`<section class="card" aria-labelledby="link-title" data-section="links">
<h2 id="link-title">${t('embed.links.title')}</h2>
${
  referralLink === null
    ? null
    : html`<div class="copy">
<label class="skip" for="referral-link">${t('embed.links.title')}</label>
<input id="referral-link" type="text" readonly value="${referralLink}" data-referral-link>
<button type="button" data-copy="referral-link" data-copied="${t('embed.links.copied')}" data-copy-by-hand="${t('embed.links.copy_by_hand')}" hidden>${t('embed.links.copy')}</button>
<span id="referral-link-status" class="muted" role="status" aria-live="polite"></span>
</div>`
}
<p class="muted">${t('embed.links.code', { code: affiliate.referralCode })}</p>
</section>`
}

async function earningsSection({ program, affiliate, t, locale }: DashboardView): Promise<Html> {
  const { earnings, currency } = affiliate
  const payable = await program.payouts.payable(affiliate.id)
  const figure = (name: string, label: string, amount: string) =>
    html`<div class="figure"><dt id="fig-${name}">${label}</dt><dd aria-labelledby="fig-${name}" data-figure="${name}" data-amount="${amount}">${localMoney(amount, currency, locale)}</dd></div>`
  return html`<section class="card" aria-labelledby="earnings-title" data-section="earnings">
<h2 id="earnings-title">${t('embed.earnings.title')}</h2>
<dl class="grid">
${figure('held', t('embed.earnings.held'), earnings.held)}
${figure('payable', t('embed.earnings.payable'), payable.payable)}
${figure('paid', t('embed.earnings.paid'), earnings.paid)}
${figure('unpaid', t('embed.earnings.unpaid'), earnings.unpaid)}
</dl>
</section>`
}

/** A card of the section's latest rows, newest first, or its "none yet" line. */
function listCard(section: 'conversions' | 'payouts', t: Translate, headers: Html, rows: Html[]): Html {
  return html`<section class="card" aria-labelledby="${section}-title" data-section="${section}">
<h2 id="${section}-title">${t(`embed.${section}.title`)}</h2>
${
  rows.length === 0
    ? html`<p class="muted">${t(`embed.${section}.none`)}</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="${section}-title"><table>
<thead><tr>${headers}</tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
</section>`
}

async function conversionsSection({ program, affiliate, t, locale }: DashboardView): Promise<Html> {
  const list = await program.conversions.list({ affiliateId: affiliate.id, limit: EMBED_LIST_LENGTH })
  const headers = html`<th scope="col">${t('embed.conversions.date')}</th><th scope="col">${t('embed.conversions.type')}</th><th scope="col" class="num">${t('embed.conversions.commission')}</th><th scope="col">${t('embed.conversions.status')}</th>`
  const rows = list.items.map(
    (conversion) =>
      html`<tr data-conversion="${conversion.id}"><td><time datetime="${conversion.createdAt.toISOString()}">${formatDay(conversion.createdAt, locale)}</time></td><td>${t(`embed.conversions.${conversion.type}`)}</td><td class="num" data-amount="${conversion.value}">${localMoney(conversion.value, conversion.currency, locale)}</td><td><span class="badge ${conversion.status}">${t(`embed.status.${conversion.status}`)}</span></td></tr>`,
  )
  return listCard('conversions', t, headers, rows)
}

async function payoutsSection(view: DashboardView): Promise<Html> {
  const { program, affiliate, t, locale } = view
  const list = await program.payouts.list({ affiliateId: affiliate.id, limit: EMBED_LIST_LENGTH })
  const headers = html`<th scope="col">${t('embed.payouts.date')}</th><th scope="col" class="num">${t('embed.payouts.amount')}</th><th scope="col">${t('embed.payouts.method')}</th>`
  const rows = list.items.map(
    (payout) =>
      html`<tr data-payout="${payout.id}"><td><time datetime="${payout.paymentDate.toISOString()}">${formatDay(payout.paymentDate, locale)}</time></td><td class="num" data-amount="${payout.amount}">${localMoney(payout.amount, payout.currency, locale)}</td><td>${payout.method}</td></tr>`,
  )
  return html`${listCard('payouts', t, headers, rows)}
${settingsSection(view)}`
}

function settingsSection({ t, action, carried, settings }: DashboardView): Html {
  const { values, saved, error } = settings
  const methods: [string, string][] = [
    ['', t('embed.settings.not_chosen')],
    ['paypal', 'PayPal'],
    ['wise', 'Wise'],
    ['manual', t('embed.settings.other')],
  ]
  return html`<section class="card" aria-labelledby="settings-title" data-section="settings">
<h2 id="settings-title">${t('embed.settings.title')}</h2>
${saved ? html`<p class="notice" role="status">${t('embed.settings.saved')}</p>` : null}
${error ? html`<p class="error" role="alert" id="settings-error">${error}</p>` : null}
<form method="post" action="${action}">
${[...carried].map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<label for="payout-method">${t('embed.settings.method')}</label>
<select id="payout-method" name="payout_method">${methods.map(([value, label]) => html`<option value="${value}"${values.payoutMethod === value ? html` selected` : null}>${label}</option>`)}</select>
<label for="paypal-email">${t('embed.settings.paypal_email')}</label>
<input id="paypal-email" name="paypal_email" type="email" autocomplete="email" value="${values.paypalEmail}">
<label for="wise-email">${t('embed.settings.wise_email')}</label>
<input id="wise-email" name="wise_email" type="email" autocomplete="email" value="${values.wiseEmail}">
<label for="payment-details">${t('embed.settings.details')}</label>
<textarea id="payment-details" name="payment_details" maxlength="2000">${values.paymentDetails}</textarea>
<div class="actions"><button type="submit">${t('embed.settings.save')}</button></div>
</form>
</section>`
}

/** The page's body: the sections not hidden, in order. */
export async function dashboardBody(view: DashboardView): Promise<Html> {
  const shown = (section: EmbedSection) => !view.hide.includes(section)
  return html`<h1>${view.t('embed.title')}</h1>
${view.affiliate.status === 'pending' ? html`<p class="notice">${view.t('embed.pending')}</p>` : null}
${shown('links') ? linkSection(view) : null}
${shown('earnings') ? await earningsSection(view) : null}
${shown('conversions') ? await conversionsSection(view) : null}
${shown('payouts') ? await payoutsSection(view) : null}`
}
