// What a click records besides its link (docs/analytics.md "What a click records"): the campaign
// (the link's UTM defaults, overridden by the visit's own utm_* and sub1..sub5 parameters), the
// referrer's host, the device class and browser from ua-parser-js, and the country from a trusted
// header or a MaxMind database. Never the address or the whole user agent.
import { UAParser } from 'ua-parser-js'
import type { ClickCampaign, DeviceClass } from '../core/ports/analytics.js'
import { UTM_PARAMETERS } from '../core/rules/link-destination.js'

/** A link's default campaign fields (docs/links.md). */
export type LinkCampaign = Partial<Pick<ClickCampaign, 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmTerm' | 'utmContent'>>

/** Each campaign field and the query parameter of the visit that sets it. */
const CAMPAIGN_PARAMS = [
  ...UTM_PARAMETERS.map(([param, field]) => [field, param] as const),
  ['sub1', 'sub1'],
  ['sub2', 'sub2'],
  ['sub3', 'sub3'],
  ['sub4', 'sub4'],
  ['sub5', 'sub5'],
] as const satisfies ReadonlyArray<readonly [keyof ClickCampaign, string]>

const MAX_VALUE = 200

/** A campaign value as stored: trimmed, control characters dropped, at most 200 characters; null when empty. */
export function campaignValue(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null
  const clean = value.replace(/[\x00-\x1f\x7f]/g, '').trim().slice(0, MAX_VALUE)
  return clean === '' ? null : clean
}

/** The click's campaign: each parameter of the visit, else the link's default. */
export function clickCampaign(query: URLSearchParams, link: LinkCampaign | null): ClickCampaign {
  const campaign = {} as Record<keyof ClickCampaign, string | null>
  const defaults: Partial<Record<keyof ClickCampaign, string | null>> = link ?? {}
  for (const [field, param] of CAMPAIGN_PARAMS) campaign[field] = campaignValue(query.get(param)) ?? campaignValue(defaults[field])
  return campaign
}

/** The host of an http(s) Referer, lower case; null for none, another scheme or a malformed one. */
export function referrerHost(referer: string | null): string | null {
  if (!referer || referer.length > 2048) return null
  try {
    const url = new URL(referer)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase().slice(0, 253) : null
  } catch {
    return null
  }
}

const DEVICE_CACHE_SIZE = 2000
const devices = new Map<string, { device: DeviceClass; browser: string | null }>()

/** The device class and browser name of a user agent (parsing costs ~40 µs: the last 2000 are kept). */
export function deviceOf(userAgent: string): { device: DeviceClass; browser: string | null } {
  const known = devices.get(userAgent)
  if (known) return known
  const result = new UAParser(userAgent.slice(0, 1024)).getResult()
  const type = result.device.type
  const device: DeviceClass = type === undefined ? 'desktop' : type === 'mobile' ? 'mobile' : type === 'tablet' ? 'tablet' : 'other'
  const found = { device, browser: campaignValue(result.browser.name)?.slice(0, 64) ?? null }
  if (devices.size >= DEVICE_CACHE_SIZE) devices.delete(devices.keys().next().value!)
  devices.set(userAgent, found)
  return found
}

/** An ISO 3166-1 alpha-2 code as a trusted header or a database gives it; null for unknown ones (Cloudflare's XX and T1 included). */
export function countryCode(value: string | null | undefined): string | null {
  if (!value) return null
  const code = value.trim().toUpperCase()
  return /^[A-Z]{2}$/.test(code) && code !== 'XX' && code !== 'T1' ? code : null
}
