// Route tests, primary shape (affiliates, conversions): success shapes and the errors docs/api.md lists,
// run in process and once more through a real node:http server. More in http-primary-more.
import { describe, expect, test } from 'vitest'
import { startsVia } from '../support/http/helpers.js'
import { inProcess, nodeHttp } from '../support/http/transports.js'

describe.each([inProcess, nodeHttp])('primary shape via $name', (transport) => {
  const { start, withAffiliate } = startsVia(transport)

  describe('affiliates', () => {
    test('POST creates with 201, null earnings and a generated code; GET retrieves with stats', async () => {
      const s = await start()
      const created = await s.call('POST', '/affiliates', { email: ' Ann@Example.com ', payment_method: 'paypal', payment_details: 'ann@pp' })
      expect(created.status).toBe(201)
      expect(created.body).toEqual({
        success: true,
        data: {
          id: expect.any(Number),
          user_email: 'ann@example.com',
          referral_code: expect.stringMatching(/^[A-Za-z0-9_-]{3,64}$/),
          unpaid_earnings: null,
          total_earnings: null,
          created_at: '2026-03-01T00:00:00.000Z',
          status: 'active',
        },
      })
      const got = await s.call('GET', `/affiliates/${encodeURIComponent('ANN@example.com')}`)
      expect(got.status).toBe(200)
      expect(got.body.data).toEqual({
        id: created.body.data.id,
        user_email: 'ann@example.com',
        referral_code: created.body.data.referral_code,
        created_at: '2026-03-01T00:00:00.000Z',
        status: 'active',
        clicks: 0,
        signups: 0,
        purchases: 0,
        unpaid_earnings: '0.00',
        total_earnings: '0.00',
        locale: null,
        commission: null,
        incentives: null,
        tier: null,
        tier_progress: null,
      })
    })

    test('POST errors: 400 invalid email / unknown field / wrong type, 409 duplicate email or code', async () => {
      const s = await start()
      const bad = await s.call('POST', '/affiliates', { email: 'not-an-email' })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual({ success: false, error: expect.stringContaining('email') })
      const unknown = await s.call('POST', '/affiliates', { email: 'a@b.co', nickname: 'x' })
      expect(unknown.status).toBe(400)
      expect(unknown.body.error).toContain('nickname')
      const wrongType = await s.call('POST', '/affiliates', { email: 'a@b.co', referral_code: 42 })
      expect(wrongType.status).toBe(400)
      expect(wrongType.body.error).toContain('referral_code')
      await withAffiliate(s, 'a@b.co', { referral_code: 'CODE1' })
      const dupEmail = await s.call('POST', '/affiliates', { email: 'A@B.CO' })
      expect(dupEmail.status).toBe(409)
      const dupCode = await s.call('POST', '/affiliates', { email: 'c@d.co', referral_code: 'CODE1' })
      expect(dupCode.status).toBe(409)
      expect(dupCode.body.error).toMatch(/referral code/)
      expect((await s.call('GET', '/affiliates')).body.pagination.total).toBe(1)
    })

    test('GET /:email errors: 400 invalid email format, 404 not found', async () => {
      const s = await start()
      expect((await s.call('GET', '/affiliates/nobody')).status).toBe(400)
      const missing = await s.call('GET', '/affiliates/nobody%40example.com')
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual({ success: false, error: 'affiliate not found' })
    })

    test('GET list: newest first, pagination, status filter, clamped and checked limits', async () => {
      const s = await start()
      for (let i = 1; i <= 3; i += 1) {
        await withAffiliate(s, `a${i}@example.com`)
        s.clock.advance({ seconds: 1 })
      }
      await s.call('PUT', '/affiliates/a2%40example.com', { status: 'inactive' })
      const page = await s.call('GET', '/affiliates?limit=2&offset=0')
      expect(page.status).toBe(200)
      expect(page.body.data.map((a: { user_email: string }) => a.user_email)).toEqual(['a3@example.com', 'a2@example.com'])
      expect(page.body.pagination).toEqual({ limit: 2, offset: 0, total: 3, has_more: true })
      const inactive = await s.call('GET', '/affiliates?status=inactive')
      expect(inactive.body.data.map((a: { user_email: string }) => a.user_email)).toEqual(['a2@example.com'])
      // Pending and blocked affiliates read as inactive in this shape, so the filter finds them too.
      await s.program.affiliates.update('a1@example.com', { status: 'blocked' })
      const stillInactive = await s.call('GET', '/affiliates?status=inactive')
      expect(stillInactive.body.data.map((a: { user_email: string; status: string }) => [a.user_email, a.status])).toEqual([
        ['a2@example.com', 'inactive'],
        ['a1@example.com', 'inactive'],
      ])
      expect((await s.call('GET', '/affiliates?limit=5000')).body.pagination).toEqual({ limit: 100, offset: 0, total: 3, has_more: false })
      for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'limit=1.5', 'status=gone', 'colour=red']) {
        const res = await s.call('GET', `/affiliates?${query}`)
        expect(res.status, query).toBe(400)
        expect(res.body.error, query).toContain(query.split('=')[0])
      }
    })

    test('PUT updates only the supplied fields; 400, 404 and 409', async () => {
      const s = await start()
      const ann = await withAffiliate(s, 'ann@example.com', { referral_code: 'ANN1' })
      await withAffiliate(s, 'bob@example.com', { referral_code: 'BOB1' })
      const updated = await s.call('PUT', '/affiliates/ann%40example.com', { status: 'inactive', payout_method: 'paypal', paypal_email: 'p@p.co' })
      expect(updated.status).toBe(200)
      expect(updated.body.data).toMatchObject({ id: ann.id, user_email: 'ann@example.com', referral_code: 'ANN1', status: 'inactive' })
      expect((await s.call('PUT', '/affiliates/ann%40example.com', { status: 'banned' })).status).toBe(400)
      expect((await s.call('PUT', '/affiliates/ann%40example.com', { payout_method: 'cheque' })).status).toBe(400)
      expect((await s.call('PUT', '/affiliates/zed%40example.com', { status: 'active' })).status).toBe(404)
      expect((await s.call('PUT', '/affiliates/ann%40example.com', { email: 'bob@example.com' })).status).toBe(409)
      expect((await s.call('PUT', '/affiliates/ann%40example.com', { referral_code: 'BOB1' })).status).toBe(409)
      const moved = await s.call('PUT', '/affiliates/ann%40example.com', { email: 'ann2@example.com' })
      expect(moved.body.data.user_email).toBe('ann2@example.com')
      expect((await s.call('GET', '/affiliates/ann2%40example.com')).body.data.status).toBe('inactive')
    })

    test('DELETE answers 204 with no body and removes the affiliate; 404 after', async () => {
      const s = await start()
      await withAffiliate(s)
      const deleted = await s.call('DELETE', '/affiliates/ann%40example.com')
      expect(deleted.status).toBe(204)
      expect(deleted.text).toBe('')
      expect((await s.call('GET', '/affiliates/ann%40example.com')).status).toBe(404)
      expect((await s.call('DELETE', '/affiliates/ann%40example.com')).status).toBe(404)
    })

    test('hold period: eligible_earnings, held_earnings and next_release_date appear', async () => {
      const s = await start({ settings: { holdPeriodDays: 30, commission: { purchase: { type: 'percentage', rate: 10 } } } })
      const ann = await withAffiliate(s)
      const conv = await s.call('POST', '/conversions', { type: 'purchase', affiliate_id: ann.id, base_value: 19.99 })
      expect(conv.body.data).toMatchObject({ value: 2, base_value: 19.99, status: 'pending' })
      const got = await s.call('GET', '/affiliates/ann%40example.com')
      expect(got.body.data).toMatchObject({
        unpaid_earnings: '2.00',
        total_earnings: '2.00',
        eligible_earnings: '0.00',
        held_earnings: '2.00',
        next_release_date: '2026-03-31',
      })
    })
  })

  describe('conversions', () => {
    test('POST: 201 with attribution; same reference and payload 200 duplicate; different payload 409', async () => {
      const s = await start()
      const ann = await withAffiliate(s, 'ann@example.com', { referral_code: 'ANN1' })
      const body = { type: 'purchase', referral_code: 'ANN1', email: 'cus@example.com', base_value: 19.99, reference: 'ch_1' }
      const created = await s.call('POST', '/conversions', body)
      expect(created.status).toBe(201)
      expect(created.body).toEqual({
        success: true,
        data: {
          id: expect.any(Number),
          type: 'purchase',
          affiliate_id: ann.id,
          referred_user_id: expect.any(Number),
          value: 6,
          base_value: 19.99,
          base_value_currency: 'USD',
          paid: false,
          created_at: '2026-03-01T00:00:00.000Z',
          reference: 'ch_1',
          coupon_code_used: null,
          status: 'active',
          review_reason: null,
          product_id: null,
          commission_rule: { source: 'project', basis: 'purchase', type: 'percentage', rate: '30', amount: null },
        },
        attribution: { affiliate_id: ann.id, matched_by: 'referral_code' },
      })
      const again = await s.call('POST', '/conversions', body)
      expect(again.status).toBe(200)
      expect(again.body).toEqual({ ...created.body, duplicate: true })
      const changed = await s.call('POST', '/conversions', { ...body, base_value: 29.99 })
      expect(changed.status).toBe(409)
      expect((await s.call('GET', '/conversions')).body.pagination.total).toBe(1)
      const byEmail = await s.call('POST', '/conversions', { type: 'purchase', email: 'cus@example.com', base_value: 10 })
      expect(byEmail.body.attribution).toEqual({ affiliate_id: ann.id, matched_by: 'email' })
    })

    test('POST errors: 400 missing type / base_value / bad money, 404 unknown affiliate', async () => {
      const s = await start()
      const ann = await withAffiliate(s)
      const cases: [Record<string, unknown>, string][] = [
        [{ affiliate_id: ann.id, base_value: 10 }, 'type'],
        [{ type: 'purchase', affiliate_id: ann.id }, 'base_value'],
        [{ type: 'purchase', affiliate_id: ann.id, base_value: 10.001 }, 'base_value'],
        [{ type: 'purchase', affiliate_id: ann.id, base_value: -5 }, 'base_value'],
        [{ type: 'purchase', affiliate_id: ann.id, base_value: '10' }, 'base_value'],
        [{ type: 'purchase', affiliate_id: ann.id, base_value: 1e12 }, 'base_value'],
        [{ type: 'refund', affiliate_id: ann.id }, 'type'],
        [{ type: 'signup', affiliate_id: 'one' }, 'affiliate_id'],
      ]
      for (const [body, field] of cases) {
        const res = await s.call('POST', '/conversions', body)
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(res.body.error, JSON.stringify(body)).toContain(field)
      }
      const missing = await s.call('POST', '/conversions', { type: 'signup', affiliate_id: 999 })
      expect(missing.status).toBe(404)
      expect((await s.call('POST', '/conversions', { type: 'signup', email: 'who@example.com' })).status).toBe(404)
      expect((await s.call('GET', '/conversions')).body.pagination.total).toBe(0)
    })

    test('GET list filters and pagination; GET /:id; 400 invalid id, 404 missing', async () => {
      const s = await start()
      const ann = await withAffiliate(s, 'ann@example.com')
      const bob = await withAffiliate(s, 'bob@example.com')
      await s.call('POST', '/conversions', { type: 'signup', affiliate_id: ann.id })
      s.clock.advance({ days: 1 })
      const purchase = await s.call('POST', '/conversions', { type: 'purchase', affiliate_id: bob.id, base_value: 100, paid: true })
      s.clock.advance({ days: 1 })
      await s.call('POST', '/conversions', { type: 'purchase', affiliate_id: ann.id, base_value: 50 })
      const all = await s.call('GET', '/conversions')
      expect(all.body.pagination).toEqual({ limit: 50, offset: 0, total: 3, has_more: false })
      expect(all.body.data.map((c: { type: string }) => c.type)).toEqual(['purchase', 'purchase', 'signup'])
      const ids = (query: string) => s.call('GET', `/conversions?${query}`).then((r) => r.body.data.map((c: { id: number }) => c.id))
      expect(await ids('paid=true')).toEqual([purchase.body.data.id])
      expect((await ids(`affiliate_id=${ann.id}`)).length).toBe(2)
      expect((await ids('type=signup')).length).toBe(1)
      expect(await ids('from=2026-03-02&to=2026-03-03')).toEqual([purchase.body.data.id])
      expect((await s.call('GET', '/conversions?limit=1000')).body.pagination.limit).toBe(100)
      for (const query of ['paid=maybe', 'from=yesterday', 'to=2026-13-45', 'type=refund', 'affiliate_id=x', 'referred_user_id=0']) {
        expect((await s.call('GET', `/conversions?${query}`)).status, query).toBe(400)
      }
      const one = await s.call('GET', `/conversions/${purchase.body.data.id}`)
      expect(one.status).toBe(200)
      expect(one.body.data).toEqual(purchase.body.data)
      expect((await s.call('GET', '/conversions/abc')).status).toBe(400)
      expect((await s.call('GET', '/conversions/0')).status).toBe(400)
      expect((await s.call('GET', '/conversions/999')).status).toBe(404)
    })

    test('PUT updates paid and value; 400 bad fields, 404 missing, 409 reference taken; DELETE 204', async () => {
      const s = await start()
      const ann = await withAffiliate(s)
      const a = await s.call('POST', '/conversions', { type: 'purchase', affiliate_id: ann.id, base_value: 10, reference: 'r-a' })
      const b = await s.call('POST', '/conversions', { type: 'purchase', affiliate_id: ann.id, base_value: 10, reference: 'r-b' })
      const id = a.body.data.id
      const paid = await s.call('PUT', `/conversions/${id}`, { paid: true, value: 2.5 })
      expect(paid.status).toBe(200)
      expect(paid.body.data).toMatchObject({ id, paid: true, value: 2.5 })
      expect((await s.call('PUT', `/conversions/${id}`, { paid: 'yes' })).status).toBe(400)
      expect((await s.call('PUT', `/conversions/${id}`, { type: 'gift' })).status).toBe(400)
      expect((await s.call('PUT', '/conversions/999', { paid: true })).status).toBe(404)
      expect((await s.call('PUT', `/conversions/${id}`, { reference: 'r-b' })).status).toBe(409)
      const deleted = await s.call('DELETE', `/conversions/${b.body.data.id}`)
      expect(deleted.status).toBe(204)
      expect(deleted.text).toBe('')
      expect((await s.call('GET', `/conversions/${b.body.data.id}`)).status).toBe(404)
    })
  })
})
