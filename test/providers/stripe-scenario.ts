// The Stripe scenario: a referred subscription with a free trial and three paid months, a
// one-off invoice whose promotion code belongs to an affiliate's coupon, a payout, a partial
// refund after it (clawback into credit) and a full refund, in both Stripe API eras.
import Stripe from 'stripe'
import type { AffiliateProgram, TestClock } from '../../src/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import type { FetchHandler } from '../../src/providers/handler.js'
import {
  chargeRefunded,
  checkoutCompleted,
  customerCreated,
  invoicePaid,
  legacyChargeRefunded,
  legacyInvoicePaid,
  type StripeEventFixture,
} from './stripe-fixtures.js'

export const STRIPE_SECRET = 'whsec_test_scenario_secret'
const stripe = new Stripe('sk_test_not_used')

export const SCENARIO_SETTINGS = {
  currency: 'USD',
  holdPeriodDays: 0,
  commission: { purchase: { type: 'percentage' as const, rate: 30 }, recurring: { rate: 20, durationMonths: 2 } },
}

/** Ann (referral code ANN) and Bob (coupon BOB20). */
export async function scenarioAffiliates(program: AffiliateProgram): Promise<void> {
  await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
  const bob = await program.affiliates.create({ email: 'bob@affiliates.example', referralCode: 'BOB' })
  // The code is the Stripe coupon id: webhooks name coupons by id.
  await program.coupons.create({ affiliateId: bob.id, code: 'BOB20', processorCouponId: 'BOB20' })
}

const alice = { customer: 'cus_Alice', email: 'alice@example.com' }
const carol = { customer: 'cus_Carol', email: 'carol@example.com' }
const month = (id: string, at: string, paymentIntent: string) =>
  invoicePaid({ at, id, ...alice, subtotal: 4900, tax: 490, subscription: 'sub_Alice', billingReason: 'subscription_cycle', paymentIntent })

/** The scenario's events in the order Stripe sent them, each with the time it was sent. */
export function scenarioEvents(): Array<StripeEventFixture<unknown>> {
  return [
    customerCreated({ at: '2026-01-05T10:00:00Z', ...alice }),
    checkoutCompleted({ at: '2026-01-05T10:00:05Z', ...alice, referral: 'ANN', subscription: 'sub_Alice' }),
    // The 14-day trial's free invoice starts the subscription.
    invoicePaid({ at: '2026-01-05T10:00:06Z', id: 'in_Alice0', ...alice, subtotal: 0, tax: 0, subscription: 'sub_Alice', billingReason: 'subscription_create', paymentIntent: 'pi_none' }),
    checkoutCompleted({ at: '2026-01-10T09:00:00Z', ...carol }),
    legacyInvoicePaid({
      at: '2026-01-10T09:00:10Z', id: 'in_Carol1', ...carol, subtotal: 10000, tax: 800, billingReason: 'manual',
      discount: { amount: 2000, coupon: 'BOB20' }, paymentIntent: 'pi_Carol1', charge: 'ch_Carol1',
    }),
    month('in_Alice1', '2026-01-19T10:00:00Z', 'pi_Alice1'),
    month('in_Alice2', '2026-02-19T10:00:00Z', 'pi_Alice2'),
    chargeRefunded({ at: '2026-02-25T12:00:00Z', id: 'ch_Alice1', customer: alice.customer, paymentIntent: 'pi_Alice1', amount: 5390, refundedSoFar: 2695 }),
    legacyChargeRefunded({ at: '2026-03-01T12:00:00Z', id: 'ch_Carol1', customer: carol.customer, paymentIntent: 'pi_Carol1', invoice: 'in_Carol1', amount: 8800, refundedSoFar: 8800 }),
    month('in_Alice3', '2026-03-19T10:00:00Z', 'pi_Alice3'),
  ]
}

/** Signs with the stripe package's own test-header helper and posts to the handler. */
export async function deliverStripe(handler: FetchHandler, event: unknown, clock: TestClock, secret = STRIPE_SECRET, tamper?: (body: string) => string): Promise<Response> {
  const payload = JSON.stringify(event)
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(clock.now().getTime() / 1000) })
  return handler(new Request('https://shop.example/api/v1/providers/stripe/events', { method: 'POST', body: tamper ? tamper(payload) : payload, headers: { 'Stripe-Signature': header, 'Content-Type': 'application/json' } }))
}

export function scenarioHandler(program: AffiliateProgram): FetchHandler {
  return stripeHandler({ program, webhookSecret: STRIPE_SECRET })
}
