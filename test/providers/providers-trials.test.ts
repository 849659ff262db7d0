// Trials through Stripe, Paddle and Lemon Squeezy, in their published event shapes, signed and
// posted to their handlers (docs/commissions.md "Leads and trials"): a trial started earns the
// trial reward once, also when its event comes twice and twice at once; a trial that ends unpaid
// is clawed back; one that converts keeps its reward and its first paid invoice earns the
// purchase rule as the customer's first purchase; a later cancellation changes nothing. On the
// memory adapter and on PostgreSQL (several connections: the events at once really race).
import { afterAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type StoragePort, type TestClock } from '../../src/index.js'
import type { FetchHandler } from '../../src/providers/handler.js'
import { lemonSqueezyHandler } from '../../src/providers/lemon-squeezy/index.js'
import { paddleHandler } from '../../src/providers/paddle/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { order, subscriptionEvent as lemonSubscription, subscriptionInvoice } from '../support/providers/lemon-squeezy-fixtures.js'
import { deliverLemonSqueezy, LEMON_SQUEEZY_SECRET } from '../support/providers/lemon-squeezy-scenario.js'
import { balancesOf } from '../support/providers/ledger.js'
import { customerCreated as paddleCustomer, subscriptionEvent as paddleSubscription, transactionCompleted } from '../support/providers/paddle-fixtures.js'
import { deliverPaddle, PADDLE_SECRET } from '../support/providers/paddle-scenario.js'
import { checkoutCompleted, invoicePaid, subscriptionEvent as stripeSubscription } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import { DATABASE_URL, freshPostgresStorage } from '../support/sql/pg-schema.js'

const ANN = 'ann@example.com'
const SETTINGS = {
  currency: 'USD',
  holdPeriodDays: 0,
  commission: { purchase: { type: 'percentage' as const, rate: 30 }, trial: { amount: '3.00', clawbackUnpaid: true } },
}

/** One provider's events for a customer (`n` picks the ids): the trial's start, its first paid charge of 20.00 (no tax), its end. */
interface TrialProvider {
  name: string
  handler(program: AffiliateProgram, storage: StoragePort): FetchHandler
  deliver(handler: FetchHandler, event: unknown, clock: TestClock): Promise<Response>
  /** The trial's own event (the one delivered twice, and twice at once). */
  trialing(n: number, at: string): unknown
  /** The events around it at checkout: who the customer is and which referral it carried, the 0.00 first payment where there is one. */
  checkout(n: number, at: string): { before: unknown[]; after: unknown[] }
  pays(n: number, at: string): unknown
  ends(n: number, at: string): unknown
  /** The trial conversion's reference. */
  reference(n: number): string
}

const days14 = (at: string) => new Date(new Date(at).getTime() + 14 * 86_400_000).toISOString()
const email = (n: number) => `customer${n}@example.com`

const stripe: TrialProvider = {
  name: 'stripe',
  handler: (program, storage) => stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET }),
  deliver: (handler, event, clock) => deliverStripe(handler, event, clock),
  // customer.subscription.created with status trialing, trial_start and trial_end.
  trialing: (n, at) => stripeSubscription('customer.subscription.created', { at, id: `sub_${n}`, customer: `cus_${n}`, status: 'trialing', trialStart: at, trialEnd: days14(at) }),
  checkout: (n, at) => ({
    before: [checkoutCompleted({ at, customer: `cus_${n}`, email: email(n), referral: 'ANN', subscription: `sub_${n}` })],
    after: [invoicePaid({ at, id: `in_${n}_0`, customer: `cus_${n}`, email: email(n), subtotal: 0, tax: 0, subscription: `sub_${n}`, billingReason: 'subscription_create', paymentIntent: `pi_${n}_0` })],
  }),
  pays: (n, at) => invoicePaid({ at, id: `in_${n}_1`, customer: `cus_${n}`, email: email(n), subtotal: 2000, tax: 0, subscription: `sub_${n}`, billingReason: 'subscription_cycle', paymentIntent: `pi_${n}_1` }),
  // The trial ended without a payment method: Stripe cancels and deletes the subscription.
  ends: (n, at) => stripeSubscription('customer.subscription.deleted', { at, id: `sub_${n}`, customer: `cus_${n}`, status: 'canceled', endedAt: at }),
  reference: (n) => `trial:sub_${n}`,
}

const paddle: TrialProvider = {
  name: 'paddle',
  handler: (program, storage) => paddleHandler({ program, storage, webhookSecret: PADDLE_SECRET }),
  deliver: (handler, event, clock) => deliverPaddle(handler, event, clock),
  // subscription.trialing names the customer by id; its custom data carries the checkout's referral.
  trialing: (n, at) => paddleSubscription('subscription.trialing', { at, id: `sub_${n}`, customer: `ctm_${n}`, trialEnd: days14(at), referral: 'ANN' }),
  checkout: (n, at) => ({
    before: [paddleCustomer({ at, id: `ctm_${n}`, email: email(n) })],
    after: [transactionCompleted({ at, id: `txn_${n}_0`, customer: `ctm_${n}`, subtotal: 0, tax: 0, subscription: `sub_${n}`, origin: 'web' })],
  }),
  pays: (n, at) => transactionCompleted({ at, id: `txn_${n}_1`, customer: `ctm_${n}`, subtotal: 2000, tax: 0, subscription: `sub_${n}`, origin: 'subscription_recurring' }),
  ends: (n, at) => paddleSubscription('subscription.canceled', { at, id: `sub_${n}`, customer: `ctm_${n}`, trialEnd: at }),
  reference: (n) => `trial:sub_${n}`,
}

const lemonSqueezy: TrialProvider = {
  name: 'lemon-squeezy',
  handler: (program, storage) => lemonSqueezyHandler({ program, storage, webhookSecret: LEMON_SQUEEZY_SECRET }),
  deliver: (handler, event) => deliverLemonSqueezy(handler, event),
  // subscription_created in status on_trial, the referral in the checkout's custom data.
  trialing: (n, at) => lemonSubscription('subscription_created', { at, id: 9000 + n, customer: 500 + n, email: email(n), order: 7000 + n, trialEndsAt: days14(at), customData: { referral: 'ANN' } }),
  checkout: (n, at) => ({ before: [], after: [order('order_created', { at, id: 7000 + n, customer: 500 + n, email: email(n), subtotal: 0, tax: 0 })] }),
  pays: (n, at) => subscriptionInvoice('subscription_payment_success', { at, id: 8000 + n, subscription: 9000 + n, customer: 500 + n, email: email(n), billingReason: 'renewal', subtotal: 2000, tax: 0 }),
  ends: (n, at) => lemonSubscription('subscription_expired', { at, id: 9000 + n, customer: 500 + n, email: email(n), order: 7000 + n, trialEndsAt: at }),
  reference: (n) => `trial:${9000 + n}`,
}

const adapters: Array<{ name: string; storage: () => { storage: StoragePort; cleanup?: () => Promise<void> } }> = [
  { name: 'memory', storage: () => ({ storage: memoryStorage() }) },
  ...(DATABASE_URL ? [{ name: 'postgres', storage: () => freshPostgresStorage({ max: 4 }) }] : []),
]

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup()
})

for (const adapter of adapters) {
  describe(`trials through the providers' events (${adapter.name})`, () => {
    for (const provider of [stripe, paddle, lemonSqueezy]) {
      it(`${provider.name}: a trial earns 3.00 once, ends unpaid clawed back, converts keeping it (the first paid invoice is the first purchase)`, async () => {
        const made = adapter.storage()
        if (made.cleanup) cleanups.push(made.cleanup)
        const clock = testClock('2026-05-04T10:00:00Z')
        const program = await createAffiliateProgram({ storage: made.storage, clock, settings: SETTINGS })
        await program.affiliates.create({ email: ANN, referralCode: 'ANN' })
        const handler = provider.handler(program, made.storage)
        const deliver = async (event: unknown) => {
          const response = await provider.deliver(handler, event, clock)
          expect(response.status).toBe(200)
          return (await response.json()) as { status: string; detail: string }
        }

        // Kim (1) and Lou (2) start 14-day trials through Ann's link.
        for (const n of [1, 2]) {
          const at = `2026-05-04T10:0${n}:00Z`
          const { before, after } = provider.checkout(n, at)
          for (const event of before) await deliver(event)
          expect(await deliver(provider.trialing(n, at))).toMatchObject({ status: 'applied' })
          for (const event of after) await deliver(event)
        }
        // Kim's trial event again, and twice at once: nothing more.
        expect((await deliver(provider.trialing(1, '2026-05-04T10:01:00Z'))).status).toBe('applied')
        const atOnce = await Promise.all([1, 2].map(() => provider.deliver(handler, provider.trialing(1, '2026-05-04T10:01:00Z'), clock)))
        expect(atOnce.map((answer) => answer.status)).toEqual([200, 200])
        expect(await balancesOf(program, ANN)).toEqual({ total: '6.00', paid: '0.00', unpaid: '6.00', credit: '0.00' })

        // Day 14: Kim pays 20.00, her first purchase at 30 %: 6.00. Lou's trial ends unpaid: his 3.00 goes.
        clock.set('2026-05-18T10:05:00Z')
        expect(await deliver(provider.pays(1, '2026-05-18T10:01:00Z'))).toMatchObject({ status: 'applied', detail: expect.stringContaining('(purchase, commission 6.00 USD)') })
        expect(await deliver(provider.ends(2, '2026-05-18T10:02:00Z'))).toMatchObject({ status: 'applied', detail: expect.stringContaining('clawed back') })
        expect(await balancesOf(program, ANN)).toEqual({ total: '9.00', paid: '0.00', unpaid: '9.00', credit: '0.00' })

        // Kim cancels months later: she paid, her trial reward stays.
        clock.set('2026-09-01T00:00:00Z')
        expect(await deliver(provider.ends(1, '2026-09-01T00:00:00Z'))).toMatchObject({ status: 'ignored', detail: expect.stringContaining('the trial converted') })
        expect(await balancesOf(program, ANN)).toEqual({ total: '9.00', paid: '0.00', unpaid: '9.00', credit: '0.00' })

        // Max's (3) trial ends unpaid, and the provider delivers its end before its start: the start, when it comes, earns and is taken back.
        expect(await deliver(provider.ends(3, '2026-09-01T00:03:00Z'))).toMatchObject({ status: 'ignored', detail: expect.stringContaining('it earned no trial reward') })
        const { before, after } = provider.checkout(3, '2026-08-18T00:03:00Z')
        for (const event of before) await deliver(event)
        expect(await deliver(provider.trialing(3, '2026-08-18T00:03:00Z'))).toMatchObject({ status: 'applied', detail: expect.stringContaining('ended before: trial reward clawed back') })
        for (const event of after) await deliver(event)
        expect(await balancesOf(program, ANN)).toEqual({ total: '9.00', paid: '0.00', unpaid: '9.00', credit: '0.00' })

        // Ned's (4) start and end arrive at the same moment: whichever applies first, the reward ends taken back.
        const ned = provider.checkout(4, '2026-08-18T00:04:00Z')
        for (const event of ned.before) await deliver(event)
        const both = await Promise.all([provider.deliver(handler, provider.ends(4, '2026-09-01T00:04:00Z'), clock), provider.deliver(handler, provider.trialing(4, '2026-08-18T00:04:00Z'), clock)])
        expect(both.map((answer) => answer.status)).toEqual([200, 200])
        expect(await balancesOf(program, ANN)).toEqual({ total: '9.00', paid: '0.00', unpaid: '9.00', credit: '0.00' })

        const conversions = (await program.conversions.list()).items.map((c) => `${c.reference} ${c.type} ${c.basis} ${c.status} ${c.value}`).sort()
        expect(conversions.filter((line) => line.startsWith('trial:'))).toEqual([
          `${provider.reference(1)} trial trial active 3.00`,
          `${provider.reference(2)} trial trial refunded 3.00`,
          `${provider.reference(3)} trial trial refunded 3.00`,
          `${provider.reference(4)} trial trial refunded 3.00`,
        ])
        expect(conversions.filter((line) => !line.startsWith('trial:'))).toEqual([expect.stringMatching(/ purchase purchase active 6\.00$/)])
      }, 60_000)
    }
  })
}

describe('trial events that earn nothing', () => {
  it('a subscription that starts without a trial, or is not on one, is recorded and ignored', async () => {
    const storage = memoryStorage()
    const clock = testClock('2026-05-04T10:00:00Z')
    const program = await createAffiliateProgram({ storage, clock, settings: SETTINGS })
    const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
    const active = stripeSubscription('customer.subscription.created', { at: '2026-05-04T10:00:00Z', id: 'sub_9', customer: 'cus_9', status: 'active' })
    expect(await (await deliverStripe(handler, active, clock)).json()).toMatchObject({ status: 'ignored', detail: 'subscription sub_9 started active, not in a trial: its invoices earn' })
    const pastDue = stripeSubscription('customer.subscription.updated', { at: '2026-05-04T10:00:00Z', id: 'sub_9', customer: 'cus_9', status: 'past_due' })
    expect(await (await deliverStripe(handler, pastDue, clock)).json()).toMatchObject({ status: 'ignored', detail: 'subscription sub_9 is past_due: nothing to apply' })
    const expired = stripeSubscription('customer.subscription.updated', { at: '2026-05-04T10:00:00Z', id: 'sub_9', customer: 'cus_9', status: 'incomplete_expired' })
    expect(await (await deliverStripe(handler, expired, clock)).json()).toMatchObject({ status: 'ignored', detail: 'subscription sub_9 ended: it earned no trial reward' })
    expect((await program.conversions.list()).total).toBe(0)
  })

  it('a subscription event without its id, or not an object, is a 400 that records nothing', async () => {
    const storage = memoryStorage()
    const clock = testClock('2026-05-04T10:00:00Z')
    const program = await createAffiliateProgram({ storage, clock, settings: SETTINGS })
    const stripeEvents = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
    const noId = stripeSubscription('customer.subscription.created', { at: '2026-05-04T10:00:00Z', id: 'sub_9', customer: 'cus_9', status: 'trialing' })
    const { id: _id, ...withoutId } = noId.data.object
    const answer = await deliverStripe(stripeEvents, { ...noId, data: { object: withoutId } }, clock)
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({ error: 'not a stripe event: subscription id is required' })
    const paddleEvents = paddleHandler({ program, storage, webhookSecret: PADDLE_SECRET })
    const canceled = paddleSubscription('subscription.canceled', { at: '2026-05-04T10:00:00Z', id: 'sub_9', customer: 'ctm_9', trialEnd: '2026-05-04T10:00:00Z' })
    expect((await deliverPaddle(paddleEvents, { ...canceled, data: 'sub_9' }, clock)).status).toBe(400)
    expect((await program.providerEvents.list()).total).toBe(0)
  })
})
