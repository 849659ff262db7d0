// Who posts a signed-out form, for the per-client sign-in limits: the connected address (node:http
// gives it; a Fetch host passes it as `{ clientAddress }`), or with trustProxy the address the
// proxy in front appended to X-Forwarded-For. Never the Host header, and no forwarded header
// unless trustProxy says a proxy of the host's own sets it.

export interface ClientInfo {
  /** The connected client's IP address, as the server saw it. */
  clientAddress?: string
}

/** The client's address (at most 64 characters); null when neither the server nor a trusted proxy says it. */
export function clientAddress(request: Request, info: ClientInfo | undefined, trustProxy: boolean): string | null {
  // With a proxy, the last entry is the one it appended; earlier ones are whatever the client sent.
  const address = (trustProxy ? request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() : undefined) || info?.clientAddress
  return address ? address.slice(0, 64) : null
}

/**
 * What a per-client limit counts: an IPv4 address whole, an IPv6 address by its /64, the block a
 * single subscriber usually holds (counting each of its addresses would not limit anyone).
 */
export function addressBlock(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped) return mapped[1]!
  if (!address.includes(':')) return address
  const bare = address.split('%')[0]!.toLowerCase()
  const [head = '', tail] = bare.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0')
  const groups = [...left, ...zeros, ...right].slice(0, 4).map((group) => group.replace(/^0+(?=.)/, ''))
  return `${groups.join(':')}::/64`
}
