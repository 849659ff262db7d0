// CSRF for forms shown before sign-in (the sign-in confirmation, "email me a link", an admin key
// form): a random pre-session cookie whose derived token the form must carry.
import { cookieHeader, readCookie, type CookieScope } from './cookies.js'
import { csrfTokenFor, csrfTokenMatches, isSecretShaped, newSecret } from './secrets.js'

/** Pre-session cookies live an hour: long enough to fill a form. */
const PRE_SESSION_SECONDS = 3600

/** `browserSession`: the cookie lives until the browser closes instead of an hour (a console behind the host's sign-in). */
export function preSessionCsrf(cookieName: string, options: { browserSession?: boolean } = {}) {
  const maxAge = options.browserSession ? undefined : PRE_SESSION_SECONDS
  return {
    /** The token for a signed-out page's forms, and the cookie to set when the browser had none. */
    issue(request: Request, scope: CookieScope): { csrf: string; cookies: string[] } {
      const existing = readCookie(request, cookieName)
      if (isSecretShaped(existing)) return { csrf: csrfTokenFor(existing), cookies: [] }
      const secret = newSecret()
      return { csrf: csrfTokenFor(secret), cookies: [cookieHeader(cookieName, secret, scope, maxAge)] }
    },
    /** Whether a posted form carries the token of the browser's pre-session cookie. */
    verify(request: Request, form: URLSearchParams): boolean {
      const secret = readCookie(request, cookieName)
      return isSecretShaped(secret) && csrfTokenMatches(secret, form.get('csrf'))
    },
    /** The Set-Cookie value that removes the cookie (once signed in). */
    clear: (scope: CookieScope): string => cookieHeader(cookieName, '', scope, 0),
  }
}
