// Double-sided rewards (docs/incentives.md): the referred customer's incentive, chosen from the
// affiliate's own, its sub-program's or the project's; the checkout fields of each provider, and a
// purchase made through them, in the provider's own events, credits the affiliate with the
// discount applied; a sale with an affiliate's promotion code and no referral credits it too.
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram, StoragePort, TestClock } from '../../src/index.js'
import type { ProjectSettingsInput } from '../../src/core/model/schemas.js'
import { lemonSqueezyHandler } from '../../src/providers/lemon-squeezy/index.js'
import { paddleHandler } from '../../src/providers/paddle/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { order } from '../support/providers/lemon-squeezy-fixtures.js'
import { deliverLemonSqueezy, LEMON_SQUEEZY_SECRET } from '../support/providers/lemon-squeezy-scenario.js'
import { customerCreated as paddleCustomerCreated, transactionCompleted } from '../support/providers/paddle-fixtures.js'
import { deliverPaddle, PADDLE_SECRET } from '../support/providers/paddle-scenario.js'
import { checkoutCompleted, invoicePaid, legacyInvoicePaid } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import type { CaseContext } from './harness.js'
import { expectError, snapshot } from './helpers.js'

const AT = '2026-03-02T10:00:00Z'

/** 20 % off for 3 months: coupon REFERRED20 at Stripe, dsc_referred20 at Paddle, code REFERRED20 at Lemon Squeezy. */
const INCENTIVES: ProjectSettingsInput = {
  incentives: {
    customer: {
      percentOff: 20,
      duration: 'repeating',
      durationInMonths: 3,
      stripe: { couponId: 'REFERRED20' },
      paddle: { discountId: 'dsc_referred20' },
      lemonSqueezy: { discountCode: 'REFERRED20' },
    },
  },
  subPrograms: {
    agencies: { commission: { purchase: { type: 'percentage', rate: 30 } }, incentives: { customer: { amountOff: '15', duration: 'once', stripe: { couponId: 'AGENCY15' } } } },
  },
}

async function setUp(context: CaseContext): Promise<{ program: AffiliateProgram; clock: TestClock; storage: StoragePort }> {
  const made = await context.program({ settings: INCENTIVES })
  made.clock.set(new Date(AT))
  await made.program.affiliates.create({ email: 'ann@affiliates.example', name: 'Ann Example', referralCode: 'ANN' })
  return made
}

/** The conversions of the project, oldest first: who they credit, on what, with which code. */
async function conversionsOf(program: AffiliateProgram) {
  const { items } = await program.conversions.list({ limit: 100 })
  const ann = await program.affiliates.get('ann@affiliates.example')
  return items.reverse().map((conversion) => ({ affiliate: conversion.affiliateId === ann.id ? 'ann@affiliates.example' : conversion.affiliateId, baseValue: conversion.baseValue, value: conversion.value, coupon: conversion.couponCodeUsed }))
}

export function incentiveCases(context: CaseContext): void {
  describe('incentives: the referred customer', () => {
    it("chooses the affiliate's own incentive, else its sub-program's, else the project's; customer null offers none", async () => {
      const { program } = await setUp(context)
      await program.affiliates.create({ email: 'ag@affiliates.example', name: 'Agnes', referralCode: 'AGNES', partnerSlug: 'agencies' })
      await program.affiliates.create({
        email: 'own@affiliates.example',
        referralCode: 'OWNER',
        incentives: { customer: { percentOff: 12.5, duration: 'forever', stripe: { couponId: 'OWN125' }, paddle: { discountId: 'dsc_own' } } },
      })
      await program.affiliates.create({ email: 'none@affiliates.example', referralCode: 'NONE', incentives: { customer: null } })

      expect(await program.checkout.stripeParams({ referral: 'ANN' })).toEqual({ client_reference_id: 'ANN', metadata: { referral: 'ANN' }, discounts: [{ coupon: 'REFERRED20' }] })
      expect(await program.checkout.stripeParams({ referral: 'agnes' })).toEqual({ client_reference_id: 'AGNES', metadata: { referral: 'AGNES' }, discounts: [{ coupon: 'AGENCY15' }] })
      expect(await program.checkout.stripeParams({ referral: 'OWNER' })).toEqual({ client_reference_id: 'OWNER', metadata: { referral: 'OWNER' }, discounts: [{ coupon: 'OWN125' }] })
      // No incentive: the sale is still attributed.
      expect(await program.checkout.stripeParams({ referral: 'NONE' })).toEqual({ client_reference_id: 'NONE', metadata: { referral: 'NONE' } })
      // The sub-program's incentive names no Paddle discount: the referral alone.
      expect(await program.checkout.paddleParams({ referral: 'AGNES' })).toEqual({ custom_data: { referral: 'AGNES' } })
      expect(await program.checkout.paddleParams({ referral: 'OWNER' })).toEqual({ custom_data: { referral: 'OWNER' }, discount_id: 'dsc_own' })
      expect(await program.checkout.lemonSqueezyParams({ referral: 'ANN' })).toEqual({ discount_code: 'REFERRED20', custom: { referral: 'ANN', coupon: 'REFERRED20' } })

      expect((await program.checkout.incentive({ referral: 'ANN' }))!.text).toBe('20% off for 3 months via Ann')
      const agnes = (await program.checkout.incentive({ referral: 'AGNES', locale: 'de' }))!
      // Intl writes a no-break space between the amount and its sign.
      expect(agnes.text.replace(/\s/g, ' ')).toBe('15,00 $ Rabatt auf Ihre erste Zahlung über Agnes')
      expect(agnes).toEqual({
        text: agnes.text,
        percentOff: null,
        amountOff: '15.00',
        currency: 'USD',
        duration: 'once',
        durationInMonths: null,
        via: 'Agnes',
      })
      expect((await program.checkout.incentive({ referral: 'OWNER', acceptLanguage: 'fr-FR,fr;q=0.9' }))!.text.replace(/\s/g, ' ')).toBe('12,5 % de réduction sur chaque paiement')
      expect(await program.checkout.incentive({ referral: 'NONE' })).toBeNull()
    })

    it('gives no fields for a referral that names no active affiliate, and refuses a referral that is not text', async () => {
      const { program, clock } = await setUp(context)
      const bob = await program.affiliates.create({ email: 'bob@affiliates.example', referralCode: 'BOB' })
      await program.affiliates.update(bob.id, { status: 'inactive' })
      const now = Math.floor(clock.now().getTime() / 1000)
      for (const referral of [undefined, null, '', 'NOBODY', 'BOB', 'x', '../ANN', `ANN.${now - 1}`]) {
        expect(await program.checkout.stripeParams({ referral })).toEqual({})
        expect(await program.checkout.paddleParams({ referral })).toEqual({})
        expect(await program.checkout.lemonSqueezyParams({ referral })).toEqual({})
        expect(await program.checkout.incentive({ referral })).toBeNull()
      }
      // The cookie's value, unexpired, signed or not, names its code.
      expect(await program.checkout.paddleParams({ referral: `ANN.${now + 3600}` })).toEqual({ custom_data: { referral: 'ANN' }, discount_id: 'dsc_referred20' })
      await expectError(program.checkout.stripeParams({ referral: 42 as unknown as string }), 'invalid_request', 'referral')
    })

    it('refuses bad incentive settings, naming the field, and changes nothing', async () => {
      const { program } = await setUp(context)
      const before = await snapshot(program)
      const settings = await program.settings()
      const bad = async (customer: unknown, field: string) => {
        await expectError(program.projects.updateSettings(program.projectId, { ...(settings as ProjectSettingsInput), incentives: { customer } } as ProjectSettingsInput), 'invalid_request', field)
      }
      await bad({ duration: 'once' }, 'incentives.customer')
      await bad({ percentOff: 20, amountOff: '5' }, 'incentives.customer')
      await bad({ percentOff: 0 }, 'incentives.customer.percentOff')
      await bad({ percentOff: 120 }, 'incentives.customer.percentOff')
      await bad({ percentOff: 20, duration: 'repeating' }, 'incentives.customer')
      await bad({ amountOff: '5.001' }, 'incentives.customer.amountOff')
      await bad({ percentOff: 20, stripe: { couponId: 'has space' } }, 'incentives.customer.stripe.couponId')
      await bad({ percentOff: 20, stripe: { coupon: 'X' } }, 'incentives.customer.stripe.couponId')
      await expectError(program.affiliates.create({ email: 'eve@affiliates.example', incentives: { customer: { amountOff: '1.999' } } }), 'invalid_request', 'incentives.customer.amountOff')
      expect(await snapshot(program)).toBe(before)
      expect(await program.settings()).toEqual(settings)
    })

    it('Stripe: a checkout made with stripeParams, in either API era, credits Ann on the discounted invoice', async () => {
      const { program, clock, storage } = await setUp(context)
      const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
      const params = await program.checkout.stripeParams({ referral: 'ANN' })
      const coupon = (params.discounts![0] as { coupon: string }).coupon
      for (const [n, legacy] of [[1, false], [2, true]] as const) {
        const session = checkoutCompleted({ at: AT, customer: `cus_${n}`, email: `buyer${n}@example.com`, referral: params.client_reference_id!, metadataReferral: params.metadata!.referral, subscription: `sub_${n}` })
        // As Checkout reports the coupon it applied: no promotion code entered.
        session.data.object.discounts = params.discounts!.map(() => ({ coupon, promotion_code: null }))
        expect((await deliverStripe(handler, session, clock)).status).toBe(200)
        const invoice = { at: AT, id: `in_${n}`, customer: `cus_${n}`, email: `buyer${n}@example.com`, subtotal: 4900, tax: 0, discount: { amount: 980, coupon }, subscription: `sub_${n}`, billingReason: 'subscription_create' as const, paymentIntent: `pi_${n}` }
        const paid = legacy ? legacyInvoicePaid({ ...invoice, charge: `ch_${n}` }) : invoicePaid(invoice)
        expect((await deliverStripe(handler, paid, clock)).status).toBe(200)
      }
      // 49.00 less 20 % is 39.20; 30 % of it is 11.76. The current API's invoice names its
      // discounts by id only: the coupon's name is on the legacy invoice's conversion alone.
      const credited = { affiliate: 'ann@affiliates.example', baseValue: '39.20', value: '11.76', coupon: 'REFERRED20' }
      expect(await conversionsOf(program)).toEqual([{ ...credited, coupon: null }, credited])
    })

    it('Paddle: a transaction made with paddleParams credits Ann with the discount', async () => {
      const { program, clock, storage } = await setUp(context)
      const handler = paddleHandler({ program, storage, webhookSecret: PADDLE_SECRET })
      const params = await program.checkout.paddleParams({ referral: 'ANN' })
      expect((await deliverPaddle(handler, paddleCustomerCreated({ at: AT, id: 'ctm_1', email: 'buyer@example.com' }), clock)).status).toBe(200)
      const transaction = transactionCompleted({ at: AT, id: 'txn_1', customer: 'ctm_1', subtotal: 4900, tax: 0, discount: { amount: 980, id: params.discount_id! }, subscription: 'sub_1', origin: 'web' })
      transaction.data.custom_data = params.custom_data!
      expect((await deliverPaddle(handler, transaction, clock)).status).toBe(200)
      expect(await conversionsOf(program)).toEqual([{ affiliate: 'ann@affiliates.example', baseValue: '39.20', value: '11.76', coupon: 'dsc_referred20' }])
    })

    it('Lemon Squeezy: an order made with lemonSqueezyParams credits Ann with the discount code', async () => {
      const { program, clock, storage } = await setUp(context)
      const handler = lemonSqueezyHandler({ program, storage, webhookSecret: LEMON_SQUEEZY_SECRET })
      const params = await program.checkout.lemonSqueezyParams({ referral: 'ANN' })
      // Lemon Squeezy puts the checkout's custom data in the event's meta.custom_data.
      const created = order('order_created', { at: AT, id: 1, customer: 11, email: 'buyer@example.com', subtotal: 4900, discount: 980, tax: 0, customData: params.custom! })
      expect((await deliverLemonSqueezy(handler, created, clock)).status).toBe(200)
      expect(await conversionsOf(program)).toEqual([{ affiliate: 'ann@affiliates.example', baseValue: '39.20', value: '11.76', coupon: 'REFERRED20' }])
    })

    it("a sale with Ann's promotion code and no referral credits Ann, at each provider, in both Stripe API eras", async () => {
      const { program, clock, storage } = await setUp(context)
      const ann = await program.affiliates.get('ann@affiliates.example')
      // What POST /affiliates/{email}/promotion-codes records, and Paddle's discount of Ann's own.
      await program.coupons.create({ affiliateId: ann.id, code: 'ANN20', processorCouponId: 'promo_1AnnCode' })
      await program.coupons.create({ affiliateId: ann.id, code: 'ANNPADDLE', processorCouponId: 'dsc_01ann' })
      // Checkouts started with Ann's referral apply her own codes rather than the program's.
      expect((await program.checkout.stripeParams({ referral: 'ANN' })).discounts).toEqual([{ promotion_code: 'promo_1AnnCode' }])
      expect((await program.checkout.paddleParams({ referral: 'ANN' })).discount_id).toBe('dsc_01ann')

      const stripe = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
      // Current API: the session names the promotion code; the invoice's discounts are ids only.
      await deliverStripe(stripe, checkoutCompleted({ at: AT, customer: 'cus_new', email: 'new@example.com', subscription: 'sub_new', coupon: 'REFERRED20', promotionCode: 'promo_1AnnCode' }), clock)
      await deliverStripe(stripe, invoicePaid({ at: AT, id: 'in_new', customer: 'cus_new', email: 'new@example.com', subtotal: 4900, tax: 0, discount: { amount: 980, coupon: 'REFERRED20', promotionCode: 'promo_1AnnCode' }, subscription: 'sub_new', billingReason: 'subscription_create', paymentIntent: 'pi_new' }), clock)
      // Before 2025-03-31: the invoice's discount names the promotion code itself; no checkout event.
      await deliverStripe(stripe, legacyInvoicePaid({ at: AT, id: 'in_old', customer: 'cus_old', email: 'old@example.com', subtotal: 4900, tax: 0, discount: { amount: 980, coupon: 'REFERRED20', promotionCode: 'promo_1AnnCode' }, subscription: 'sub_old', billingReason: 'subscription_create', paymentIntent: 'pi_old', charge: 'ch_old' }), clock)
      const paddle = paddleHandler({ program, storage, webhookSecret: PADDLE_SECRET })
      await deliverPaddle(paddle, paddleCustomerCreated({ at: AT, id: 'ctm_2', email: 'paddle@example.com' }), clock)
      await deliverPaddle(paddle, transactionCompleted({ at: AT, id: 'txn_2', customer: 'ctm_2', subtotal: 4900, tax: 0, discount: { amount: 980, id: 'dsc_01ann' }, origin: 'web' }), clock)

      const credited = (coupon: string | null) => ({ affiliate: 'ann@affiliates.example', baseValue: '39.20', value: '11.76', coupon })
      expect(await conversionsOf(program)).toEqual([{ ...credited('ANN20'), coupon: null }, credited('ANN20'), credited('ANNPADDLE')])
      const referred = await program.referrals.list({ limit: 10 })
      expect(referred.items.map((referral) => [referral.email, referral.affiliateId]).sort()).toEqual([
        ['new@example.com', ann.id],
        ['old@example.com', ann.id],
        ['paddle@example.com', ann.id],
      ])
    })
  })
}
