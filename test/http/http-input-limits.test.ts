// Inputs past what a storage can hold get the same 400 on memory, PGlite and PostgreSQL: deeply
// nested bodies, offsets past 2^31, NUL characters in path values, dates outside years 1000..9999.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { caller, setup, type Setup } from '../support/http/helpers.js'
import { STORAGES } from '../support/http/storages.js'

/** A 7 KB body nested 3,600 levels deep, under a field each route knows. */
const deepBody = (field: string) => `{"${field}":${'['.repeat(3600)}${']'.repeat(3600)}}`
const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { level: nested(depth - 1) })

const WRITES: Array<[method: string, path: string, field: string]> = [
  ['POST', '/affiliates', 'email'],
  ['PUT', '/affiliates/ann%40example.com', 'email'],
  ['POST', '/referrals', 'email'],
  ['PUT', '/referrals/ref%40example.com', 'email'],
  ['POST', '/conversions', 'type'],
  ['PUT', '/conversions/1', 'value'],
  ['POST', '/coupons', 'coupon_code'],
  ['PUT', '/coupons/1', 'coupon_code'],
  ['POST', '/payouts', 'amount'],
  ['POST', '/clicks', 'referral_code'],
]

for (const storage of STORAGES) {
  describe.skipIf(storage.skip)(`input limits on ${storage.name}${storage.skip ? ` (skipped: ${storage.skip})` : ''}`, () => {
    let s: Setup
    let alt: Setup['call']
    let cleanup: () => Promise<void>

    beforeAll(async () => {
      const made = storage.make()
      cleanup = made.cleanup
      s = await setup({ storage: made.storage })
      alt = caller(createHandler(s.program, { shape: 'alternative', rateLimit: false }), s.key)
      const ann = await s.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN1' })
      await s.program.referrals.create({ email: 'ref@example.com', affiliateId: ann.id })
      await s.program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: '100.00', reference: 'c-1' })
      await s.program.coupons.create({ affiliateId: ann.id, code: 'ANN10' })
    })
    afterAll(async () => {
      await cleanup()
    })

    test('item 4: a body nested 3,600 levels deep is 400 on every write route, in both shapes', async () => {
      for (const call of [s.call, alt]) {
        for (const [method, path, field] of WRITES) {
          const reply = await call(method, path, undefined, { raw: deepBody(field) })
          expect(reply.status, `${method} ${path}`).toBe(400)
          expect(reply.text, `${method} ${path}`).toContain('nested deeper than 32 levels')
        }
      }
      // Up to the limit a body is read normally (customFields accepts any JSON object).
      const ok = await alt('POST', '/affiliates', { email: 'deep@example.com', name: 'Deep', customFields: nested(30) })
      expect(ok.status).toBe(201)
      const tooDeep = await alt('POST', '/affiliates', { email: 'deeper@example.com', name: 'Deeper', customFields: nested(32) })
      expect(tooDeep.status).toBe(400)
      expect(tooDeep.body.error.details.field).toMatch(/^customFields(\.level)+$/)
    })

    test('item 5: offsets up to 2^31 - 1 page normally; past it is 400 naming offset', async () => {
      const last = await s.call('GET', '/affiliates?offset=2147483647')
      expect(last.status).toBe(200)
      expect(last.body.data).toEqual([])
      expect(last.body.pagination).toMatchObject({ offset: 2147483647, total: 2 })
      for (const offset of ['2147483648', '4294967296', '999999999999999']) {
        for (const path of ['/affiliates', '/referrals', '/conversions', '/coupons', '/payouts']) {
          const reply = await s.call('GET', `${path}?offset=${offset}`)
          expect(reply.status, `${path}?offset=${offset}`).toBe(400)
          expect(reply.body.error).toBe('offset: must be at most 2147483647')
        }
        expect((await alt('GET', `/affiliates?offset=${offset}`)).status).toBe(400)
      }
      await expect(s.program.affiliates.list({ offset: 2 ** 31 })).rejects.toMatchObject({ code: 'invalid_request', field: 'offset' })
    })

    test('item 5: NUL in any path value is 400 naming the parameter', async () => {
      const targets: Array<[string, string, string]> = [
        ['GET', '/affiliates/ann%00%40example.com', 'email'],
        ['PUT', '/affiliates/%00', 'email'],
        ['DELETE', '/affiliates/ann%40example.com%00', 'email'],
        ['GET', '/referrals/ref%40example.com%00', 'email'],
        ['PUT', '/referrals/%00', 'email'],
        ['GET', '/conversions/1%00', 'id'],
        ['GET', '/coupons/%00', 'id'],
        ['DELETE', '/coupons/%001', 'id'],
        ['GET', '/payouts/%00', 'id'],
      ]
      for (const [method, path, field] of targets) {
        const body = method === 'PUT' ? {} : undefined
        for (const call of [s.call, alt]) {
          const reply = await call(method, path, body)
          expect(reply.status, `${method} ${path}`).toBe(400)
          expect(reply.text, `${method} ${path}`).toContain(field)
        }
      }
      const query = await s.call('GET', '/coupons?coupon_code=%00')
      expect(query.status).toBe(400)
      expect(query.body.error).toMatch(/^coupon_code: /)
      expect((await s.call('GET', '/affiliates/ann%40example.com')).status).toBe(200)
    })

    test('item 5: dates outside years 1000..9999 are 400 in bodies and queries; the bounds are kept exactly', async () => {
      for (const date of ['-100000-01-01', '+275760-09-13', '0000-01-01', '0000-12-31T23:59:59.999Z', '0999-12-31T23:59:59.999Z', '1000-01-01T00:00:00+01:00', '+010000-01-01']) {
        const payout = await s.call('POST', '/payouts', { affiliate_id: 1, amount: 1, payment_date: date })
        expect(payout.status, date).toBe(400)
        expect(payout.body.error, date).toBe('payment_date: must be a date between 1000-01-01 and 9999-12-31 (UTC)')
      }
      for (const date of ['0000-01-01', '0001-01-01', '0999-12-31T23:59:59Z', '-100000-01-01', '+275760-09-13']) {
        for (const name of ['from', 'to']) {
          const reply = await s.call('GET', `/conversions?${name}=${encodeURIComponent(date)}`)
          expect(reply.status, `${name}=${date}`).toBe(400)
          expect(reply.body.error, `${name}=${date}`).toMatch(new RegExp(`^${name}: `))
        }
      }
      await expect(s.program.conversions.list({ from: new Date(Date.UTC(-1, 0, 1)) })).rejects.toMatchObject({ field: 'from' })
      // A day past its month's end is refused, not rolled over into the next month.
      for (const date of ['2026-02-29', '2026-02-30', '2026-04-31T10:00:00Z', '2026-13-01']) {
        const payout = await s.call('POST', '/payouts', { affiliate_id: 1, amount: 1, payment_date: date })
        expect(payout.status, date).toBe(400)
        expect(payout.body.error, date).toBe('payment_date: must be an ISO 8601 date')
        expect((await s.call('GET', `/conversions?from=${date}`)).status, date).toBe(400)
      }
      const range = await s.call('GET', '/conversions?from=1000-01-01&to=9999-12-31T23:59:59.999Z')
      expect(range.status).toBe(200)
      expect(range.body.pagination.total).toBe(1)
      const earliest = await s.call('POST', '/payouts', { affiliate_id: 1, amount: 1, payment_date: '1000-01-01T00:00:00.000Z' })
      expect(earliest.status).toBe(201)
      expect(earliest.body.data.payment_date).toBe('1000-01-01T00:00:00.000Z')
      const latest = await s.call('POST', '/payouts', { affiliate_id: 1, amount: 1, payment_date: '9999-12-31T23:59:59.999Z' })
      expect(latest.status).toBe(201)
      expect(latest.body.data.payment_date).toBe('9999-12-31T23:59:59.999Z')
      const listed = await s.call('GET', '/payouts')
      expect(listed.body.data.map((payout: { payment_date: string }) => payout.payment_date).sort()).toEqual(['1000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z'])
    })
  })
}
