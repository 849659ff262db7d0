// isForbiddenAddress, the SSRF guard's classification: every refused range (first and last
// address where it matters), their IPv4-mapped IPv6 forms, and public addresses that must pass.
import { describe, expect, it } from 'vitest'
import { isForbiddenAddress } from '../../src/webhooks/index.js'

const FORBIDDEN_V4: Array<[range: string, addresses: string[]]> = [
  ['0.0.0.0/8 this network', ['0.0.0.0', '0.255.255.255']],
  ['10.0.0.0/8 private', ['10.0.0.1', '10.255.255.255']],
  ['100.64.0.0/10 CGNAT', ['100.64.0.0', '100.127.255.255']],
  ['127.0.0.0/8 loopback', ['127.0.0.1', '127.255.255.254']],
  ['169.254.0.0/16 link-local', ['169.254.169.254']],
  ['172.16.0.0/12 private', ['172.16.0.1', '172.31.255.255']],
  ['192.0.0.0/24 IETF protocol assignments', ['192.0.0.8']],
  ['192.0.2.0/24 documentation (TEST-NET-1)', ['192.0.2.0', '192.0.2.1', '192.0.2.255']],
  ['192.168.0.0/16 private', ['192.168.1.1']],
  ['198.18.0.0/15 benchmarking', ['198.18.0.1', '198.19.255.255']],
  ['198.51.100.0/24 documentation (TEST-NET-2)', ['198.51.100.0', '198.51.100.7', '198.51.100.255']],
  ['203.0.113.0/24 documentation (TEST-NET-3)', ['203.0.113.0', '203.0.113.9', '203.0.113.255']],
  ['224.0.0.0/4 multicast', ['224.0.0.1', '239.255.255.255']],
  ['240.0.0.0/4 reserved and broadcast', ['240.0.0.1', '255.255.255.255']],
]

const FORBIDDEN_V6: Array<[range: string, addresses: string[]]> = [
  ['::/128 unspecified', ['::']],
  ['::1/128 loopback', ['::1', '0:0:0:0:0:0:0:1']],
  ['2001:db8::/32 documentation', ['2001:db8::', '2001:db8::1', '2001:DB8:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['2001::/32 Teredo', ['2001::', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['100::/64 discard-only', ['100::', '100::1', '100::ffff:ffff:ffff:ffff']],
  ['fc00::/7 unique local', ['fc00::1', 'fd12:3456::1']],
  ['fe80::/10 link-local', ['fe80::1', 'fe80::1%eth0', 'febf::1']],
  ['fec0::/10 site-local', ['fec0::1']],
  ['ff00::/8 multicast', ['ff02::1']],
  ['64:ff9b::/96 NAT64', ['64:ff9b::a00:1', '64:ff9b::8.8.8.8']],
  ['64:ff9b:1::/48 local-use NAT64', ['64:ff9b:1::1']],
  ['2002::/16 6to4', ['2002:7f00:1::1', '2002:808:808::1']],
  ['2001::/23 IETF protocol assignments (like 192.0.0.0/24)', ['2001:1::1', '2001:1ff:ffff::1']],
  ['2001:2::/48 benchmarking', ['2001:2::1']],
  ['2001:10::/28 ORCHID', ['2001:10::1']],
  ['3fff::/20 documentation', ['3fff::1']],
  ['IPv4-compatible forms of refused IPv4 addresses (deprecated)', ['::127.0.0.1', '::10.0.0.1', '::7f00:1', '::a00:1']],
  ['::ffff:0:a.b.c.d IPv4-translated', ['::ffff:0:127.0.0.1']],
  ['outside 2000::/3 (unassigned)', ['4000::1', '1::1']],
]

/** IPv4-mapped forms of every forbidden IPv4 range: dotted, hexadecimal, and bracketed. */
function mappedForms(address: string): string[] {
  const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number]
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16)
  return [`::ffff:${address}`, `::ffff:${hex(a, b)}:${hex(c, d)}`, `[::ffff:${address}]`, `0:0:0:0:0:FFFF:${address}`]
}

describe('isForbiddenAddress', () => {
  it.each(FORBIDDEN_V4)('refuses %s, also in its IPv4-mapped IPv6 forms', (_range, addresses) => {
    for (const address of addresses) {
      expect(isForbiddenAddress(address), address).toBe(true)
      for (const mapped of mappedForms(address)) expect(isForbiddenAddress(mapped), mapped).toBe(true)
    }
  })

  it.each(FORBIDDEN_V6)('refuses %s', (_range, addresses) => {
    for (const address of addresses) {
      expect(isForbiddenAddress(address), address).toBe(true)
      expect(isForbiddenAddress(`[${address}]`), `[${address}]`).toBe(true)
    }
  })

  it('lets public unicast addresses through, also next to the refused ranges and in IPv4-mapped form', () => {
    const publicAddresses = [
      '8.8.8.8',
      '1.1.1.1',
      '100.128.0.1', // just past CGNAT
      '100.63.255.255', // just before CGNAT
      '172.32.0.1', // just past 172.16/12
      '192.0.1.255', // between 192.0.0/24 and 192.0.2/24
      '192.0.3.1',
      '198.20.0.1', // past benchmarking
      '198.51.99.255', // just before TEST-NET-2
      '198.51.101.0', // just past TEST-NET-2
      '203.0.112.255', // just before TEST-NET-3
      '203.0.114.0', // just past TEST-NET-3
      '2606:4700:4700::1111',
      '2001:4860:4860::8888', // Google DNS: 2001:4860::/32 is outside Teredo's 2001::/32
      '2001:db9::1', // just past the documentation /32
      '2001:200::1', // just past 2001::/23
      '2a00:1450:4001::1',
      '3fff:1000::1', // just past 3fff::/20
    ]
    for (const address of publicAddresses) expect(isForbiddenAddress(address), address).toBe(false)
    for (const address of ['8.8.8.8', '203.0.114.0', '198.51.101.0']) {
      for (const mapped of mappedForms(address)) expect(isForbiddenAddress(mapped), mapped).toBe(false)
    }
  })

  it('is false for text that is not an IP address (names are checked once resolved)', () => {
    for (const text of ['example.com', 'localhost', '', '1.2.3', '::ffff:1.2.3.256', '2130706433']) {
      expect(isForbiddenAddress(text), text).toBe(false)
    }
  })
})
