// Where a link sends its visitor (docs/links.md "UTM defaults"): its destination, else the landing
// URL, with each UTM parameter the link sets that the URL does not name already.
import type { Link } from '../model/types.js'

type LinkTarget = Pick<Link, 'destination' | 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmTerm' | 'utmContent'>

/** Each UTM query parameter and the link's field holding its default. */
export const UTM_PARAMETERS = [
  ['utm_source', 'utmSource'],
  ['utm_medium', 'utmMedium'],
  ['utm_campaign', 'utmCampaign'],
  ['utm_term', 'utmTerm'],
  ['utm_content', 'utmContent'],
] as const

/**
 * The URL a visit through the link goes to; `landingUrl` for a link without a destination. The
 * URL's own query stays as written (not re-encoded); the parameters are appended after it.
 */
export function linkDestination(link: LinkTarget, landingUrl: string): string {
  const url = new URL(link.destination ?? landingUrl)
  const added = UTM_PARAMETERS.filter(([parameter, field]) => link[field] !== null && !url.searchParams.has(parameter)).map(
    ([parameter, field]) => `${parameter}=${encodeURIComponent(link[field]!)}`,
  )
  if (added.length > 0) url.search = `${url.search === '' ? '' : `${url.search}&`}${added.join('&')}`
  return url.href
}
