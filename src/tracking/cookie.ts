// The referral cookie: `<code>.<expiry in Unix seconds>`, first-party, readable by the browser
// snippet (no HttpOnly), SameSite=Lax, Secure on https.

export interface ReferralCookie {
  code: string
  /** Unix seconds. */
  expires: number
}

const VALUE = /^([A-Za-z0-9_-]{3,64})\.(\d{1,12})$/

/** The referral in the request's cookies when present and not expired. */
export function readReferralCookie(header: string | null, name: string, nowSeconds: number): ReferralCookie | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at === -1 || part.slice(0, at).trim() !== name) continue
    const match = VALUE.exec(part.slice(at + 1).trim())
    if (match && Number(match[2]) > nowSeconds) return { code: match[1]!, expires: Number(match[2]) }
  }
  return null
}

export function referralCookieHeader(name: string, cookie: ReferralCookie, options: { secure: boolean; nowSeconds: number }): string {
  const maxAge = Math.max(0, cookie.expires - options.nowSeconds)
  return `${name}=${cookie.code}.${cookie.expires}; Max-Age=${maxAge}; Path=/; SameSite=Lax${options.secure ? '; Secure' : ''}`
}
