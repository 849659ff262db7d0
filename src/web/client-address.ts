// Who is asking, for the per-client limits of the sign-in pages and the referral links: the
// connected address (node:http gives it; a Fetch host passes it as `{ clientAddress }`), or with
// trustProxy the address the proxy in front appended to X-Forwarded-For. Never the Host header,
// and no forwarded header unless trustProxy says a proxy of the host's own sets it.
import ipaddr from 'ipaddr.js'

export interface ClientInfo {
  /** The connected client's IP address, as the server saw it. */
  clientAddress?: string
}

/**
 * The client's address (at most 64 characters) from the X-Forwarded-For header and the connected
 * address; null when neither the server nor a trusted proxy says it.
 */
export function forwardedClient(forwardedFor: string | null, connected: string | undefined, trustProxy: boolean): string | null {
  // With a proxy, the last entry is the one it appended; earlier ones are whatever the client sent.
  const address = (trustProxy ? withoutPort(forwardedFor?.split(',').at(-1)?.trim()) : undefined) || connected
  return address ? address.slice(0, 64) : null
}

/** Some proxies write the client's source port too (`203.0.113.9:41234`, `[2001:db8::9]:443`); a new port is not a new client. */
function withoutPort(entry: string | undefined): string | undefined {
  const match = entry === undefined ? null : (/^\[([^\]]+)\](?::\d+)?$/.exec(entry) ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry))
  return match ? match[1] : entry
}

/** The client address of a Fetch request (see forwardedClient). */
export function clientAddress(request: Request, info: ClientInfo | undefined, trustProxy: boolean): string | null {
  return forwardedClient(request.headers.get('x-forwarded-for'), info?.clientAddress, trustProxy)
}

/**
 * What a per-client limit counts: an IPv4 address whole (also IPv4-mapped), an IPv6 address by its
 * /64, the block a single subscriber usually holds (counting each of its addresses would not
 * limit anyone); anything unparsable as given.
 */
export function addressBlock(address: string): string {
  const bare = address.split('%')[0]!
  if (!ipaddr.isValid(bare)) return address
  const parsed = ipaddr.process(bare)
  if (parsed.kind() === 'ipv4') return parsed.toString()
  return `${(parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`
}
