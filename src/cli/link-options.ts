// The program's links option from the standalone server's config (docs/links.md "The standalone
// server"): links are reached where the tracking handler answers (tracking.publicUrl, else
// portal.publicUrl, with tracking.prefix), may send visitors to the origins its redirects may
// (the landing URL's and tracking.allowedOrigins), and short domains are tracking.linkDomains.
import type { LinkOptions } from '../core/rules/link-settings.js'
import type { ServerConfig } from './config.js'

/** Undefined without tracking: links then have no short URL and any http(s) destination. */
export function configuredLinks({ tracking, portal }: ServerConfig): LinkOptions | undefined {
  if (!tracking) return undefined
  const publicUrl = (tracking.publicUrl ?? portal?.publicUrl)?.replace(/\/+$/, '')
  return {
    ...(publicUrl ? { publicUrl } : {}),
    prefix: tracking.prefix ?? '/r',
    allowedOrigins: [new URL(tracking.landingUrl).origin, ...(tracking.allowedOrigins ?? [])],
    domains: tracking.linkDomains ?? [],
  }
}
