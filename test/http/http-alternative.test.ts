// Route tests, alternative shape (docs/api.md "The alternative shape"):
// aff_ ids, camelCase affiliates, nested lists and records, its own bodies and error form.
import { afterEach, describe, expect, test } from 'vitest'
import { caller, setupVia, type Setup } from '../support/http/helpers.js'
import { createHandler } from '../../src/http/index.js'
import { inProcess, nodeHttp } from '../support/http/transports.js'

describe.each([inProcess, nodeHttp])('alternative shape via $name', (transport) => {
  const stops: (() => Promise<void>)[] = []
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()))
  })
  async function start(settings?: NonNullable<Parameters<typeof setupVia>[1]>['settings']): Promise<Setup> {
    const s = await setupVia(transport, { handler: { shape: 'alternative', rateLimit: { limit: 100_000 } }, ...(settings ? { settings } : {}) })
    stops.push(s.stop)
    return s
  }

  test('affiliates: create nests under data.affiliate with aff_ id; retrieve by aff_ id, bare id or email', async () => {
    const s = await start()
    const created = await s.call('POST', '/affiliates', { email: 'ann@example.com', name: 'Ann', referralCode: 'ANN1', customFields: { team: 'red' } })
    expect(created.status).toBe(201)
    const affiliate = {
      id: 'aff_1',
      email: 'ann@example.com',
      name: 'Ann',
      status: 'active',
      createdAt: '2026-03-01T00:00:00.000Z',
      totalEarnings: 0,
      pendingEarnings: 0,
      paidEarnings: 0,
      conversionRate: 0,
      clickCount: 0,
      conversionCount: 0,
      referralCode: 'ANN1',
      paymentMethod: null,
      paymentDetails: null,
      locale: null,
      commission: null,
      incentives: null,
      tier: null,
      tierProgress: null,
    }
    expect(created.body).toEqual({ success: true, data: { affiliate } })
    for (const ref of ['aff_1', '1', 'ann%40example.com']) {
      const got = await s.call('GET', `/affiliates/${ref}`)
      expect(got.status, ref).toBe(200)
      expect(got.body.data.affiliate, ref).toEqual(affiliate)
    }
    const missingName = await s.call('POST', '/affiliates', { email: 'bob@example.com' })
    expect(missingName.status).toBe(400)
    expect(missingName.body).toEqual({ success: false, error: { code: 'invalid_request', message: expect.any(String), details: { field: 'name', issue: expect.any(String) } } })
    const duplicate = await s.call('POST', '/affiliates', { email: 'ann@example.com', name: 'Again' })
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.error).toMatchObject({ code: 'conflict', details: { field: 'email' } })
    expect((await s.call('GET', '/affiliates/aff_2')).body.error.code).toBe('resource_not_found')
  })

  test('affiliates: list under data.affiliates with counters, default 20, max 100; pending/blocked kept', async () => {
    const s = await start()
    for (let i = 0; i < 22; i += 1) await s.call('POST', '/affiliates', { email: `a${i}@example.com`, name: `A${i}` })
    const list = await s.call('GET', '/affiliates')
    expect(list.body.data.total).toBe(22)
    expect(list.body.data.limit).toBe(20)
    expect(list.body.data.offset).toBe(0)
    expect(list.body.data.affiliates).toHaveLength(20)
    expect(list.body.data.affiliates[0]).not.toHaveProperty('referralCode')
    expect((await s.call('GET', '/affiliates?limit=500')).body.data.limit).toBe(100)
    const blocked = await s.call('PUT', '/affiliates/aff_4', { status: 'blocked' })
    expect(blocked.body.data.affiliate.status).toBe('blocked')
    await s.call('PUT', '/affiliates/a4%40example.com', { status: 'pending' })
    const filtered = await s.call('GET', '/affiliates?status=blocked')
    expect(filtered.body.data.affiliates.map((a: { id: string }) => a.id)).toEqual(['aff_4'])
    expect((await s.call('GET', '/affiliates?status=inactive')).status).toBe(400)
    // The primary shape, over the same program, shows both as inactive.
    const primary = caller(createHandler(s.program), s.key)
    expect((await primary('GET', '/affiliates/a3%40example.com')).body.data.status).toBe('inactive')
    expect((await primary('GET', '/affiliates/a4%40example.com')).body.data.status).toBe('inactive')
  })

  test('multi-tier: parent_referral_code / parent_affiliate_id set the parent', async () => {
    const s = await start({ multiTier: { enabled: true, tier2Rate: 10 } })
    await s.call('POST', '/affiliates', { email: 'top@example.com', name: 'Top', referralCode: 'TOP1' })
    const child = await s.call('POST', '/affiliates', { email: 'kid@example.com', name: 'Kid', parent_referral_code: 'TOP1' })
    expect(child.status).toBe(201)
    const child2 = await s.call('POST', '/affiliates', { email: 'kid2@example.com', name: 'Kid2', parent_affiliate_id: 'aff_1' })
    expect(child2.status).toBe(201)
    const both = await s.call('POST', '/affiliates', { email: 'kid3@example.com', name: 'Kid3', parent_affiliate_id: 1, parent_referral_code: 'TOP1' })
    expect(both.status).toBe(400)
    expect((await s.call('POST', '/affiliates', { email: 'kid4@example.com', name: 'Kid4', parent_referral_code: 'NOPE1' })).status).toBe(404)
  })

  test('referrals, conversions and coupons: bodies and records as docs/api.md lists them', async () => {
    const s = await start()
    await s.call('POST', '/affiliates', { email: 'ann@example.com', name: 'Ann', referralCode: 'ANN1' })
    const referral = await s.call('POST', '/referrals', { email: 'cus@example.com', referral_code: 'ANN1' })
    expect(referral.status).toBe(201)
    const referralRecord = { email: 'cus@example.com', referral_code: 'ANN1', affiliate_email: 'ann@example.com', created_at: '2026-03-01T00:00:00.000Z' }
    expect(referral.body).toEqual({ success: true, data: { referral: referralRecord } })
    expect((await s.call('POST', '/referrals', { email: 'x@example.com' })).body.error.details.field).toBe('referral_code')
    expect((await s.call('GET', '/referrals')).body.data).toEqual({ referrals: [referralRecord], total: 1, limit: 20, offset: 0 })

    const conversion = await s.call('POST', '/conversions', { customer_email: 'cus@example.com', amount: 19.99 })
    expect(conversion.status).toBe(201)
    const conversionRecord = {
      id: expect.any(Number),
      customer_email: 'cus@example.com',
      amount: 19.99,
      commission_amount: 6,
      status: 'active',
      review_reason: null,
      created_at: '2026-03-01T00:00:00.000Z',
      referral_code: 'ANN1',
      product_id: null,
      commission_rule: { source: 'project', basis: 'purchase', type: 'percentage', rate: '30', amount: null },
    }
    expect(conversion.body).toEqual({ success: true, data: { conversion: conversionRecord } })
    expect((await s.call('POST', '/conversions', { customer_email: 'new@example.com', amount: 5, referral_code: 'ANN1' })).status).toBe(201)
    expect((await s.call('POST', '/conversions', { customer_email: 'cus@example.com' })).body.error.details.field).toBe('amount')
    const conversions = await s.call('GET', '/conversions?limit=1')
    expect(conversions.body.data).toMatchObject({ total: 2, limit: 1, offset: 0 })
    expect(conversions.body.data.conversions[0]).toMatchObject({ customer_email: 'new@example.com', amount: 5, commission_amount: 1.5 })

    const coupon = await s.call('POST', '/coupons', { code: 'ANN10', affiliate_email: 'ann@example.com', discount_type: 'percent', discount_value: '10' })
    expect(coupon.status).toBe(201)
    const couponRecord = { id: expect.any(Number), code: 'ANN10', affiliate_email: 'ann@example.com', discount_type: 'percent', discount_value: '10', status: 'active', processor_coupon_id: null, stripe_coupon_id: null, lemonsqueezy_discount_code: null, created_at: '2026-03-01T00:00:00.000Z' }
    expect(coupon.body).toEqual({ success: true, data: { coupon: couponRecord } })
    expect((await s.call('POST', '/coupons', { code: 'X1', affiliate_email: 'zz@example.com' })).status).toBe(404)
    expect((await s.call('GET', '/coupons')).body.data).toEqual({ coupons: [couponRecord], total: 1, limit: 20, offset: 0 })
  })

  test('every endpoint answers its documented errors in the alternative error form', async () => {
    const s = await start()
    await s.call('POST', '/affiliates', { email: 'ann@example.com', name: 'Ann', referralCode: 'ANN1' })
    await s.call('POST', '/referrals', { email: 'cus@example.com', referral_code: 'ANN1' })
    await s.call('POST', '/coupons', { code: 'ANN10', affiliate_email: 'ann@example.com' })
    const cases: [string, string, unknown, number, string, string | null][] = [
      ['GET', '/affiliates?limit=0', undefined, 400, 'invalid_request', 'limit'],
      ['POST', '/affiliates', { email: 'bad', name: 'B' }, 400, 'invalid_request', 'email'],
      ['POST', '/affiliates', { email: 'b@example.com', name: 'B', referralCode: 'ANN1' }, 409, 'conflict', 'referralCode'],
      ['GET', '/affiliates/aff_x', undefined, 400, 'invalid_request', 'email'],
      ['GET', '/affiliates/nobody%40example.com', undefined, 404, 'resource_not_found', null],
      ['PUT', '/affiliates/aff_9', { name: 'X' }, 404, 'resource_not_found', null],
      ['PUT', '/affiliates/aff_1', { status: 'inactive ' }, 400, 'invalid_request', 'status'],
      ['DELETE', '/affiliates/aff_9', undefined, 404, 'resource_not_found', null],
      ['GET', '/referrals?offset=-1', undefined, 400, 'invalid_request', 'offset'],
      ['POST', '/referrals', { email: 'cus@example.com', referral_code: 'ANN1' }, 409, 'conflict', 'email'],
      ['POST', '/referrals', { email: 'x@example.com', referral_code: 'NOPE1' }, 404, 'resource_not_found', 'referral_code'],
      ['GET', '/referrals/none%40example.com', undefined, 404, 'resource_not_found', null],
      ['PUT', '/referrals/cus%40example.com', { affiliate_id: 'aff_9' }, 404, 'resource_not_found', 'affiliate_id'],
      ['POST', '/conversions', { customer_email: 'c2@example.com', amount: -1, referral_code: 'ANN1' }, 400, 'invalid_request', 'amount'],
      ['POST', '/conversions', { customer_email: 'c2@example.com', amount: 5 }, 404, 'resource_not_found', null],
      ['GET', '/conversions/abc', undefined, 400, 'invalid_request', 'id'],
      ['GET', '/conversions/99', undefined, 404, 'resource_not_found', 'id'],
      ['DELETE', '/conversions/99', undefined, 404, 'resource_not_found', 'id'],
      ['POST', '/coupons', { code: 'ANN10', affiliate_email: 'ann@example.com' }, 409, 'conflict', 'code'],
      ['GET', '/coupons/99', undefined, 404, 'resource_not_found', 'id'],
      ['POST', '/payouts', { affiliate_id: 'aff_1', amount: 1 }, 400, 'invalid_request', 'amount'],
      ['GET', '/payouts/99', undefined, 404, 'resource_not_found', 'id'],
      ['POST', '/clicks', { referral_code: 'NOPE1' }, 404, 'resource_not_found', 'referral_code'],
    ]
    for (const [method, path, body, status, code, field] of cases) {
      const res = await s.call(method, path, body)
      const label = `${method} ${path} ${JSON.stringify(body ?? '')}`
      expect(res.status, label).toBe(status)
      expect(res.body, label).toEqual({ success: false, error: { code, message: expect.any(String), details: { field, issue: expect.any(String) } } })
    }
  })
})
