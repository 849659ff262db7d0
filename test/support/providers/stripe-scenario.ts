// The scenario (see scenario.ts) in Stripe's events, in both API eras, signed by the stripe package.
import Stripe from 'stripe'
import type { Clock } from '../../../src/index.js'
import { stripeHandler } from '../../../src/providers/stripe/index.js'
import type { FetchHandler } from '../../../src/providers/handler.js'
import type { ProviderScenario } from './scenario.js'
import {
  chargeRefunded,
  checkoutCompleted,
  customerCreated,
  invoicePaid,
  invoicePaymentPaid,
  legacyChargeRefunded,
  legacyInvoicePaid,
  type StripeEventFixture,
} from './stripe-fixtures.js'

export const STRIPE_SECRET = 'whsec_test_scenario_secret'
const stripe = new Stripe('sk_test_not_used')

const alice = { customer: 'cus_Alice', email: 'alice@example.com' }
const carol = { customer: 'cus_Carol', email: 'carol@example.com' }
const month = (id: string, at: string, paymentIntent: string) => [
  invoicePaymentPaid({ at, invoice: id, paymentIntent, amount: 5390 }),
  invoicePaid({ at, id, ...alice, subtotal: 4900, tax: 490, subscription: 'sub_Alice', billingReason: 'subscription_cycle', paymentIntent }),
]

/** The scenario in Stripe's events: current-API invoices and invoice payments for Alice, an old-API invoice and charge for Carol. */
export const stripeScenario: ProviderScenario = {
  name: 'stripe',
  // Webhooks name coupons by their Stripe id.
  bobCoupon: 'BOB20',
  handler: (program, storage) => stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET }),
  deliver: (handler, event, clock) => deliverStripe(handler, event, clock),
  sentAt: (event) => new Date((event as StripeEventFixture<unknown>).created * 1000),
  steps: {
    aliceSignup: [
      customerCreated({ at: '2026-01-19T09:59:00Z', ...alice }),
      checkoutCompleted({ at: '2026-01-19T10:00:05Z', ...alice, referral: 'ANN', subscription: 'sub_Alice' }),
    ],
    carol: [
      checkoutCompleted({ at: '2026-01-10T09:00:00Z', ...carol }),
      legacyInvoicePaid({
        at: '2026-01-10T09:00:10Z', id: 'in_Carol1', ...carol, subtotal: 10000, tax: 800, billingReason: 'manual',
        discount: { amount: 2000, coupon: 'BOB20' }, paymentIntent: 'pi_Carol1', charge: 'ch_Carol1',
      }),
    ],
    // The invoice that starts the subscription is its first payment; invoice_payment.paid (sent
    // first) names the payment intent a refund of it will name.
    month1: [
      invoicePaymentPaid({ at: '2026-01-19T10:00:00Z', invoice: 'in_Alice1', paymentIntent: 'pi_Alice1', amount: 5390 }),
      invoicePaid({ at: '2026-01-19T10:00:00Z', id: 'in_Alice1', ...alice, subtotal: 4900, tax: 490, subscription: 'sub_Alice', billingReason: 'subscription_create', paymentIntent: 'pi_Alice1' }),
    ],
    month2: month('in_Alice2', '2026-02-19T10:00:00Z', 'pi_Alice2'),
    partialRefund: [chargeRefunded({ at: '2026-02-25T12:00:00Z', id: 'ch_Alice1', customer: alice.customer, paymentIntent: 'pi_Alice1', amount: 5390, refundedSoFar: 2695 })],
    fullRefund: [legacyChargeRefunded({ at: '2026-03-01T12:00:00Z', id: 'ch_Carol1', customer: carol.customer, paymentIntent: 'pi_Carol1', invoice: 'in_Carol1', amount: 8800, refundedSoFar: 8800 })],
    month3: month('in_Alice3', '2026-03-19T10:00:00Z', 'pi_Alice3'),
  },
}

/** Signs with the stripe package's own test-header helper and posts to the handler. */
export async function deliverStripe(handler: FetchHandler, event: unknown, clock: Clock, secret = STRIPE_SECRET, tamper?: (body: string) => string): Promise<Response> {
  const payload = JSON.stringify(event)
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(clock.now().getTime() / 1000) })
  return handler(new Request('https://shop.example/api/v1/providers/stripe/events', { method: 'POST', body: tamper ? tamper(payload) : payload, headers: { 'Stripe-Signature': header, 'Content-Type': 'application/json' } }))
}

