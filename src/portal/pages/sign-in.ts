// The signed-out pages: a sign-in link opens a confirmation form (a POST redeems the token, so
// mail scanners that fetch links cannot use it up); the optional form asking for a link by email.
import { html, type Html } from '../../web/html.js'
import type { PortalPaths } from '../paths.js'

export interface SignInView {
  paths: PortalPaths
  /** CSRF token tied to the pre-session cookie. */
  csrf: string
  /** Whether affiliates may ask for a link by email (the portal has onSignInRequested). */
  emailForm: boolean
  /** The application page, when the program's own is not closed. */
  applyUrl: string | null
}

const panel = (body: Html) => html`<div class="narrow card">${body}</div>`

export function signInPage({ paths, csrf, emailForm, applyUrl }: SignInView, state: { token?: string; message?: Html | null; error?: string | null }): Html {
  if (state.token) {
    return panel(html`<h1>Sign in</h1>
${state.error ? html`<p class="error" role="alert">${state.error}</p>` : null}
<form method="post" action="${paths.signIn}">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="token" value="${state.token}">
<p>Continue to your affiliate dashboard.</p>
<button type="submit">Sign in</button>
</form>`)
  }
  return panel(html`<h1>Sign in</h1>
${state.message ?? null}
${state.error ? html`<p class="error" role="alert">${state.error}</p>` : null}
${
  emailForm
    ? html`<form method="post" action="${paths.signInEmail}">
<input type="hidden" name="csrf" value="${csrf}">
<label for="email">Your email address</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<div class="actions"><button type="submit">Email me a sign-in link</button></div>
</form>`
    : html`<p>Open the sign-in link you were given. Each link works once, for a few minutes; ask for a new one when it has expired.</p>`
}
${applyUrl ? html`<p>Not an affiliate yet? <a href="${applyUrl}">Apply to join</a></p>` : null}`)
}

export const LINK_SENT = html`<p class="notice" role="status">If this address belongs to an affiliate, a sign-in link is on its way. It works once, for a few minutes.</p>`
export const SIGNED_OUT = html`<p class="notice" role="status">You are signed out.</p>`
export const SESSION_ENDED = html`<p class="notice" role="status">Your session has ended; sign in again.</p>`
export const LINK_INVALID = 'This sign-in link is not valid: it was already used, it has expired, or it was never issued. Ask for a new one.'
export const FORM_EXPIRED = 'This form has expired. Reload the page and try again.'
export const TOO_MANY_ATTEMPTS = 'Too many attempts from your network. Wait a few minutes and try again.'
