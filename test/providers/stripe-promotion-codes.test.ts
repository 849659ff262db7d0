// An affiliate's own promotion code: POST /api/v1/affiliates/{email}/promotion-codes creates it
// at Stripe (a local server speaking Stripe's documented promotion code API) and records it as
// the affiliate's coupon; a sale with it and no referral credits the affiliate. Every refusal,
// ours or Stripe's, is a 4xx that records nothing; Stripe out of reach is a 503; the secret key
// never leaves the configured origin, nor reaches an answer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { testClock } from '../../src/core/model/clock.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, type AffiliateProgram } from '../../src/index.js'
import { stripeHandler, stripePromotionCodes, STRIPE_PROMOTION_CODES_VERSION } from '../../src/providers/stripe/index.js'
import type { StoragePort } from '../../src/index.js'
import { caller, type Caller } from '../support/http/helpers.js'
import { checkoutCompleted, invoicePaid } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import { startStripePromotionCodesApi, STRIPE_SECRET_KEY, type StripePromotionCodesApi } from '../support/providers/stripe-promotion-codes-api.js'

const AT = '2026-03-02T10:00:00Z'
let api: StripePromotionCodesApi
let program: AffiliateProgram
let storage: StoragePort
let call: Caller
const clock = testClock(AT)

async function open(options: { secretKey?: string; timeoutMs?: number; issuer?: false } = {}) {
  storage = memoryStorage()
  program = await createAffiliateProgram({
    storage,
    clock,
    settings: { incentives: { customer: { percentOff: 20, duration: 'once', stripe: { couponId: 'REFERRED20' } } } },
    ...(options.issuer === false
      ? {}
      : { promotionCodes: stripePromotionCodes({ secretKey: options.secretKey ?? STRIPE_SECRET_KEY, apiBase: api.url, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) }) }),
  })
  await program.affiliates.create({ email: 'ann@example.com', name: 'Ann', referralCode: 'ANN' })
  const { key } = await program.keys.create()
  call = caller(createHandler(program, { rateLimit: false }), key)
}

const create = (body: unknown, email = 'ann@example.com') => call('POST', `/affiliates/${encodeURIComponent(email)}/promotion-codes`, body)
const coupons = async () => (await program.coupons.list()).items.map((coupon) => [coupon.code, coupon.processorCouponId])

beforeAll(async () => {
  api = await startStripePromotionCodesApi(['REFERRED20', 'VIP50'])
})
afterAll(async () => {
  await api.close()
})
beforeEach(async () => {
  api.mode = 'normal'
  api.requests.length = 0
  api.codes.length = 0
  await open()
})

describe('POST /affiliates/{email}/promotion-codes', () => {
  it("creates ANN20 at Stripe on the incentive's coupon, records it as Ann's coupon, and a sale with it alone credits Ann", async () => {
    const created = await create({ code: 'ANN20' })
    expect(created.status).toBe(201)
    const ann = await program.affiliates.get('ann@example.com')
    expect(created.body.data).toMatchObject({ affiliate_id: ann.id, coupon_code: 'ANN20', status: 'active', processor_coupon_id: 'promo_1Test000001' })

    // The request as Stripe documents it for 2025-09-30.clover on.
    const [request] = api.requests
    expect(request).toMatchObject({ method: 'POST', path: '/v1/promotion_codes', version: STRIPE_PROMOTION_CODES_VERSION })
    expect(request!.idempotencyKey).toBe(`affiliate-kit-promotion-code-${program.projectId}-ann20`)
    expect(Object.fromEntries(request!.form)).toEqual({
      code: 'ANN20',
      'promotion[type]': 'coupon',
      'promotion[coupon]': 'REFERRED20',
      'metadata[affiliate_kit_project]': program.projectId,
      'metadata[affiliate_id]': String(ann.id),
      'metadata[referral_code]': 'ANN',
    })
    expect(api.codes.map((code) => [code.code, code.promotion.coupon])).toEqual([['ANN20', 'REFERRED20']])

    // Another coupon by name; Ann's checkouts now apply her first code.
    expect((await create({ code: 'ANN-VIP', coupon: 'VIP50' })).status).toBe(201)
    expect(api.requests[1]!.form.get('promotion[coupon]')).toBe('VIP50')
    expect(await program.checkout.stripeParams({ referral: 'ANN' })).toMatchObject({ discounts: [{ promotion_code: 'promo_1Test000001' }] })

    // A customer who typed ANN20 at Checkout, with no link and no cookie.
    const stripe = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
    await deliverStripe(stripe, checkoutCompleted({ at: AT, customer: 'cus_1', email: 'buyer@example.com', subscription: 'sub_1', coupon: 'REFERRED20', promotionCode: 'promo_1Test000001' }), clock)
    await deliverStripe(stripe, invoicePaid({ at: AT, id: 'in_1', customer: 'cus_1', email: 'buyer@example.com', subtotal: 4900, tax: 0, discount: { amount: 980, coupon: 'REFERRED20', promotionCode: 'promo_1Test000001' }, subscription: 'sub_1', billingReason: 'subscription_create', paymentIntent: 'pi_1' }), clock)
    const [conversion] = (await program.conversions.list()).items
    expect(conversion).toMatchObject({ affiliateId: ann.id, baseValue: '39.20', value: '11.76' })
  })

  it('refuses bad input, taken codes and unknown affiliates before calling Stripe, and records nothing', async () => {
    await program.coupons.create({ affiliateId: (await program.affiliates.get('ann@example.com')).id, code: 'TAKEN' })
    const refused = async (body: unknown, status: number, error: RegExp, email?: string) => {
      const answer = await create(body, email)
      expect(answer.status, JSON.stringify(body)).toBe(status)
      expect(answer.body.error).toMatch(error)
    }
    await refused({ code: 'AN' }, 400, /^code: must be 3 to 64 letters, digits or -/)
    await refused({ code: 'ANN_20' }, 400, /^code:/)
    await refused({ code: 'ANN20', extra: true }, 400, /unknown field "extra"/)
    await refused({}, 400, /^code/)
    await refused({ code: 'taken' }, 409, /TAKEN|taken/)
    await refused({ code: 'ANN20' }, 404, /affiliate not found/, 'nobody@example.com')
    const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB', incentives: { customer: null } })
    await refused({ code: 'BOB20' }, 400, /^coupon: is required/, 'bob@example.com')
    await program.affiliates.update(bob.id, { status: 'inactive' })
    await refused({ code: 'BOB20', coupon: 'VIP50' }, 409, /inactive/, 'bob@example.com')
    expect(api.requests).toEqual([])
    expect(await coupons()).toEqual([['TAKEN', null]])
  })

  it("answers Stripe's refusals as 4xx naming the field, Stripe out of reach as 503, and records nothing", async () => {
    const unknownCoupon = await create({ code: 'ANN20', coupon: 'NOPE' })
    expect(unknownCoupon.status).toBe(400)
    expect(unknownCoupon.body.error).toBe("coupon: Stripe refused it: No such coupon: 'NOPE'")
    // A code Stripe has already (made elsewhere, not one of our coupons).
    api.codes.push({ id: 'promo_other', object: 'promotion_code', code: 'SPRING', active: true, promotion: { type: 'coupon', coupon: 'VIP50' }, metadata: {}, created: 0, livemode: false })
    const inUse = await create({ code: 'spring' })
    expect(inUse.status).toBe(409)
    expect(inUse.body.error).toMatch(/already exists/)

    for (const mode of ['fail', 'redirect', 'huge'] as const) {
      api.mode = mode
      const answer = await create({ code: `ANN-${mode}` })
      expect(answer.status, mode).toBe(503)
      expect(answer.headers.get('retry-after'), mode).toBe('60')
    }
    api.mode = 'normal'
    // The redirect was not followed: every request went to the configured server.
    expect(api.requests.every((request) => request.path === '/v1/promotion_codes')).toBe(true)
    expect(await coupons()).toEqual([])
  })

  it('gives up after timeoutMs, and a retry gets the code Stripe made meanwhile (its Idempotency-Key)', async () => {
    await open({ timeoutMs: 300 })
    api.mode = 'slow'
    const slow = await create({ code: 'ANN20' })
    expect(slow.status).toBe(503)
    await new Promise((resolve) => setTimeout(resolve, 1400))
    api.mode = 'normal'
    const retried = await create({ code: 'ANN20' })
    expect(retried.status).toBe(201)
    expect(api.codes).toHaveLength(1)
    expect(retried.body.data.processor_coupon_id).toBe(api.codes[0]!.id)
  })

  it('without Stripe configured, or with a key Stripe refuses, answers 409 without the key, and records nothing', async () => {
    await open({ issuer: false })
    const none = await create({ code: 'ANN20' })
    expect(none.status).toBe(409)
    expect(none.body.error).toMatch(/secret key/)
    await open({ secretKey: 'sk_test_wrong_and_secret' })
    const wrong = await create({ code: 'ANN20' })
    expect(wrong.status).toBe(409)
    expect(wrong.text).not.toContain('sk_test_wrong_and_secret')
    expect(await coupons()).toEqual([])
  })

  it('needs the coupons:write scope', async () => {
    const { key } = await program.keys.create({ scopes: ['affiliates:read', 'coupons:read'] })
    const answer = await create({ code: 'ANN20' }).then(() => call('POST', '/affiliates/ann%40example.com/promotion-codes', { code: 'ANN21' }, { key }))
    expect(answer.status).toBe(403)
    expect(api.codes.map((code) => code.code)).toEqual(['ANN20'])
  })
})
