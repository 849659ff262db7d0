// The referral link the standalone server's portal shows (docs/portal.md "The standalone server"):
// with tracking on, the /r/ link on the tracking host, or the landing URL with the referral in
// the query (for a site that runs the snippet). Built only from configured URLs, never from a
// request's Host.
import { withQueryParam } from '../tracking/redirect-target.js'
import type { ServerConfig } from './config.js'

type PortalConfig = NonNullable<ServerConfig['portal']>
type TrackingConfig = NonNullable<ServerConfig['tracking']>

/** The portal's referralLink option; undefined without tracking (the portal's own default then). */
export function configuredReferralLink(portal: PortalConfig, tracking: TrackingConfig | undefined): ((referralCode: string) => string) | undefined {
  if (!tracking) return undefined
  const origin = (tracking.publicUrl ?? portal.publicUrl)?.replace(/\/+$/, '')
  const kind = portal.referralLink ?? (origin ? 'tracking' : 'landing')
  // Without an origin the default is "landing" (loadConfig refuses "tracking" without one).
  if (kind === 'landing' || !origin) {
    const param = tracking.queryParams?.[0] ?? 'ref'
    return (code) => withQueryParam(tracking.landingUrl, param, code)
  }
  const base = `${origin}${tracking.prefix ?? '/r'}/`
  return (code) => `${base}${encodeURIComponent(code)}`
}
