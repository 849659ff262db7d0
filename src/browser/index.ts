// affiliate-kit/browser: the referral snippet for the host's pages (docs/tracking.md "Browser
// snippet"). ESM, no dependencies; also served as a plain <script> by the tracking handler.
export { referralClient } from './referral-client.js'
export type { Incentive, Referral, ReferralClient, ReferralClientOptions, SignupReason, SignupResult } from './referral-client.js'

import { referralClient, type ReferralClientOptions } from './referral-client.js'

/** The stored referral code (cookie, else localStorage), or null. */
export function getReferral(options?: Pick<ReferralClientOptions, 'cookieName'>): string | null {
  return referralClient(options).getReferral()
}
