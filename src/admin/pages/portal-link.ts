// A one-time sign-in link to the affiliate portal, made for an affiliate from its page in the
// console (the owner sends it to the affiliate): built from the portal's configured public URL
// only (createAdminConsole option portal), shown once, recorded in the audit log.
import { portalSignInLink, portalSignInLinkRefusal } from '../../core/affiliates/portal-sign-in.js'
import type { AffiliateView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import type { AdminRequest, AdminResult } from '../page.js'

/** The affiliate page's portal section: the button, or why there is none. */
export function portalLinkSection({ portal, paths, csrf, program }: AdminRequest, affiliate: AffiliateView): Html {
  const refusal = portalSignInLinkRefusal(portal, program.projectId)
  return html`<section class="card" aria-labelledby="portal-link-title">
<h2 id="portal-link-title">Portal sign-in link</h2>
${
  refusal === null
    ? html`<p>A link that signs ${affiliate.email} in to the affiliate portal once, within minutes. Send it to them yourself.</p>
<form method="post" action="${paths.affiliatePortalLink(affiliate.id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">Create a sign-in link</button></form>`
    : html`<p class="muted">No sign-in links: ${refusal}.</p>`
}
</section>`
}

export async function createPortalLink({ program, portal, paths, audit }: AdminRequest, id: number): Promise<AdminResult> {
  const affiliate = await program.affiliates.get(id)
  const { url, expiresAt } = await portalSignInLink(portal, program.projectId, affiliate.email)
  // The link itself is a secret: the audit log records only that one was made.
  await audit('affiliate.portal_link', `affiliate:${id}`, affiliate.email)
  const body = html`<h1>Sign-in link for ${affiliate.email}</h1>
<section class="card">
<p>Send this link to ${affiliate.email}. It works once, until <time datetime="${expiresAt.toISOString()}">${expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC</time>; this is the only time it is shown.</p>
<div class="copy"><label class="skip" for="portal-link">Sign-in link</label><input id="portal-link" type="text" readonly value="${url}" data-portal-link><button type="button" data-copy="portal-link" hidden>Copy link</button><span id="portal-link-status" class="muted" role="status" aria-live="polite"></span></div>
<p><a href="${paths.affiliate(id)}">Back to ${affiliate.email}</a></p></section>`
  return { title: `Sign-in link for ${affiliate.email}`, body }
}
