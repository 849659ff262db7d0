// Links (docs/links.md): the signed-in affiliate's own links (key, short link with a copy button,
// destination, UTM parameters), a form to create one, a delete button and a QR code download as
// SVG or PNG per link, in the page's language. Another affiliate's link is a 404 here.
import { AffiliateError, ConflictError, ValidationError } from '../../core/model/errors.js'
import type { MessageKey } from '../../core/model/i18n/translate.js'
import type { LinkView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import type { PageResult, SignedInRequest } from '../page.js'

/** Links a page lists: an affiliate has a handful, far fewer than this. */
const SHOWN = 100
/** The side of a downloaded QR code, in pixels: sharp in print at a few centimetres. */
const QR_DOWNLOAD_SIZE = 512

/** The form's fields, as the affiliate typed them (shown again with a refusal). */
interface LinkForm {
  key: string
  destination: string
  utmCampaign: string
  utmSource: string
  utmMedium: string
}
const EMPTY_FORM: LinkForm = { key: '', destination: '', utmCampaign: '', utmSource: '', utmMedium: '' }

const FIELD_LABELS: Record<string, MessageKey> = {
  key: 'portal.links.key',
  destination: 'portal.links.destination',
  utmCampaign: 'portal.links.utm_campaign',
  utmSource: 'portal.links.utm_source',
  utmMedium: 'portal.links.utm_medium',
}

function utmOf(link: LinkView): string[] {
  const values: Array<[string, string | null]> = [
    ['utm_source', link.utmSource],
    ['utm_medium', link.utmMedium],
    ['utm_campaign', link.utmCampaign],
    ['utm_term', link.utmTerm],
    ['utm_content', link.utmContent],
  ]
  return values.filter(([, value]) => value !== null).map(([name, value]) => `${name}=${value}`)
}

function linkRow({ t, paths, csrf }: SignedInRequest, link: LinkView): Html {
  const inputId = `link-url-${link.id}`
  // The key, read out after each button's text: a row's buttons are told apart from the next row's.
  const which = html`<span class="skip"> ${link.key}</span>`
  const qr = (format: 'svg' | 'png', label: string) => html`<a href="${paths.linkQr(link.id)}?format=${format}" download>${label}${which}</a>`
  const utm = utmOf(link)
  return html`<tr data-link="${link.key}">
<td><code>${link.key}</code></td>
<td>${
    link.url === null
      ? html`<span class="muted">${t('portal.links.no_url')}</span>`
      : html`<div class="copy"><label class="skip" for="${inputId}">${t('portal.links.url_label', { key: link.key })}</label><input id="${inputId}" type="text" readonly value="${link.url}">
<button type="button" data-copy="${inputId}" data-copied="${t('portal.links.copied')}" data-copy-by-hand="${t('portal.links.copy_by_hand')}" hidden>${t('portal.links.copy')}</button>
<span id="${inputId}-status" class="muted" role="status" aria-live="polite"></span></div>`
  }</td>
<td>${link.destination ?? html`<span class="muted">${t('portal.links.landing_page')}</span>`}</td>
<td>${utm.length === 0 ? html`<span class="muted">-</span>` : html`<ul>${utm.map((pair) => html`<li><code>${pair}</code></li>`)}</ul>`}</td>
<td><div class="actions">${link.url === null ? null : html`${qr('svg', t('portal.links.qr_svg'))} ${qr('png', t('portal.links.qr_png'))}`}
<form method="post" action="${paths.linkDelete(link.id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary">${t('portal.links.delete')}${which}</button></form></div></td>
</tr>`
}

function createForm({ t, paths, csrf }: SignedInRequest, values: LinkForm): Html {
  const field = (name: keyof LinkForm, id: string, wire: string, label: MessageKey, extra: Html | null = null) =>
    html`<label for="${id}">${t(label)}</label><input id="${id}" name="${wire}" type="text" value="${values[name]}" maxlength="200"${extra}>`
  return html`<section class="card" aria-labelledby="new-link-title">
<h2 id="new-link-title">${t('portal.links.create')}</h2>
<form method="post" action="${paths.links}">
<input type="hidden" name="csrf" value="${csrf}">
<label for="link-key">${t('portal.links.key')}</label>
<input id="link-key" name="key" type="text" value="${values.key}" maxlength="64" autocomplete="off" aria-describedby="link-key-hint">
<p id="link-key-hint" class="muted">${t('portal.links.key_hint')}</p>
<label for="link-destination">${t('portal.links.destination')}</label>
<input id="link-destination" name="destination" type="url" value="${values.destination}" maxlength="2048" aria-describedby="link-destination-hint">
<p id="link-destination-hint" class="muted">${t('portal.links.destination_hint')}</p>
${field('utmCampaign', 'link-utm-campaign', 'utm_campaign', 'portal.links.utm_campaign')}
${field('utmSource', 'link-utm-source', 'utm_source', 'portal.links.utm_source')}
${field('utmMedium', 'link-utm-medium', 'utm_medium', 'portal.links.utm_medium')}
<div class="actions"><button type="submit">${t('portal.links.create_button')}</button></div>
</form>
</section>`
}

export async function linksPage(context: SignedInRequest, refusal?: { message: string; values: LinkForm }): Promise<PageResult> {
  const { program, affiliate, url, t, locale } = context
  const links = await program.links.list({ affiliate: affiliate.id, limit: SHOWN })
  const notice = url.searchParams.get('created') === '1' ? t('portal.links.created') : url.searchParams.get('deleted') === '1' ? t('portal.links.deleted') : null
  const body = html`<div lang="${locale}">
<h1>${t('portal.links.title')}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
${refusal ? html`<p class="error" role="alert" id="link-error">${refusal.message}</p>` : null}
<p>${t('portal.links.intro')}</p>
<section class="card" aria-labelledby="links-title">
<h2 id="links-title">${t('portal.links.yours')}</h2>
${
  links.items.length === 0
    ? html`<p class="muted">${t('portal.links.none')}</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="links-title"><table>
<caption class="skip">${t('portal.links.caption')}</caption>
<thead><tr><th scope="col">${t('portal.links.key')}</th><th scope="col">${t('portal.links.short_url')}</th><th scope="col">${t('portal.links.destination')}</th><th scope="col">${t('portal.links.utm')}</th><th scope="col">${t('portal.links.actions')}</th></tr></thead>
<tbody>${links.items.map((link) => linkRow(context, link))}</tbody>
</table></div>`
}
</section>
${createForm(context, refusal?.values ?? EMPTY_FORM)}
</div>`
  return { title: t('portal.links.title'), body }
}

/** The link when it is the signed-in affiliate's; null for another's or none (both a 404). */
async function ownLink({ program, affiliate }: SignedInRequest, id: number): Promise<LinkView | null> {
  try {
    const link = await program.links.get(id)
    return link.affiliateId === affiliate.id ? link : null
  } catch (error) {
    if (error instanceof AffiliateError && error.code === 'not_found') return null
    throw error
  }
}

function notFound({ t, locale }: SignedInRequest): PageResult {
  return { title: t('portal.links.title'), status: 404, body: html`<div lang="${locale}"><h1>${t('portal.links.title')}</h1><p class="error" role="alert">${t('portal.links.not_found')}</p></div>` }
}

export async function createLink(context: SignedInRequest, form: URLSearchParams): Promise<PageResult> {
  const values: LinkForm = {
    key: (form.get('key') ?? '').trim(),
    destination: (form.get('destination') ?? '').trim(),
    utmCampaign: form.get('utm_campaign') ?? '',
    utmSource: form.get('utm_source') ?? '',
    utmMedium: form.get('utm_medium') ?? '',
  }
  try {
    await context.program.links.create({
      affiliate: context.affiliate.id,
      ...(values.key === '' ? {} : { key: values.key }),
      ...(values.destination === '' ? {} : { destination: values.destination }),
      utmCampaign: values.utmCampaign,
      utmSource: values.utmSource,
      utmMedium: values.utmMedium,
    })
  } catch (error) {
    if (!(error instanceof ValidationError || error instanceof ConflictError)) throw error
    const message = error.describe((field) => (FIELD_LABELS[field] ? context.t(FIELD_LABELS[field]) : field))
    const shown = await linksPage(context, { message, values })
    return 'title' in shown ? { ...shown, status: error instanceof ConflictError ? 409 : 400 } : shown
  }
  return { redirect: `${context.paths.links}?created=1` }
}

export async function deleteLink(context: SignedInRequest, id: number): Promise<PageResult> {
  if (!(await ownLink(context, id))) return notFound(context)
  try {
    await context.program.links.delete(id)
  } catch (error) {
    // Deleted meanwhile (another tab): gone, as asked.
    if (!(error instanceof AffiliateError && error.code === 'not_found')) throw error
  }
  return { redirect: `${context.paths.links}?deleted=1` }
}

/** The link's QR code as a file: `?format=svg` (the default) or `png`. */
export async function linkQrCode(context: SignedInRequest, id: number): Promise<PageResult> {
  const link = await ownLink(context, id)
  if (!link) return notFound(context)
  const format = context.url.searchParams.get('format') ?? 'svg'
  if (format !== 'svg' && format !== 'png') return notFound(context)
  if (link.url === null) {
    return { title: context.t('portal.links.title'), status: 409, body: html`<div lang="${context.locale}"><h1>${context.t('portal.links.title')}</h1><p class="error" role="alert">${context.t('portal.links.no_qr')}</p></div>` }
  }
  const image = await context.program.links.qr(id, { format, size: QR_DOWNLOAD_SIZE })
  return { download: { filename: `${link.key}-qr.${format}`, contentType: image.contentType, body: image.content } }
}
