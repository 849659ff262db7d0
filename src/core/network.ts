// Which IP addresses webhooks may not reach (docs/webhooks.md "Private networks", SSRF guard). Pure: the core uses it
// to refuse literal hosts at save time, src/webhooks uses it on the address actually connected to.
import { isIP } from 'node:net'

type Range = [prefix: number[], bits: number]

// IPv4 ranges, as [first octets, prefix length].
const V4: Range[] = [
  [[0], 8], // "this" network
  [[10], 8],
  [[100, 64], 10], // CGNAT
  [[127], 8],
  [[169, 254], 16], // link-local
  [[172, 16], 12],
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 168], 16],
  [[198, 18], 15], // benchmarking
  [[224], 4], // multicast
  [[240], 4], // reserved and broadcast
]

// IPv6 ranges, as [first bytes, prefix length]. Mapped / compatible / 6to4 forms are unwrapped.
const V6: Range[] = [
  [[0xfc], 7], // unique local
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // site-local (deprecated)
  [[0xff], 8], // multicast
  [[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96], // NAT64
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48], // local-use NAT64
]

function inRange(bytes: number[], [prefix, bits]: Range): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const index = bit >> 3
    const mask = 0x80 >> (bit & 7)
    if (((bytes[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false
  }
  return true
}

function v4Bytes(address: string): number[] {
  return address.split('.').map(Number)
}

/** Parses an IPv6 text (optionally with a zone or a dotted IPv4 tail) into 16 bytes. */
function v6Bytes(text: string): number[] {
  const address = text.replace(/%.*$/, '')
  let head = address
  let tail: number[] = []
  const dotted = address.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    head = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1)
    tail = v4Bytes(dotted[2]!)
  }
  const toBytes = (part: string): number[] =>
    part === '' ? [] : part.split(':').flatMap((group) => {
      const value = parseInt(group, 16)
      return [value >> 8, value & 0xff]
    })
  const [left = '', right] = head.split('::')
  const leftBytes = toBytes(left)
  const rightBytes = [...(right === undefined ? [] : toBytes(right)), ...tail]
  const fill = 16 - leftBytes.length - rightBytes.length
  return [...leftBytes, ...new Array<number>(Math.max(0, fill)).fill(0), ...rightBytes]
}

function forbiddenV4(bytes: number[]): boolean {
  return V4.some((range) => inRange(bytes, range))
}

function forbiddenV6(bytes: number[]): boolean {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0)
  if (zeros(0, 16)) return true // unspecified
  if (zeros(0, 15) && bytes[15] === 1) return true // loopback
  const embedded = bytes.slice(12, 16)
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return forbiddenV4(embedded)
  if (zeros(0, 12)) return forbiddenV4(embedded)
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return forbiddenV4(embedded)
  // 6to4 2002:a.b.c.d::/48 embeds an IPv4 address
  if (bytes[0] === 0x20 && bytes[1] === 0x02 && forbiddenV4(bytes.slice(2, 6))) return true
  return V6.some((range) => inRange(bytes, range))
}

/**
 * True when the address is loopback, private, link-local, CGNAT, reserved, multicast, NAT64 or an
 * IPv4-mapped / compatible form of one of these. Non-IP text is not an address: false.
 */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const version = isIP(bare.replace(/%.*$/, ''))
  if (version === 4) return forbiddenV4(v4Bytes(bare))
  if (version === 6) return forbiddenV6(v6Bytes(bare))
  return false
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
