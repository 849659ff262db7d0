// Tenant isolation over HTTP (docs/api.md "Authentication and scopes"): a key of project A gets 404 for every id and email
// of project B, in both shapes, and B's data never leaks into A's lists.
import { expect, test } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { caller, setup } from '../support/http/helpers.js'

test('keys of project A get 404 for every id and email of project B', async () => {
  const s = await setup()
  const b = await s.program.projects.create({ name: 'project-b' })
  const apiB = s.program.project(b.id)
  const keyB = (await apiB.keys.create()).key
  const callB = caller(s.handler, keyB)
  const affiliate = (await callB('POST', '/affiliates', { email: 'bee@example.com', referral_code: 'BEE1' })).body.data
  const referral = (await callB('POST', '/referrals', { email: 'ref@example.com', affiliate_id: affiliate.id })).body.data
  const conversion = (await callB('POST', '/conversions', { type: 'purchase', affiliate_id: affiliate.id, base_value: 100, reference: 'b-1' })).body.data
  const coupon = (await callB('POST', '/coupons', { affiliate_id: affiliate.id, coupon_code: 'BEE10' })).body.data
  const payout = (await callB('POST', '/payouts', { affiliate_id: affiliate.id, amount: 10 })).body.data
  const hook = await apiB.webhooks.create({ url: 'https://hooks.example.com/b', events: ['referral_converted'] })
  for (const record of [affiliate, referral, conversion, coupon, payout]) expect(record.id).toEqual(expect.any(Number))
  const before = JSON.stringify(await Promise.all(['/affiliates', '/referrals', '/conversions', '/coupons', '/payouts'].map((p) => callB('GET', p).then((r) => r.body))))

  const alt = caller(createHandler(s.program, { shape: 'alternative', rateLimit: { limit: 100_000 }, webhooks: s.dispatcher }), s.key)
  const requests: [string, string, unknown?][] = [
    ['GET', '/affiliates/bee%40example.com'],
    ['PUT', '/affiliates/bee%40example.com', { status: 'inactive' }],
    ['DELETE', '/affiliates/bee%40example.com'],
    ['GET', '/referrals/ref%40example.com'],
    ['PUT', '/referrals/ref%40example.com', { status: 'direct' }],
    ['GET', `/conversions/${conversion.id}`],
    ['PUT', `/conversions/${conversion.id}`, { paid: true }],
    ['DELETE', `/conversions/${conversion.id}`],
    ['GET', `/coupons/${coupon.id}`],
    ['PUT', `/coupons/${coupon.id}`, { coupon_code: 'MINE' }],
    ['DELETE', `/coupons/${coupon.id}`],
    ['GET', `/payouts/${payout.id}`],
    ['POST', '/conversions', { type: 'purchase', affiliate_id: affiliate.id, base_value: 5 }],
    ['POST', '/conversions', { type: 'purchase', referral_code: 'BEE1', base_value: 5 }],
    ['POST', '/conversions', { type: 'purchase', email: 'ref@example.com', base_value: 5 }],
    ['POST', '/referrals', { email: 'new@example.com', affiliate_id: affiliate.id }],
    ['POST', '/coupons', { affiliate_id: affiliate.id, coupon_code: 'STEAL' }],
    ['POST', '/payouts', { affiliate_id: affiliate.id, amount: 1 }],
    ['POST', '/payouts', { affiliate_email: 'bee@example.com', amount: 1 }],
    ['POST', '/clicks', { referral_code: 'BEE1' }],
    ['POST', `/api/project/${b.id}/webhooks/${hook.id}/test`, { eventType: 'referral_converted' }],
  ]
  for (const [method, path, body] of requests) {
    const res = await s.call(method, path, body)
    expect(res.status, `${method} ${path}`).toBe(404)
  }
  for (const path of [`/affiliates/aff_${affiliate.id}`, `/affiliates/${affiliate.id}`]) {
    expect((await alt('GET', path)).status, path).toBe(404)
  }
  expect((await alt('POST', '/coupons', { code: 'STEAL2', affiliate_email: 'bee@example.com' })).status).toBe(404)
  expect((await alt('POST', '/referrals', { email: 'n2@example.com', referral_code: 'BEE1' })).status).toBe(404)
  for (const path of ['/affiliates', '/referrals', '/conversions', '/coupons', '/payouts']) {
    expect((await s.call('GET', path)).body.pagination.total, path).toBe(0)
  }
  const after = JSON.stringify(await Promise.all(['/affiliates', '/referrals', '/conversions', '/coupons', '/payouts'].map((p) => callB('GET', p).then((r) => r.body))))
  expect(after).toBe(before)
})
