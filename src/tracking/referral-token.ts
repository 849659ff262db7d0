// The signed referral a browser signup must show (docs/tracking.md "Publishable keys"): the
// referral cookie's value `<code>.<expiry>.<visitor>.<signature>`, given only for a counted (or
// already counted) click of a visitor that is not a bot. The signature is an HMAC-SHA256 under the
// project's secret salt kept in the storage: no one makes one without a click, none works in
// another project, and `visitor` (a day's visitor hash) lets one visitor attribute one signup.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { parseReferral, type ReferralCookie } from './cookie.js'

export interface SignedReferral {
  code: string
  /** Unix seconds. */
  expires: number
  /** 16 characters of the visitor's hash for the day of the click. */
  visitor: string
}

function signature(secret: string, referral: SignedReferral): string {
  return createHmac('sha256', secret).update(`affiliate-kit referral\n${referral.code}\n${referral.expires}\n${referral.visitor}`).digest('base64url').slice(0, 22)
}

export function signReferral(secret: string, referral: SignedReferral): ReferralCookie {
  const value = `${referral.code}.${referral.expires}.${referral.visitor}.${signature(secret, referral)}`
  return { code: referral.code, expires: referral.expires, value }
}

/** What a signed value names, when its signature holds under `secret` and it has not expired; else null. */
export function verifyReferral(secret: string, value: string, nowSeconds: number): SignedReferral | null {
  const parsed = parseReferral(value, nowSeconds)
  const parts = value.split('.')
  if (!parsed || parts.length !== 4) return null
  const referral = { code: parsed.code, expires: parsed.expires, visitor: parts[2]! }
  const expected = Buffer.from(signature(secret, referral))
  const given = Buffer.from(parts[3]!)
  return given.length === expected.length && timingSafeEqual(given, expected) ? referral : null
}
