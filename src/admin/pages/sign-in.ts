// The signed-out page: an API key with every scope (`*`) is exchanged once for a console session;
// the key itself is never kept in the browser.
import { html, type Html } from '../../web/html.js'
import type { AdminPaths } from '../paths.js'

export function signInPage(paths: AdminPaths, csrf: string, state: { message?: Html | null; error?: string | null }): Html {
  return html`<div class="narrow card"><h1>Admin console</h1>
${state.message ?? null}
${state.error ? html`<p class="error" role="alert">${state.error}</p>` : null}
<form method="post" action="${paths.signIn}">
<input type="hidden" name="csrf" value="${csrf}">
<label for="api-key">Admin API key</label>
<input id="api-key" name="key" type="password" autocomplete="off" required aria-describedby="key-hint">
<p id="key-hint" class="muted">A key with every scope (*). It is used once to open a session and not stored in the browser.</p>
<div class="actions"><button type="submit">Sign in</button></div>
</form></div>`
}

export const SIGNED_OUT = html`<p class="notice" role="status">You are signed out.</p>`
export const SESSION_ENDED = html`<p class="notice" role="status">Your session has ended; sign in again.</p>`
export const KEY_REFUSED = 'This key cannot open the console: it is unknown, revoked, of another project, or lacks the * scope.'
export const FORM_EXPIRED = 'This form has expired. Reload the page and try again.'
export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts from your network. Wait a few minutes and try again.'
