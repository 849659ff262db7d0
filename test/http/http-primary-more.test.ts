// Route tests, primary shape (referrals, coupons, payouts, clicks): success shapes and the
// errors docs/api.md lists, run in process and once more through a real node:http server.
import { describe, expect, test } from 'vitest'
import { ISO, startsVia } from '../support/http/helpers.js'
import { inProcess, nodeHttp } from '../support/http/transports.js'

describe.each([inProcess, nodeHttp])('primary shape (referrals, coupons, payouts) via $name', (transport) => {
  const { start, withAffiliate } = startsVia(transport)

  describe('referrals', () => {
    test('POST 201 with the listed fields; 400, 404 unknown affiliate, 409 duplicate', async () => {
      const s = await start()
      const ann = await withAffiliate(s)
      const created = await s.call('POST', '/referrals', { email: 'ref@example.com', affiliate_id: ann.id })
      expect(created.status).toBe(201)
      expect(created.body.data).toEqual({
        id: expect.any(Number),
        user_email: 'ref@example.com',
        affiliate_id: ann.id,
        conversion_status: 'pending',
        conversion_date: null,
        created_at: '2026-03-01T00:00:00.000Z',
      })
      const direct = await s.call('POST', '/referrals', { email: 'direct@example.com', status: 'direct' })
      expect(direct.body.data).toMatchObject({ affiliate_id: null, conversion_status: 'direct', conversion_date: expect.stringMatching(ISO) })
      expect((await s.call('POST', '/referrals', { email: 'bad' })).status).toBe(400)
      expect((await s.call('POST', '/referrals', { email: 'x@example.com', status: 'gone' })).status).toBe(400)
      expect((await s.call('POST', '/referrals', { email: 'x@example.com', affiliate_id: 999 })).status).toBe(404)
      expect((await s.call('POST', '/referrals', { email: 'REF@example.com' })).status).toBe(409)
      expect((await s.call('GET', '/affiliates/ann%40example.com')).body.data.signups).toBe(1)
    })

    test('GET list with affiliate_code and filters; GET /:email; PUT disassociates and stamps conversion_date', async () => {
      const s = await start()
      const ann = await withAffiliate(s, 'ann@example.com', { referral_code: 'ANN1' })
      await s.call('POST', '/referrals', { email: 'r1@example.com', affiliate_id: ann.id })
      s.clock.advance({ seconds: 1 })
      await s.call('POST', '/referrals', { email: 'r2@example.com' })
      const list = await s.call('GET', '/referrals')
      expect(list.body.pagination).toEqual({ limit: 20, offset: 0, total: 2, has_more: false })
      expect(list.body.data[1]).toMatchObject({ user_email: 'r1@example.com', affiliate_code: 'ANN1' })
      expect((await s.call('GET', `/referrals?affiliate_id=${ann.id}`)).body.data).toHaveLength(1)
      expect((await s.call('GET', '/referrals?status=converted')).body.data).toHaveLength(0)
      expect((await s.call('GET', '/referrals?status=nope')).status).toBe(400)
      const one = await s.call('GET', '/referrals/r1%40example.com')
      expect(one.body.data).toMatchObject({ user_email: 'r1@example.com', affiliate_id: ann.id, affiliate_code: 'ANN1' })
      expect((await s.call('GET', '/referrals/zz%40example.com')).status).toBe(404)
      expect((await s.call('GET', '/referrals/zz')).status).toBe(400)
      const converted = await s.call('PUT', '/referrals/r1%40example.com', { status: 'converted' })
      expect(converted.body.data).toMatchObject({ conversion_status: 'converted', conversion_date: '2026-03-01T00:00:01.000Z' })
      const detached = await s.call('PUT', '/referrals/r1%40example.com', { affiliate_id: null })
      expect(detached.body.data).toMatchObject({ affiliate_id: null, conversion_status: 'converted' })
      expect((await s.call('PUT', '/referrals/r1%40example.com', { affiliate_id: 999 })).status).toBe(404)
      expect((await s.call('PUT', '/referrals/r1%40example.com', { email: 'r2@example.com' })).status).toBe(409)
      expect((await s.call('PUT', '/referrals/none%40example.com', { status: 'direct' })).status).toBe(404)
    })
  })

  describe('coupons', () => {
    test('create, retrieve, list with filters, update, delete; 400, 404, 409', async () => {
      const s = await start()
      const ann = await withAffiliate(s)
      const created = await s.call('POST', '/coupons', { affiliate_id: ann.id, coupon_code: 'SAVE10', processor_coupon_id: 'co_1' })
      expect(created.status).toBe(201)
      expect(created.body.data).toEqual({ id: expect.any(Number), affiliate_id: ann.id, coupon_code: 'SAVE10', status: 'active', processor_coupon_id: 'co_1', stripe_coupon_id: 'co_1', lemonsqueezy_discount_code: 'co_1', created_at: '2026-03-01T00:00:00.000Z' })
      const id = created.body.data.id
      expect((await s.call('POST', '/coupons', { affiliate_id: ann.id, coupon_code: 'SAVE10' })).status).toBe(409)
      expect((await s.call('POST', '/coupons', { affiliate_id: 999, coupon_code: 'OTHER' })).status).toBe(404)
      expect((await s.call('POST', '/coupons', { coupon_code: 'OTHER' })).status).toBe(400)
      expect((await s.call('GET', `/coupons/${id}`)).body.data).toEqual(created.body.data)
      expect((await s.call('GET', '/coupons?coupon_code=SAVE10')).body.pagination.total).toBe(1)
      expect((await s.call('GET', '/coupons?affiliate_id=999')).body.pagination.total).toBe(0)
      const updated = await s.call('PUT', `/coupons/${id}`, { coupon_code: 'SAVE20' })
      expect(updated.body.data.coupon_code).toBe('SAVE20')
      expect((await s.call('GET', '/coupons/x')).status).toBe(400)
      expect((await s.call('DELETE', `/coupons/${id}`)).status).toBe(204)
      expect((await s.call('GET', `/coupons/${id}`)).status).toBe(404)
    })
  })

  describe('payouts and clicks', () => {
    test('POST /payouts settles and answers the payout; 400 over the balance; GET list and /:id', async () => {
      const s = await start()
      const ann = await withAffiliate(s)
      await s.call('POST', '/conversions', { type: 'purchase', affiliate_id: ann.id, base_value: 10, value: 3 })
      await s.call('POST', '/conversions', { type: 'purchase', affiliate_id: ann.id, base_value: 10, value: 4 })
      expect((await s.call('POST', '/payouts', { affiliate_id: ann.id, amount: 7.01 })).status).toBe(400)
      expect((await s.call('POST', '/payouts', { amount: 1 })).status).toBe(400)
      expect((await s.call('POST', '/payouts', { affiliate_email: 'zz@example.com', amount: 1 })).status).toBe(404)
      const payout = await s.call('POST', '/payouts', { affiliate_email: 'ann@example.com', amount: 3, method: 'paypal' })
      expect(payout.status).toBe(201)
      expect(payout.body.data).toEqual({
        id: expect.any(Number),
        affiliate_id: ann.id,
        affiliate_email: 'ann@example.com',
        amount: '3.00',
        status: 'Paid',
        payment_method: 'paypal',
        payment_date: '2026-03-01T00:00:00.000Z',
        conversions_settled: 1,
        unpaid_earnings_after: 4,
      })
      expect((await s.call('GET', '/affiliates/ann%40example.com')).body.data.unpaid_earnings).toBe('4.00')
      const list = await s.call('GET', '/payouts?limit=1000')
      expect(list.body.pagination).toEqual({ limit: 200, offset: 0, total: 1, has_more: false })
      expect((await s.call('GET', `/payouts/${payout.body.data.id}`)).body.data).toEqual(payout.body.data)
      expect((await s.call('GET', '/payouts/12345')).status).toBe(404)
    })

    test('POST /clicks counts a click (201); unknown code 404; missing code 400', async () => {
      const s = await start()
      const ann = await withAffiliate(s, 'ann@example.com', { referral_code: 'ANN1' })
      const click = await s.call('POST', '/clicks', { referral_code: 'ANN1', ip_address: '203.0.113.9', landing_url: 'https://shop.example/?ref=ANN1' })
      expect(click.status).toBe(201)
      expect(click.body.data).toEqual({ id: expect.any(Number), affiliate_id: ann.id, created_at: '2026-03-01T00:00:00.000Z' })
      expect((await s.call('POST', '/clicks', { referral_code: 'NOPE1' })).status).toBe(404)
      expect((await s.call('POST', '/clicks', {})).status).toBe(400)
      expect((await s.call('GET', '/affiliates/ann%40example.com')).body.data.clicks).toBe(1)
    })
  })
})
