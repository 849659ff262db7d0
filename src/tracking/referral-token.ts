// The signed referral a browser signup must show (docs/tracking.md "Publishable keys"): the
// referral cookie's value `<code>.<expiry>.<visitor>[.<click>].<signature>`, given only for a counted (or
// already counted) click of a visitor that is not a bot. The signature (src/core/model/signed-referral.ts)
// is an HMAC-SHA256 under the project's secret salt kept in the storage: no one makes one without a
// click, none works in another project, and `visitor` (a day's visitor hash) lets one visitor
// attribute one signup.
import { readSignedReferral, signedReferralValue, type SignedReferral } from '../core/model/signed-referral.js'
import { parseReferral, type ReferralCookie } from './cookie.js'

export type { SignedReferral } from '../core/model/signed-referral.js'

export function signReferral(secret: string, referral: SignedReferral): ReferralCookie {
  return { code: referral.code, expires: referral.expires, value: signedReferralValue(secret, referral) }
}

/** What a signed value names, when its signature holds under `secret` and it has not expired; else null. */
export function verifyReferral(secret: string, value: string, nowSeconds: number): SignedReferral | null {
  return parseReferral(value, nowSeconds) ? readSignedReferral(secret, value) : null
}
