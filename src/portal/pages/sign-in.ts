// The signed-out pages: a sign-in link opens a confirmation form (a POST redeems the token, so
// mail scanners that fetch links cannot use it up); the optional form asking for a link by email.
// In the visitor's language (docs/email.md "Languages").
import type { MessageKey, Translate } from '../../core/model/i18n/translate.js'
import { html, type Html } from '../../web/html.js'
import type { PortalPaths } from '../paths.js'

export interface SignInView {
  paths: PortalPaths
  /** CSRF token tied to the pre-session cookie. */
  csrf: string
  /** Whether affiliates may ask for a link by email (the portal has onSignInRequested or emailSignIn). */
  emailForm: boolean
  t: Translate
  /** The application page, when the program's own is not closed. */
  applyUrl: string | null
}

const panel = (body: Html) => html`<div class="narrow card">${body}</div>`

export function signInPage({ paths, csrf, emailForm, t, applyUrl }: SignInView, state: { token?: string; message?: MessageKey | null; error?: MessageKey | null }): Html {
  const error = state.error ? html`<p class="error" role="alert">${t(state.error)}</p>` : null
  if (state.token) {
    return panel(html`<h1>${t('portal.sign_in.title')}</h1>
${error}
<form method="post" action="${paths.signIn}">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="token" value="${state.token}">
<p>${t('portal.sign_in.continue')}</p>
<button type="submit">${t('portal.sign_in.button')}</button>
</form>`)
  }
  return panel(html`<h1>${t('portal.sign_in.title')}</h1>
${state.message ? html`<p class="notice" role="status">${t(state.message)}</p>` : null}
${error}
${
  emailForm
    ? html`<form method="post" action="${paths.signInEmail}">
<input type="hidden" name="csrf" value="${csrf}">
<label for="email">${t('portal.sign_in.email_label')}</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<div class="actions"><button type="submit">${t('portal.sign_in.email_button')}</button></div>
</form>`
    : html`<p>${t('portal.sign_in.open_link')}</p>`
}
${applyUrl ? html`<p>${t('portal.sign_in.not_yet')} <a href="${applyUrl}">${t('portal.sign_in.apply')}</a></p>` : null}`)
}

export const LINK_SENT: MessageKey = 'portal.sign_in.link_sent'
export const SIGNED_OUT: MessageKey = 'portal.sign_in.signed_out'
export const SESSION_ENDED: MessageKey = 'portal.sign_in.session_ended'
export const LINK_INVALID: MessageKey = 'portal.sign_in.link_invalid'
export const FORM_EXPIRED: MessageKey = 'portal.sign_in.form_expired'
export const TOO_MANY_ATTEMPTS: MessageKey = 'portal.sign_in.too_many'
