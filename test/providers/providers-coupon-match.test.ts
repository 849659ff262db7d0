// Coupons tied to a provider's discount: an affiliate's coupon is matched by its code, or by its
// processor id (`stripe_coupon_id`) equal to the Stripe coupon id or promotion code id, or the
// Paddle discount id, in both Stripe API eras; a promotion code beats the coupon behind it.
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock, type StoragePort } from '../../src/index.js'
import { paddleHandler } from '../../src/providers/paddle/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { revivedMapping, storedMapping } from '../../src/providers/mapping.js'
import { mapStripeEvent } from '../../src/providers/stripe/map.js'
import { customerCreated as paddleCustomer, transactionCompleted } from '../support/providers/paddle-fixtures.js'
import { deliverPaddle, PADDLE_SECRET } from '../support/providers/paddle-scenario.js'
import { SCENARIO_SETTINGS } from '../support/providers/scenario.js'
import { checkoutCompleted, customerCreated, expandedDiscount, invoicePaid, legacyInvoicePaid } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import { DATABASE_URL, freshPostgresStorage } from '../support/sql/pg-schema.js'

const storages: Array<[string, () => { storage: StoragePort; cleanup(): Promise<void> }]> = [['memory', () => ({ storage: memoryStorage(), cleanup: async () => undefined })]]
if (DATABASE_URL) storages.push(['postgres', () => freshPostgresStorage()])

/** Ann and Bob, each with a coupon whose Stripe ids are not its code (as Stripe generates them). */
async function setup(storage: StoragePort) {
  const clock = testClock('2026-02-01T00:00:00Z')
  const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
  const ann = await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
  const bob = await program.affiliates.create({ email: 'bob@affiliates.example', referralCode: 'BOB' })
  return { program, clock, ann, bob, stripe: stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET }), paddle: paddleHandler({ program, storage, webhookSecret: PADDLE_SECRET }) }
}

const earned = async (program: Awaited<ReturnType<typeof setup>>['program']) =>
  Object.fromEntries(await Promise.all(['ann', 'bob'].map(async (name) => [name, (await program.affiliates.get(`${name}@affiliates.example`)).earnings.total])))

const fay = { customer: 'cus_Fay', email: 'fay@example.com' }
// 50.00 less a 10.00 discount: 30% of 40.00 is 12.00.
const invoiceOf = (discount: { coupon: string; promotionCode?: string }) =>
  invoicePaid({ at: '2026-01-31T10:00:01Z', id: 'in_Fay1', ...fay, subtotal: 5000, discount: { amount: 1000, ...discount }, tax: 400, billingReason: 'manual', paymentIntent: 'pi_Fay1' })

for (const [name, fresh] of storages) {
  describe(`${name}: coupons tied by the provider's ids`, () => {
    it("credits the coupon tied by its Stripe coupon id when a checkout used it (current API: the invoice lists discount ids only)", async () => {
      const { storage, cleanup } = fresh()
      try {
        const { program, clock, bob, stripe } = await setup(storage)
        await program.coupons.create({ affiliateId: bob.id, code: 'BOB20', processorCouponId: 'Z4OV52SU' })
        const checkout = checkoutCompleted({ at: '2026-01-31T10:00:00Z', ...fay, coupon: 'Z4OV52SU', promotionCode: 'promo_1QfayXYZ' })
        expect(await (await deliverStripe(stripe, checkout, clock)).json()).toMatchObject({ status: 'applied', detail: 'cus_Fay: fay@example.com became a referred user through coupon BOB20' })
        const invoice = invoiceOf({ coupon: 'Z4OV52SU' })
        expect(invoice.data.object.discounts).toEqual(['di_in_Fay1'])
        expect(await (await deliverStripe(stripe, invoice, clock)).json()).toMatchObject({ status: 'applied' })
        expect(await earned(program)).toEqual({ ann: '0.00', bob: '12.00' })
        expect((await program.providerEvents.list({ status: 'waiting' })).total).toBe(0)
      } finally {
        await cleanup()
      }
    })

    it('credits the coupon tied by its Stripe coupon id from an old-API invoice (discount.coupon.id) with no checkout; the conversion names the coupon code', async () => {
      const { storage, cleanup } = fresh()
      try {
        const { program, clock, bob, stripe } = await setup(storage)
        await program.coupons.create({ affiliateId: bob.id, code: 'BOB20', processorCouponId: 'Z4OV52SU' })
        await deliverStripe(stripe, customerCreated({ at: '2026-01-31T09:59:00Z', ...fay }), clock)
        const invoice = legacyInvoicePaid({ at: '2026-01-31T10:00:01Z', id: 'in_Fay1', ...fay, subtotal: 5000, discount: { amount: 1000, coupon: 'Z4OV52SU' }, tax: 400, billingReason: 'manual', paymentIntent: 'pi_Fay1', charge: 'ch_Fay1' })
        expect(await (await deliverStripe(stripe, invoice, clock)).json()).toMatchObject({ status: 'applied' })
        expect(await earned(program)).toEqual({ ann: '0.00', bob: '12.00' })
        const [conversion] = (await program.conversions.list()).items
        expect(conversion?.couponCodeUsed).toBe('BOB20')
      } finally {
        await cleanup()
      }
    })

    it("one Stripe coupon behind two affiliates' promotion codes: each coupon tied by its promotion code id credits its own affiliate", async () => {
      const { storage, cleanup } = fresh()
      try {
        const { program, clock, ann, bob, stripe } = await setup(storage)
        await program.coupons.create({ affiliateId: ann.id, code: 'ANNSPRING', processorCouponId: 'promo_ann' })
        await program.coupons.create({ affiliateId: bob.id, code: 'BOBSPRING', processorCouponId: 'promo_bob' })
        // A coupon tied to the shared Stripe coupon itself is the less specific match.
        await program.coupons.create({ affiliateId: ann.id, code: 'SPRING', processorCouponId: 'SPRING26' })
        await deliverStripe(stripe, checkoutCompleted({ at: '2026-01-31T10:00:00Z', ...fay, coupon: 'SPRING26', promotionCode: 'promo_bob' }), clock)
        expect(await (await deliverStripe(stripe, invoiceOf({ coupon: 'SPRING26' }), clock)).json()).toMatchObject({ status: 'applied' })
        // Old API, no checkout: the invoice's discount names the promotion code.
        const gil = { customer: 'cus_Gil', email: 'gil@example.com' }
        await deliverStripe(stripe, customerCreated({ at: '2026-01-31T10:59:00Z', ...gil }), clock)
        const legacy = legacyInvoicePaid({ at: '2026-01-31T11:00:00Z', id: 'in_Gil1', ...gil, subtotal: 10000, discount: { amount: 2000, coupon: 'SPRING26', promotionCode: 'promo_ann' }, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Gil1', charge: 'ch_Gil1' })
        expect(await (await deliverStripe(stripe, legacy, clock)).json()).toMatchObject({ status: 'applied' })
        // Bob: 30% of 40.00; Ann: 30% of 80.00.
        expect(await earned(program)).toEqual({ ann: '24.00', bob: '12.00' })
        // Fay's current-API invoice names no discount: she was credited as Bob's referred user by her checkout.
        expect((await program.conversions.list()).items.map((c) => [c.reference, c.couponCodeUsed]).sort()).toEqual([
          ['in_Fay1', null],
          ['in_Gil1', 'ANNSPRING'],
        ])
      } finally {
        await cleanup()
      }
    })

    it('credits the coupon tied by its Paddle discount id', async () => {
      const { storage, cleanup } = fresh()
      try {
        const { program, clock, bob, paddle } = await setup(storage)
        await program.coupons.create({ affiliateId: bob.id, code: 'BOB20', processorCouponId: 'dsc_01hv8x2bob' })
        await deliverPaddle(paddle, paddleCustomer({ at: '2026-01-31T09:59:00Z', id: 'ctm_fay', email: 'fay@example.com' }), clock)
        const transaction = transactionCompleted({ at: '2026-01-31T10:00:00Z', id: 'txn_fay1', customer: 'ctm_fay', subtotal: 5000, discount: { amount: 1000, id: 'dsc_01hv8x2bob' }, tax: 400, origin: 'web' })
        expect(await (await deliverPaddle(paddle, transaction, clock)).json()).toMatchObject({ status: 'applied' })
        expect(await earned(program)).toEqual({ ann: '0.00', bob: '12.00' })
      } finally {
        await cleanup()
      }
    })

    it('an inactive coupon tied by id credits no one: the invoice waits for a referral', async () => {
      const { storage, cleanup } = fresh()
      try {
        const { program, clock, bob, stripe } = await setup(storage)
        await program.coupons.create({ affiliateId: bob.id, code: 'BOB20', processorCouponId: 'Z4OV52SU', status: 'inactive' })
        await deliverStripe(stripe, checkoutCompleted({ at: '2026-01-31T10:00:00Z', ...fay, coupon: 'Z4OV52SU' }), clock)
        expect(await (await deliverStripe(stripe, invoiceOf({ coupon: 'Z4OV52SU' }), clock)).json()).toMatchObject({ status: 'waiting' })
        expect(await earned(program)).toEqual({ ann: '0.00', bob: '0.00' })
      } finally {
        await cleanup()
      }
    })
  })
}

describe("stripe mapping: a discount's names, most specific first", () => {
  it('reads a checkout session discount (coupon and promotion code ids), an old-API invoice discount (expanded coupon) and expanded current discounts (source.coupon)', () => {
    const names = (event: unknown) => {
      const [action] = mapStripeEvent(event).actions
      return action && (action.kind === 'paid' || action.kind === 'customer') ? action.coupons : null
    }
    expect(names(checkoutCompleted({ at: '2026-01-31T10:00:00Z', ...fay, coupon: 'Z4OV52SU', promotionCode: 'promo_1Q' }))).toEqual(['promo_1Q', 'Z4OV52SU'])
    expect(names(legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_1', ...fay, subtotal: 100, discount: { amount: 10, coupon: 'Z4OV52SU', promotionCode: 'promo_1Q' }, tax: 0, billingReason: 'manual', paymentIntent: 'pi_1', charge: 'ch_1' }))).toEqual(['promo_1Q', 'Z4OV52SU'])
    // Webhooks list discount ids only: nothing to match on the invoice itself.
    expect(names(invoiceOf({ coupon: 'Z4OV52SU' }))).toEqual([])
    const expanded = invoiceOf({ coupon: 'Z4OV52SU' })
    const object = { ...expanded.data.object, discounts: [expandedDiscount({ at: '2026-01-31T10:00:00Z', invoice: 'in_Fay1', ...fay, coupon: 'Z4OV52SU', promotionCode: 'promo_1Q' })] }
    expect(names({ ...expanded, data: { object } })).toEqual(['promo_1Q', 'Z4OV52SU'])
    // A promotion code expanded carries the text the customer typed, matched as a coupon code first.
    const typed = { ...object, discounts: [{ ...object.discounts[0]!, promotion_code: { id: 'promo_1Q', object: 'promotion_code', code: 'FAY10' } }] }
    expect(names({ ...expanded, data: { object: typed } })).toEqual(['FAY10', 'promo_1Q', 'Z4OV52SU'])
  })
})

describe('stored mappings', () => {
  it("a waiting event an earlier version stored with one `couponCode` is read back with that name as its coupons", () => {
    const stored = storedMapping(mapStripeEvent(invoiceOf({ coupon: 'Z4OV52SU' }))) as { actions: Array<Record<string, unknown>> }
    const { coupons: _coupons, ...earlier } = stored.actions[0]!
    const [action] = revivedMapping({ ...stored, actions: [{ ...earlier, couponCode: 'BOB20' }] }).actions
    expect(action).toMatchObject({ kind: 'paid', coupons: ['BOB20'], amount: 4000n })
    expect(action).not.toHaveProperty('couponCode')
  })
})
