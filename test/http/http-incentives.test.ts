// An affiliate's own incentives over the REST API (docs/incentives.md "Settings"): set, shown,
// removed with null; a bad one is a 400 naming the field that changes nothing.
import { describe, expect, test } from 'vitest'
import { setup } from '../support/http/helpers.js'

describe("an affiliate's incentives over REST", () => {
  test('PUT sets them, GET shows them, null removes them; the checkout follows', async () => {
    const s = await setup({ settings: { currency: 'JPY', incentives: { customer: { amountOff: '500', stripe: { couponId: 'PROJECT500' } } } } })
    const own = { customer: { percentOff: 15, duration: 'forever', stripe: { couponId: 'ANN15' } } }
    const created = await s.call('POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN', incentives: own })
    expect(created.status).toBe(201)
    expect((await s.call('GET', '/affiliates/ann%40example.com')).body.data.incentives).toEqual(own)
    expect((await s.program.checkout.stripeParams({ referral: 'ANN' })).discounts).toEqual([{ coupon: 'ANN15' }])
    const removed = await s.call('PUT', '/affiliates/ann%40example.com', { incentives: null })
    expect(removed.status).toBe(200)
    expect(removed.body.data.incentives).toBeNull()
    expect((await s.program.checkout.stripeParams({ referral: 'ANN' })).discounts).toEqual([{ coupon: 'PROJECT500' }])

    const before = (await s.call('GET', '/affiliates/ann%40example.com')).body.data
    for (const [incentives, error] of [
      [{ customer: { amountOff: '5.5' } }, /^incentives\.customer\.amount_?off/i],
      [{ customer: { percentOff: 10, paddle: {} } }, /incentives\.customer\.paddle\.discount_?id/i],
      [{ client: {} }, /unknown field "incentives\.client"/],
    ] as const) {
      const refused = await s.call('PUT', '/affiliates/ann%40example.com', { incentives })
      expect(refused.status, JSON.stringify(incentives)).toBe(400)
      expect(refused.body.error).toMatch(error)
    }
    expect((await s.call('GET', '/affiliates/ann%40example.com')).body.data).toEqual(before)
  })
})
