// Reading the Cookie header and writing Set-Cookie for the pages' own cookies: always HttpOnly
// and SameSite=Lax, Secure on https, scoped to the mount path.

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const index = part.indexOf('=')
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim()
  }
  return null
}

export interface CookieScope {
  path: string
  secure: boolean
}

/** A Set-Cookie value; `maxAgeSeconds` 0 deletes the cookie, undefined makes it last as long as the browser session. */
export function cookieHeader(name: string, value: string, scope: CookieScope, maxAgeSeconds?: number): string {
  const parts = [`${name}=${value}`, `Path=${scope.path}`, 'HttpOnly', 'SameSite=Lax']
  if (scope.secure) parts.push('Secure')
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${maxAgeSeconds}`)
  return parts.join('; ')
}
