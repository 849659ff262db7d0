// The affiliate page's links section (docs/links.md "In the console"): its links (key, short link,
// destination, UTM parameters) with a delete button each, and the form that creates one; a refused
// create shows the form again as typed, the field at fault marked.
import type { LinkView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import type { AdminRequest } from '../page.js'
import type { Refusal } from '../refusal.js'

export const LINK_FIELDS = ['key', 'destination', 'utmCampaign', 'utmSource', 'utmMedium'] as const
export type LinkValues = Record<(typeof LINK_FIELDS)[number], string>
export const NO_LINK_VALUES: LinkValues = { key: '', destination: '', utmCampaign: '', utmSource: '', utmMedium: '' }

/** What the section shows beside the links: the form as typed and why it was refused, when it was. */
export interface LinkFormState {
  values: LinkValues
  refusal: Refusal | null
}

function utmOf(link: LinkView): string {
  const pairs: Array<[string, string | null]> = [
    ['utm_source', link.utmSource],
    ['utm_medium', link.utmMedium],
    ['utm_campaign', link.utmCampaign],
    ['utm_term', link.utmTerm],
    ['utm_content', link.utmContent],
  ]
  return pairs
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')
}

function linkRow({ paths, csrf }: AdminRequest, link: LinkView): Html {
  const inputId = `link-url-${link.id}`
  return html`<tr data-link="${link.key}"><td><code>${link.key}</code></td>
<td>${
    link.url === null
      ? html`<span class="muted">none configured</span>`
      : html`<div class="copy"><label class="skip" for="${inputId}">Short link ${link.key}</label><input id="${inputId}" type="text" readonly value="${link.url}"><button type="button" data-copy="${inputId}" hidden>Copy</button><span id="${inputId}-status" class="muted" role="status" aria-live="polite"></span></div>`
  }</td>
<td>${link.destination ?? html`<span class="muted">landing page</span>`}</td>
<td>${utmOf(link)}</td>
<td><form method="post" action="${paths.linkDelete(link.id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary">Delete<span class="skip"> ${link.key}</span></button></form></td></tr>`
}

export function linksSection(context: AdminRequest, affiliateId: number, links: { items: LinkView[]; total: number }, form: LinkFormState): Html {
  const { paths, csrf, url } = context
  const { values, refusal } = form
  const attributes = (field: string) => (field === refusal?.field ? html` aria-invalid="true" aria-describedby="link-error"` : null)
  const input = (field: keyof LinkValues, name: string, label: string, type = 'text', extra: Html | null = null) =>
    html`<label for="link-${field}">${label}</label><input id="link-${field}" name="${name}" type="${type}" value="${values[field]}"${attributes(field)}${extra}>`
  return html`<section class="card" aria-labelledby="links-title" id="links">
<h2 id="links-title">Links</h2>
${url.searchParams.has('link_created') ? html`<p class="notice" role="status">The link is created.</p>` : null}
${url.searchParams.has('link_deleted') ? html`<p class="notice" role="status">The link is deleted.</p>` : null}
${refusal ? html`<p class="error" role="alert" id="link-error">${refusal.message}</p><p>No link was created.</p>` : null}
${
  links.items.length === 0
    ? html`<p class="muted">No links besides the referral code.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="links-title"><table>
<caption class="skip">Links of this affiliate, newest first</caption>
<thead><tr><th scope="col">Key</th><th scope="col">Short link</th><th scope="col">Destination</th><th scope="col">UTM parameters</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
<tbody>${links.items.map((link) => linkRow(context, link))}</tbody>
</table></div>${links.total > links.items.length ? html`<p class="muted">The ${links.items.length} newest of ${links.total} links.</p>` : null}`
}
<form method="post" action="${paths.affiliateLinks(affiliateId)}">
<input type="hidden" name="csrf" value="${csrf}">
<fieldset><legend>New link</legend>
${input('key', 'key', 'Key (empty: made from the referral code)', 'text', html` maxlength="64"`)}
${input('destination', 'destination', 'Destination URL (empty: the landing page)', 'url', html` maxlength="2048"`)}
${input('utmCampaign', 'utm_campaign', 'utm_campaign')}
${input('utmSource', 'utm_source', 'utm_source')}
${input('utmMedium', 'utm_medium', 'utm_medium')}
</fieldset>
<div class="actions"><button type="submit">Create link</button></div>
</form>
</section>`
}
