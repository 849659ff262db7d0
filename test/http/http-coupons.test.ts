// Coupons for clients of the hosted service: the processor coupon id under the processors' own
// names, coupon status and its effect on attribution, and unknown-field errors worded for people.
import { describe, expect, test } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { caller, setup } from '../support/http/helpers.js'

async function start() {
  const s = await setup()
  const ann = await s.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN1' })
  const alt = caller(createHandler(s.program, { shape: 'alternative', rateLimit: false }), s.key)
  return { ...s, alt, ann }
}

describe('item 14: coupons as clients of the hosted service send them', () => {
  test('stripe_coupon_id and lemonsqueezy_discount_code are the processor coupon id, returned under every name', async () => {
    const s = await start()
    const stripe = await s.call('POST', '/coupons', { affiliate_id: s.ann.id, coupon_code: 'STRIPE10', stripe_coupon_id: 'co_123' })
    expect(stripe.status).toBe(201)
    expect(stripe.body.data).toMatchObject({ coupon_code: 'STRIPE10', status: 'active', processor_coupon_id: 'co_123', stripe_coupon_id: 'co_123', lemonsqueezy_discount_code: 'co_123' })
    const lemon = await s.call('POST', '/coupons', { affiliate_id: s.ann.id, coupon_code: 'LEMON10', lemonsqueezy_discount_code: 'LS-9' })
    expect(lemon.body.data).toMatchObject({ processor_coupon_id: 'LS-9', stripe_coupon_id: 'LS-9' })
    const same = await s.call('POST', '/coupons', { affiliate_id: s.ann.id, coupon_code: 'SAME', processor_coupon_id: 'x1', stripe_coupon_id: 'x1' })
    expect(same.status).toBe(201)

    const updated = await s.call('PUT', `/coupons/${stripe.body.data.id}`, { lemonsqueezy_discount_code: 'LS-10' })
    expect(updated.body.data).toMatchObject({ processor_coupon_id: 'LS-10', stripe_coupon_id: 'LS-10', lemonsqueezy_discount_code: 'LS-10' })
    const cleared = await s.call('PUT', `/coupons/${stripe.body.data.id}`, { stripe_coupon_id: null })
    expect(cleared.body.data).toMatchObject({ processor_coupon_id: null, stripe_coupon_id: null, lemonsqueezy_discount_code: null })

    const altCreated = await s.alt('POST', '/coupons', { code: 'ALT10', affiliate_email: 'ann@example.com', stripe_coupon_id: 'co_alt', status: 'inactive' })
    expect(altCreated.status).toBe(201)
    expect(altCreated.body.data.coupon).toMatchObject({ code: 'ALT10', status: 'inactive', processor_coupon_id: 'co_alt', stripe_coupon_id: 'co_alt', lemonsqueezy_discount_code: 'co_alt' })
    expect((await s.alt('GET', `/coupons/${altCreated.body.data.coupon.id}`)).body.data.coupon.stripe_coupon_id).toBe('co_alt')
  })

  test('two processor names with different values are 400 naming the second, and nothing changes', async () => {
    const s = await start()
    const conflicting = await s.call('POST', '/coupons', { affiliate_id: s.ann.id, coupon_code: 'TWO', stripe_coupon_id: 'co_1', lemonsqueezy_discount_code: 'LS-1' })
    expect(conflicting.status).toBe(400)
    expect(conflicting.body.error).toBe('lemonsqueezy_discount_code: differs from stripe_coupon_id; send the processor coupon id once')
    const nullAndValue = await s.call('POST', '/coupons', { affiliate_id: s.ann.id, coupon_code: 'TWO', processor_coupon_id: null, stripe_coupon_id: 'co_1' })
    expect(nullAndValue.status).toBe(400)
    expect(nullAndValue.body.error).toMatch(/^stripe_coupon_id: differs from processor_coupon_id/)
    const altConflict = await s.alt('POST', '/coupons', { code: 'TWO', affiliate_email: 'ann@example.com', processor_coupon_id: 'a', stripe_coupon_id: 'b' })
    expect(altConflict.status).toBe(400)
    expect(altConflict.body.error.details.field).toBe('stripe_coupon_id')
    expect((await s.call('GET', '/coupons')).body.pagination.total).toBe(0)

    const coupon = await s.call('POST', '/coupons', { affiliate_id: s.ann.id, coupon_code: 'ONE', processor_coupon_id: 'p1' })
    const update = await s.call('PUT', `/coupons/${coupon.body.data.id}`, { processor_coupon_id: 'p2', lemonsqueezy_discount_code: 'p3' })
    expect(update.status).toBe(400)
    expect((await s.call('GET', `/coupons/${coupon.body.data.id}`)).body.data.processor_coupon_id).toBe('p1')
  })

  test('coupon status: set, filtered on, and only active coupons attribute conversions', async () => {
    const s = await start()
    const created = await s.call('POST', '/coupons', { affiliate_id: s.ann.id, coupon_code: 'SUMMER', status: 'inactive' })
    expect(created.body.data.status).toBe('inactive')
    await s.call('POST', '/coupons', { affiliate_id: s.ann.id, coupon_code: 'WINTER' })
    expect((await s.call('GET', '/coupons?status=inactive')).body.data.map((coupon: { coupon_code: string }) => coupon.coupon_code)).toEqual(['SUMMER'])
    expect((await s.call('GET', '/coupons?status=active')).body.data.map((coupon: { coupon_code: string }) => coupon.coupon_code)).toEqual(['WINTER'])
    const badStatus = await s.call('PUT', `/coupons/${created.body.data.id}`, { status: 'paused' })
    expect(badStatus.status).toBe(400)
    expect(badStatus.body.error).toBe('status: must be active or inactive')

    const purchase = { type: 'purchase', coupon_code_used: 'summer', base_value: 20, email: 'buyer@example.com', reference: 'ch_1' }
    const refused = await s.call('POST', '/conversions', purchase)
    expect(refused.status).toBe(404)
    expect((await s.call('GET', '/conversions')).body.pagination.total).toBe(0)
    expect((await s.call('PUT', `/coupons/${created.body.data.id}`, { status: 'active' })).body.data.status).toBe('active')
    const credited = await s.call('POST', '/conversions', purchase)
    expect(credited.status).toBe(201)
    expect(credited.body.attribution).toEqual({ affiliate_id: s.ann.id, matched_by: 'coupon' })
  })

  test('unknown fields read unknown field "name" in bodies and queries, in both shapes', async () => {
    const s = await start()
    const body = await s.call('POST', '/coupons', { affiliate_id: s.ann.id, coupon_code: 'X1', shopify_code: 'y' })
    expect(body.status).toBe(400)
    expect(body.body.error).toBe('unknown field "shopify_code"')
    const query = await s.call('GET', '/affiliates?foo=1')
    expect(query.body.error).toBe('unknown field "foo"')
    const alt = await s.alt('POST', '/affiliates', { email: 'b@example.com', name: 'B', nickname: 'x' })
    expect(alt.status).toBe(400)
    expect(alt.body.error).toMatchObject({ message: 'unknown field "nickname"', details: { field: 'nickname', issue: 'unknown field "nickname"' } })
    await expect(s.program.affiliates.create({ email: 'c@example.com', wiseDetails: { accountId: '1', email: 'c@example.com', iban: 'x' } } as never)).rejects.toMatchObject({
      field: 'wiseDetails.iban',
      message: 'unknown field "wiseDetails.iban"',
    })
  })
})
