// Fuzz: thousands of generated malformed requests (bad JSON, wrong types, huge numbers, odd
// unicode, deeply nested bodies, offsets past 2^31, dates out of range, NUL and path tricks in
// every path value, missing or garbage auth) never get a 5xx and change nothing, on memory,
// PGlite and PostgreSQL.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import type { AffiliateProgram, StoragePort } from '../../src/index.js'
import { setup } from '../support/http/helpers.js'
import { STORAGES } from '../support/http/storages.js'

/** Requests per storage: the SQL storages answer each one in a few milliseconds, memory in well under one. */
const RUNS: Record<string, number> = { memory: 6000, pglite: 1500, postgres: 4000 }

async function snapshot(program: AffiliateProgram): Promise<string> {
  const lists = await Promise.all([
    program.affiliates.list({ limit: 100 }),
    program.referrals.list({ limit: 100 }),
    program.conversions.list({ limit: 100 }),
    program.coupons.list({ limit: 100 }),
    program.payouts.list({ limit: 200 }),
  ])
  return JSON.stringify(lists)
}

const oddText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '\ufeff', '\ud800', '𝕒@𝕓.𝕔', 'ä'.repeat(300), 'a'.repeat(5000), '<script>', "' OR 1=1 --", '${x}'),
)
// Values that are wrong wherever they appear.
const badMoney = fc.constantFrom(-1, -0.01, 1e12, 1e300, 0.001, 1.2345, 5e-324, 123456789012.5, '10', '1e3', null, true, [], {})
const badId = fc.constantFrom(0, -1, 1.5, 2 ** 53, 1e20, 'one', 'aff_x', true, [], {}, 'aff_', 'aff_0')
const badEmail = fc.oneof(
  oddText.filter((text) => !text.includes('@')),
  fc.constantFrom('a b@c.de', '@x.com', 'x@', 'x@@y.z', `${'a'.repeat(250)}@example.com`, 42, null, [], {}),
)
const badCode = fc.oneof(fc.constantFrom('a', 'zz', 'has space', 'ü-code', '', 'x'.repeat(65), 7, null, []), oddText.filter((t) => !/^[A-Za-z0-9_-]{3,64}$/.test(t.trim())))
const badEnum = fc.oneof(fc.constantFrom('ACTIVE ', 'refund', 'Paid', '', 1, [], {}), oddText)
const badBool = fc.constantFrom('true', 0, 1, 'yes', null, [], {})
const badText = fc.constantFrom(1, true, [], {}, 'x'.repeat(3000))
/** Dates no storage keeps: past year 9999, before year 1000, or not dates at all. */
const badDate = fc.oneof(oddText, fc.constantFrom('-100000-01-01', '+275760-09-13', '+275760-09-14', '0000-01-01', '0001-01-01', '0999-12-31T23:59:59.999Z', '+010000-01-01', '-000001-01-01T00:00:00Z', '2026-02-30'))
/** Arrays or objects nested past the body depth limit (32), up to the 3,600 levels of a 7 KB body. */
const deepValue = fc.integer({ min: 33, max: 4000 }).chain((depth) =>
  fc.constantFrom<unknown>(
    JSON.parse('['.repeat(depth) + ']'.repeat(depth)),
    JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  ),
)

/** Plausible bodies per route, with at least one field replaced by a bad value. */
const BODIES: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
  '/affiliates': { email: badEmail, referral_code: badCode, partner_slug: badText, payment_method: badText, name: badText, referralCode: badCode, parent_affiliate_id: badId },
  '/conversions': { type: badEnum, affiliate_id: badId, referral_code: badCode, email: badEmail, value: badMoney, base_value: badMoney, base_value_currency: badEnum, paid: badBool, reference: badText, customer_email: badEmail, amount: badMoney },
  '/referrals': { email: badEmail, affiliate_id: badId, status: badEnum, referral_code: badCode },
  '/coupons': { affiliate_id: badId, coupon_code: badCode, code: badCode, affiliate_email: badEmail },
  '/payouts': { affiliate_id: badId, affiliate_email: badEmail, amount: badMoney, method: badEnum, payment_date: badDate },
  '/clicks': { referral_code: badCode, ip_address: badText, landing_url: badText },
}
const GOOD: Record<string, Record<string, unknown>> = {
  '/affiliates': { email: 'new@example.com', name: 'New' },
  '/conversions': { type: 'purchase', affiliate_id: 1, base_value: 10, customer_email: 'c@example.com', amount: 10 },
  '/referrals': { email: 'r-new@example.com', affiliate_id: 1, referral_code: 'ANN1' },
  '/coupons': { affiliate_id: 1, coupon_code: 'NEWCODE', code: 'NEWCODE', affiliate_email: 'ann@example.com' },
  '/payouts': { affiliate_id: 1, amount: 1 },
  '/clicks': { referral_code: 'ANN1' },
}

const writeBody = fc.constantFrom(...Object.keys(BODIES)).chain((resource) =>
  fc
    .record({
      bad: fc.uniqueArray(fc.constantFrom(...Object.keys(BODIES[resource]!)), { minLength: 1, maxLength: 3 }).chain((keys) =>
        fc.tuple(...keys.map((key) => BODIES[resource]![key]!.map((value) => [key, value] as const))),
      ),
      extra: fc.option(fc.dictionary(oddText, fc.oneof({ arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 4 }, deepValue), { maxKeys: 2 }), { nil: undefined }),
    })
    .map(({ bad, extra }) => ({ resource, body: { ...GOOD[resource], ...extra, ...Object.fromEntries(bad) } })),
)

const rawBody = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('{', '{"email":', '[', '[]', 'null', '"x"', '12', 'true', '{"a":1,}', "{'a':1}", '\ufeff{}', '{"email":"\\ud800@x.co"}', '{"amount":' + '9'.repeat(400) + '}', '['.repeat(20_000), '{"__proto__":{"admin":true}}', 'NaN'),
  deepValue.map((value) => JSON.stringify({ email: value })),
)
/** A real path value with a NUL character (percent-encoded) inserted somewhere in it. */
function withNul(segment: string): fc.Arbitrary<string> {
  return fc.integer({ min: 0, max: segment.length }).map((at) => `${segment.slice(0, at)}%00${segment.slice(at)}`)
}
const emailSegment = fc.oneof(
  fc.constantFrom('..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%00', '%', '%E0%A4%A', '%40', 'a%40b.c%2F..%2Fx', '%2F', '..', '.', 'aff_', 'aff_0', '0', '-1', '1e3', '%F0%9F%98%80%40x.y', 'x'.repeat(3000)),
  fc.constantFrom('ann%40example.com', 'ref%40example.com', 'aff_1', '1').chain((segment) => withNul(segment)),
  oddText.map((text) => {
    try {
      return encodeURIComponent(text)
    } catch {
      return '%ED%A0%80' // a lone surrogate, UTF-8 encoded anyway
    }
  }),
)
const idSegment = fc.oneof(fc.constantFrom('0', '-1', 'abc', '1e3', '1.0', '%31', ' 1', '\u0663', '99999999999999999999', '1%00', '%2e', '%ZZ'), withNul('1'))
const pathArb = fc.oneof(
  fc.constantFrom('/affiliates', '/conversions', '/referrals', '/coupons', '/payouts', '/clicks', '/nope', '', '/', '//affiliates', '/affiliates/', '/AFFILIATES'),
  emailSegment.map((segment) => `/affiliates/${segment}`),
  emailSegment.map((segment) => `/referrals/${segment}`),
  idSegment.chain((segment) => fc.constantFrom(`/conversions/${segment}`, `/coupons/${segment}`, `/payouts/${segment}`)),
)
const queryArb = fc.option(
  fc.array(
    fc.tuple(
      fc.constantFrom('limit', 'offset', 'offset', 'status', 'type', 'paid', 'from', 'to', 'affiliate_id', 'coupon_code', 'x'),
      fc.oneof(oddText, badDate, fc.constantFrom('-1', '0', '1e400', 'NaN', '1.5', '9'.repeat(30), 'maybe', 'true', '2147483648', '4294967296', '4294967297', '9007199254740993', '999999999999999')),
    ),
    { maxLength: 3 },
  ),
  { nil: [] },
)
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json', undefined, 'APPLICATION/JSON', 'multipart/form-data; boundary=x')
const authArb = fc.oneof(
  { arbitrary: fc.constant<'valid'>('valid'), weight: 6 },
  fc.constantFrom<'revoked' | null>('revoked', null),
  fc.constantFrom('Bearer', 'Bearer ', 'bearer rgk_', 'Bearer rgk_' + 'a'.repeat(70), 'Token x', 'Bearer rgk_' + '0'.repeat(43)),
  oddText.map((text) => `Bearer ${text}`),
)

/** DELETE targets must not decode to a real id or email: those deletes would be valid requests. */
function namesNothing(segment: string): boolean {
  let decoded: string
  try {
    decoded = decodeURIComponent(segment).trim().toLowerCase()
  } catch {
    return true
  }
  return !/^(aff_)?[1-9]\d*$/.test(decoded) && !decoded.endsWith('@example.com')
}

type Fuzz = { method: string; path: string; query: [string, string][]; body: string | undefined; type: string | undefined; auth: string | null; alt: boolean; idem: string | undefined }

const requestArb: fc.Arbitrary<Fuzz> = fc.oneof(
  // Writes with wrong fields, valid auth mostly.
  fc.record({ w: writeBody, method: fc.constantFrom('POST', 'PUT'), auth: authArb, alt: fc.boolean(), type: contentType, idem: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: undefined }) }).map(
    ({ w, method, auth, alt, type, idem }) => ({ method, path: method === 'PUT' ? `${w.resource}/1` : w.resource, query: [], body: JSON.stringify(w.body), type, auth, alt, idem }),
  ),
  // Raw garbage bodies on any write route.
  fc.record({ path: pathArb, method: fc.constantFrom('POST', 'PUT'), body: rawBody, auth: authArb, alt: fc.boolean(), type: contentType }).map((r) => ({ ...r, query: [], idem: undefined })),
  // Reads and path tricks (reads never write), and deletes of things that do not exist.
  fc.record({ path: pathArb, method: fc.constantFrom('GET', 'GET', 'HEAD', 'PATCH', 'OPTIONS'), query: queryArb, auth: authArb, alt: fc.boolean() }).map((r) => ({ ...r, body: undefined, type: undefined, idem: undefined })),
  fc.record({ segment: fc.oneof(emailSegment, idSegment).filter(namesNothing), resource: fc.constantFrom('affiliates', 'conversions', 'coupons'), auth: authArb, alt: fc.boolean() }).map((r) => ({
    method: 'DELETE',
    path: `/${r.resource}/${r.segment}`,
    query: [],
    body: undefined,
    type: undefined,
    auth: r.auth,
    alt: r.alt,
    idem: undefined,
  })),
  // Webhook test route with bad event types.
  fc.record({ eventType: fc.oneof(badEnum, fc.constant(undefined)), project: fc.constantFrom('own', 'own%00', '%00own', 'proj_nope', '..', '%00'), hook: fc.oneof(idSegment, fc.constant('1')), auth: authArb }).map((r) => ({
    method: 'POST',
    path: `/api/project/${r.project}/webhooks/${r.hook}/test`,
    query: [],
    body: JSON.stringify({ eventType: r.eventType }),
    type: 'application/json',
    auth: r.auth,
    alt: false,
    idem: undefined,
  })),
)

/** Sends `runs` generated requests through both shapes of a handler over `port`, checking every answer. */
async function fuzz(port: StoragePort, runs: number): Promise<void> {
  const s = await setup({ storage: port })
  const ann = await s.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN1' })
  await s.program.referrals.create({ email: 'ref@example.com', affiliateId: ann.id })
  await s.program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: '100.00', reference: 'c-1' })
  await s.program.coupons.create({ affiliateId: ann.id, code: 'ANN10' })
  await s.program.payouts.create({ affiliateId: ann.id, amount: '5.00' })
  const revoked = await s.program.keys.create()
  await s.program.keys.revoke(revoked.record.id)
  const errors: unknown[] = []
  const handlers = {
    primary: createHandler(s.program, { rateLimit: { limit: 1_000_000 }, webhooks: s.dispatcher, onError: (error) => errors.push(error) }),
    alternative: createHandler(s.program, { shape: 'alternative', rateLimit: { limit: 1_000_000 }, webhooks: s.dispatcher, onError: (error) => errors.push(error) }),
  }
  const before = await snapshot(s.program)
  const statuses = new Map<number, number>()

  await fc.assert(
    fc.asyncProperty(requestArb, async (r) => {
      const headers = new Headers()
      const auth = r.auth === 'valid' ? `Bearer ${s.key}` : r.auth === 'revoked' ? `Bearer ${revoked.key}` : r.auth
      try {
        if (auth !== null) headers.set('authorization', auth)
        if (r.type) headers.set('content-type', r.type)
        if (r.idem) headers.set('idempotency-key', r.idem)
      } catch {
        return // not a header a client can send
      }
      const path = r.path.startsWith('/api/project/') ? r.path.replace('/project/own', `/project/${s.program.projectId}`) : `/api/v1${r.path}`
      const query = r.query.length ? `?${new URLSearchParams(r.query)}` : ''
      let request: Request
      try {
        request = new Request(`http://fuzz.test${path}${query}`, { method: r.method, headers, ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { body: r.body } : {}) })
      } catch {
        return // not a request a client can send
      }
      const response = await (r.alt ? handlers.alternative : handlers.primary)(request)
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      const text = await response.text()
      expect(response.status, `${r.method} ${path}${query} ${(r.body ?? '').slice(0, 300)} -> ${text}`).toBeLessThan(500)
      if (response.status >= 400) expect(JSON.parse(text).success).toBe(false)
    }),
    { numRuns: runs },
  )
  expect(errors).toEqual([])
  expect(await snapshot(s.program)).toBe(before)
  // The generator reaches validation, not only the auth gate.
  expect(statuses.get(400) ?? 0).toBeGreaterThan(runs / 10)
  expect(statuses.get(401) ?? 0).toBeGreaterThan(runs / 20)
}

for (const storage of STORAGES) {
  const runs = RUNS[storage.name]!
  describe.skipIf(storage.skip)(`fuzz on ${storage.name}${storage.skip ? ` (skipped: ${storage.skip})` : ''}`, () => {
    test(`${runs} malformed requests: never a 5xx, and the stored state is unchanged`, async () => {
      const { storage: port, cleanup } = storage.make()
      try {
        await fuzz(port, runs)
      } finally {
        await cleanup()
      }
    }, 300_000)
  })
}
