// Which IP addresses webhooks may not reach (docs/webhooks.md "Private networks", SSRF guard). Pure:
// the core uses it to refuse literal hosts at save time, src/webhooks uses it on the address
// actually connected to. Classification comes from ipaddr.js, whose tables follow the IANA
// special-purpose registries (documentation, Teredo, NAT64, ORCHID, discard-only...): anything it
// does not call plain unicast is refused, so a range it learns later is refused too.
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/** Global unicast: IPv6 outside it is unassigned or special (IPv4-compatible ::a.b.c.d included). */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3')

/**
 * True when the address is not a public unicast address: loopback, private, link-local, CGNAT,
 * documentation, benchmarking, reserved, multicast, Teredo, 6to4, NAT64, discard-only, IPv6
 * outside 2000::/3, or an IPv4-mapped form of any of the IPv4 ones. Non-IP text: false.
 */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  if (isIP(bare.replace(/%.*$/, '')) === 0) return false
  // process() turns IPv4-mapped ::ffff:a.b.c.d into the IPv4 address it stands for.
  const parsed = ipaddr.process(bare)
  if (parsed.range() !== 'unicast') return true
  return parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST)
}

/**
 * Save-time check of a webhook URL's literal host: IP literals in a forbidden range and
 * `localhost` names. Hosts that merely resolve there are caught at send time.
 */
export function isForbiddenHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  return isForbiddenAddress(host)
}
