// The request target's fast path must read every target exactly as WHATWG URL parsing does
// (dot segments, backslashes, percent-encoding, query decoding), which the router relies on.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseTarget } from '../../src/server/target.js'

function viaUrl(target: string) {
  const url = new URL(`http://localhost${target}`)
  return { path: url.pathname, query: [...url.searchParams] }
}

const pieces = ['/', '.', '..', '%2e', '%2E', '%40', '%', 'a', 'Z', '9', '@', '-', '_', '~', '\\', '?', '#', '&', '=', '+', ' ', '"', '<', '{', '`', "'", 'é', '\t', 'affiliates', 'ann@example.com']
const target = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => `/${parts.join('')}`)

describe('parseTarget', () => {
  test('agrees with WHATWG URL parsing on generated targets', () => {
    fc.assert(
      fc.property(target, (raw) => {
        const parsed = parseTarget(raw)
        expect({ path: parsed.path, query: [...parsed.query] }).toEqual(viaUrl(raw))
      }),
      { numRuns: 5000 },
    )
  })

  test('plain targets and the ones URL parsing rewrites', () => {
    expect(parseTarget('/api/v1/affiliates/ann%40example.com').path).toBe('/api/v1/affiliates/ann%40example.com')
    expect([...parseTarget('/api/v1/conversions?limit=5&paid=true').query]).toEqual([['limit', '5'], ['paid', 'true']])
    expect(parseTarget('/api/v1/affiliates/../conversions').path).toBe('/api/v1/conversions')
    expect(parseTarget('/api/v1/%2e%2E/v1/payouts').path).toBe('/api/v1/payouts')
    expect(parseTarget('/api\\v1\\payouts').path).toBe('/api/v1/payouts')
    expect(parseTarget('/api/v1/affiliates/a b').path).toBe('/api/v1/affiliates/a%20b')
    expect([...parseTarget('/x?q=a%20b+c#frag').query]).toEqual([['q', 'a b c']])
  })
})
