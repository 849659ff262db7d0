// The signed referral of a click (docs/tracking.md "Publishable keys"): `<code>.<expiry>.<visitor>.<signature>`,
// an HMAC-SHA256 under the project's secret salt kept in the storage. The tracking handler signs
// and checks them for browser signups; a conversion naming its click (`click`) is checked here.
import { createHmac, timingSafeEqual } from 'node:crypto'

export interface SignedReferral {
  code: string
  /** Unix seconds. */
  expires: number
  /** 16 characters of the visitor's hash for the day of the click. */
  visitor: string
}

export const SIGNED_REFERRAL = /^([A-Za-z0-9_-]{3,64})\.(\d{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22})$/

export function referralSignature(secret: string, referral: SignedReferral): string {
  return createHmac('sha256', secret).update(`affiliate-kit referral\n${referral.code}\n${referral.expires}\n${referral.visitor}`).digest('base64url').slice(0, 22)
}

/** What a signed value names when its signature holds under `secret`, expired or not; else null. */
export function readSignedReferral(secret: string, value: string): SignedReferral | null {
  const match = SIGNED_REFERRAL.exec(value)
  if (!match) return null
  const referral = { code: match[1]!, expires: Number(match[2]), visitor: match[3]! }
  const expected = Buffer.from(referralSignature(secret, referral))
  const given = Buffer.from(match[4]!)
  return given.length === expected.length && timingSafeEqual(given, expected) ? referral : null
}
