// The signed referral of a click (docs/tracking.md "Publishable keys"): `<code>.<expiry>.<visitor>[.<click>].<signature>`,
// an HMAC-SHA256 under the project's secret salt kept in the storage. The tracking handler signs
// and checks them for browser signups; a conversion naming its click (`click`) is checked here.
// `click` is the click's id (docs/analytics.md): referrals signed before it existed have none.
import { createHmac, timingSafeEqual } from 'node:crypto'

export interface SignedReferral {
  code: string
  /** Unix seconds. */
  expires: number
  /** 16 characters of the visitor's hash for the day of the click. */
  visitor: string
  /** The id of the click (16 characters), for analytics by link and campaign. */
  click?: string
}

export const SIGNED_REFERRAL = /^([A-Za-z0-9_-]{3,64})\.(\d{1,12})\.([A-Za-z0-9_-]{16})(?:\.([A-Za-z0-9_-]{16}))?\.([A-Za-z0-9_-]{22})$/

export function referralSignature(secret: string, referral: SignedReferral): string {
  const click = referral.click === undefined ? '' : `\n${referral.click}`
  return createHmac('sha256', secret).update(`affiliate-kit referral\n${referral.code}\n${referral.expires}\n${referral.visitor}${click}`).digest('base64url').slice(0, 22)
}

/** The signed value of a referral: its fields, then their signature under `secret`. */
export function signedReferralValue(secret: string, referral: SignedReferral): string {
  const click = referral.click === undefined ? '' : `.${referral.click}`
  return `${referral.code}.${referral.expires}.${referral.visitor}${click}.${referralSignature(secret, referral)}`
}

/** What a signed value names when its signature holds under `secret`, expired or not; else null. */
export function readSignedReferral(secret: string, value: string): SignedReferral | null {
  const match = SIGNED_REFERRAL.exec(value)
  if (!match) return null
  const referral: SignedReferral = { code: match[1]!, expires: Number(match[2]), visitor: match[3]!, ...(match[4] === undefined ? {} : { click: match[4] }) }
  const expected = Buffer.from(referralSignature(secret, referral))
  const given = Buffer.from(match[5]!)
  return given.length === expected.length && timingSafeEqual(given, expected) ? referral : null
}

/** The click id a signed referral names (its signature checked before, by readSignedReferral); null when it names none. */
export function clickIdOf(value: string | undefined): string | null {
  return value === undefined ? null : (SIGNED_REFERRAL.exec(value)?.[4] ?? null)
}
