// The referral cookie: `<code>.<expiry in Unix seconds>`, signed as `<code>.<expiry>.<visitor>[.<click>].<signature>`
// when a counted click set it (referral-token.ts); first-party, readable by the browser snippet
// (no HttpOnly), SameSite=Lax, Secure on https.

export interface ReferralCookie {
  code: string
  /** Unix seconds. */
  expires: number
  /** The cookie's whole value, signed or not. */
  value: string
}

const VALUE = /^([A-Za-z0-9_-]{3,64})\.(\d{1,12})(?:\.[A-Za-z0-9_-]{16}(?:\.[A-Za-z0-9_-]{16})?\.[A-Za-z0-9_-]{22})?$/

/** The referral a cookie (or the landing page's query parameter) carries, when well formed and not expired. */
export function parseReferral(value: string, nowSeconds: number): ReferralCookie | null {
  const match = VALUE.exec(value)
  return match && Number(match[2]) > nowSeconds ? { code: match[1]!, expires: Number(match[2]), value } : null
}

/** The referral in the request's cookies when present and not expired. */
export function readReferralCookie(header: string | null, name: string, nowSeconds: number): ReferralCookie | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at === -1 || part.slice(0, at).trim() !== name) continue
    const found = parseReferral(part.slice(at + 1).trim(), nowSeconds)
    if (found) return found
  }
  return null
}

export function referralCookieHeader(name: string, cookie: ReferralCookie, options: { secure: boolean; nowSeconds: number }): string {
  const maxAge = Math.max(0, cookie.expires - options.nowSeconds)
  return `${name}=${cookie.value}; Max-Age=${maxAge}; Path=/; SameSite=Lax${options.secure ? '; Secure' : ''}`
}
