// One subscription checkout per customer in each provider's own events: the customer (referred by
// Ann), the first payment, and the renewal 30 days later. Providers deliver a checkout's events
// within the same second and often twice, so the tests that use these send them all at once.
import type { TestClock } from '../../../src/index.js'
import type { ProviderName } from '../../../src/core/model/types.js'
import { braintreeHandler } from '../../../src/providers/braintree/index.js'
import type { FetchHandler, ProviderHandler } from '../../../src/providers/handler.js'
import { lemonSqueezyHandler } from '../../../src/providers/lemon-squeezy/index.js'
import { paddleHandler } from '../../../src/providers/paddle/index.js'
import { chargebeeHandler } from '../../../src/providers/chargebee/index.js'
import { polarHandler } from '../../../src/providers/polar/index.js'
import { recurlyHandler } from '../../../src/providers/recurly/index.js'
import { stripeHandler } from '../../../src/providers/stripe/index.js'
import type { DomainStore } from '../../../src/storage.js'
import type { AffiliateProgram } from '../../../src/index.js'
import { order, subscriptionInvoice } from './lemon-squeezy-fixtures.js'
import { deliverLemonSqueezy, LEMON_SQUEEZY_SECRET } from './lemon-squeezy-scenario.js'
import { customerCreated as paddleCustomer, transactionCompleted } from './paddle-fixtures.js'
import { deliverPaddle, PADDLE_SECRET } from './paddle-scenario.js'
import { subscriptionCharged, transactionSettled } from './braintree-fixtures.js'
import { BRAINTREE_KEYS, deliverBraintree } from './braintree-scenario.js'
import { paymentSucceeded as chargebeePayment } from './chargebee-fixtures.js'
import { CHARGEBEE_OPTIONS, deliverChargebee } from './chargebee-scenario.js'
import { orderPaid } from './polar-fixtures.js'
import { deliverPolar, POLAR_SECRET } from './polar-scenario.js'
import { chargeInvoice, paymentSucceeded as recurlyPayment, type InvoiceFixture } from './recurly-fixtures.js'
import { deliverRecurly, RECURLY_OPTIONS } from './recurly-scenario.js'
import { checkoutCompleted, invoicePaid, invoicePaymentPaid, legacyInvoicePaid } from './stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from './stripe-scenario.js'

export interface CheckoutProvider {
  /** A name for the test's titles ('stripe (2025+ API)' ...). */
  name: string
  provider: ProviderName
  handler(program: AffiliateProgram, storage: DomainStore, project?: string): ProviderHandler
  deliver(handler: FetchHandler, event: unknown, clock: TestClock): Promise<Response>
  /** The events of customer `n`'s checkout, its first payment at `at` and its renewal 30 days on. */
  checkout(n: number, at: Date): unknown[]
  /** The events of the `k`th renewal (k >= 2 beyond checkout's) of customer `n`'s subscription, `k` months after `at`. */
  renewal(n: number, at: Date, k: number): unknown[]
}

const DAY = 86_400_000
const iso = (at: Date, days = 0) => new Date(at.getTime() + days * DAY).toISOString()
const month = { subtotal: 4900, tax: 490 }

const stripe = (name: string, checkout: CheckoutProvider['checkout'], renewal: CheckoutProvider['renewal']): CheckoutProvider => ({
  name,
  provider: 'stripe',
  handler: (program, storage, project) => stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET, ...(project ? { project } : {}) }),
  deliver: (handler, event, clock) => deliverStripe(handler, event, clock),
  checkout,
  renewal,
})

/** Stripe from API 2025-03-31: invoice_payment.paid names the payment intent of each invoice. */
const stripeCurrentInvoice = (n: number, at: Date, id: string, days: number, billingReason: 'subscription_create' | 'subscription_cycle') => [
  invoicePaymentPaid({ at: iso(at, days), invoice: id, paymentIntent: `pi_${id}`, amount: 5390 }),
  invoicePaid({ at: iso(at, days), id, customer: `cus_New${n}`, email: `new${n}@example.com`, ...month, subscription: `sub_New${n}`, billingReason, paymentIntent: `pi_${id}` }),
]
export const stripeCurrent = stripe(
  'stripe (2025+ API)',
  (n, at) => [
    checkoutCompleted({ at: iso(at), customer: `cus_New${n}`, email: `new${n}@example.com`, referral: 'ANN', subscription: `sub_New${n}` }),
    ...stripeCurrentInvoice(n, at, `in_New${n}a`, 0, 'subscription_create'),
    ...stripeCurrentInvoice(n, at, `in_New${n}b`, 30, 'subscription_cycle'),
  ],
  (n, at, k) => stripeCurrentInvoice(n, at, `in_New${n}r${k}`, 30 * k, 'subscription_cycle'),
)

/** Stripe before API 2025-03-31: invoices name their subscription and payment intent themselves. */
const stripeLegacyInvoice = (n: number, at: Date, id: string, days: number, billingReason: 'subscription_create' | 'subscription_cycle') =>
  legacyInvoicePaid({ at: iso(at, days), id, customer: `cus_Old${n}`, email: `old${n}@example.com`, ...month, subscription: `sub_Old${n}`, billingReason, paymentIntent: `pi_${id}`, charge: `ch_${id}` })
export const stripeLegacy = stripe(
  'stripe (API before 2025-03-31)',
  (n, at) => [
    checkoutCompleted({ at: iso(at), customer: `cus_Old${n}`, email: `old${n}@example.com`, referral: 'ANN', subscription: `sub_Old${n}` }),
    stripeLegacyInvoice(n, at, `in_Old${n}a`, 0, 'subscription_create'),
    stripeLegacyInvoice(n, at, `in_Old${n}b`, 30, 'subscription_cycle'),
  ],
  (n, at, k) => [stripeLegacyInvoice(n, at, `in_Old${n}r${k}`, 30 * k, 'subscription_cycle')],
)

/** Paddle Billing: the checkout's transaction carries the referral; the customer's email comes with customer.created. */
export const paddle: CheckoutProvider = {
  name: 'paddle',
  provider: 'paddle',
  handler: (program, storage, project) => paddleHandler({ program, storage, webhookSecret: PADDLE_SECRET, ...(project ? { project } : {}) }),
  deliver: (handler, event, clock) => deliverPaddle(handler, event, clock),
  checkout(n, at) {
    const customer = `ctm_pad${n}`
    const subscription = `sub_pad${n}`
    const first = transactionCompleted({ at: iso(at), id: `txn_pad${n}a`, customer, ...month, subscription, origin: 'web', referral: 'ANN' })
    const renewal = transactionCompleted({ at: iso(at, 30), id: `txn_pad${n}b`, customer, ...month, subscription, origin: 'subscription_recurring' })
    // transaction.paid comes with each transaction.completed; affiliate-kit does not use it.
    const paid = (event: typeof first) => ({ ...event, event_id: `${event.event_id}p`, event_type: 'transaction.paid', data: { ...event.data, status: 'paid' } })
    return [paddleCustomer({ at: iso(at), id: customer, email: `pad${n}@example.com` }), paid(first), first, paid(renewal), renewal]
  },
  renewal: (n, at, k) => [transactionCompleted({ at: iso(at, 30 * k), id: `txn_pad${n}r${k}`, customer: `ctm_pad${n}`, ...month, subscription: `sub_pad${n}`, origin: 'subscription_recurring' })],
}

/** Lemon Squeezy: the order pays the first month (its first invoice is the same payment). */
export const lemonSqueezy: CheckoutProvider = {
  name: 'lemon-squeezy',
  provider: 'lemon-squeezy',
  handler: (program, storage, project) => lemonSqueezyHandler({ program, storage, webhookSecret: LEMON_SQUEEZY_SECRET, ...(project ? { project } : {}) }),
  deliver: (handler, event) => deliverLemonSqueezy(handler, event),
  checkout(n, at) {
    const who = { customer: 7000 + n, email: `lem${n}@example.com`, subscription: 8000 + n }
    return [
      order('order_created', { at: iso(at), id: 1000 + n, customer: who.customer, email: who.email, ...month, customData: { referral: 'ANN' } }),
      subscriptionInvoice('subscription_payment_success', { at: iso(at), id: 2000 + n, ...who, billingReason: 'initial', ...month }),
      subscriptionInvoice('subscription_payment_success', { at: iso(at, 30), id: 3000 + n, ...who, billingReason: 'renewal', ...month }),
    ]
  },
  renewal: (n, at, k) => [
    subscriptionInvoice('subscription_payment_success', { at: iso(at, 30 * k), id: 100_000 + 1000 * n + k, customer: 7000 + n, email: `lem${n}@example.com`, subscription: 8000 + n, billingReason: 'renewal', ...month }),
  ],
}

/** Polar: the checkout's order (subscription_create) carries the referral in its metadata; renewals are subscription_cycle. */
const polarOrder = (n: number, at: Date, id: string, days: number, billingReason: 'subscription_create' | 'subscription_cycle') =>
  orderPaid({
    at: iso(at, days),
    id,
    customer: `cus_pol${n}`,
    email: `pol${n}@example.com`,
    ...month,
    billingReason,
    product: 'prod_monthly',
    subscription: `sub_pol${n}`,
    ...(billingReason === 'subscription_create' ? { metadata: { referral: 'ANN' } } : {}),
  })
export const polar: CheckoutProvider = {
  name: 'polar',
  provider: 'polar',
  handler: (program, storage, project) => polarHandler({ program, storage, webhookSecret: POLAR_SECRET, ...(project ? { project } : {}) }),
  deliver: (handler, event, clock) => deliverPolar(handler, event, clock),
  checkout: (n, at) => [polarOrder(n, at, `ord_pol${n}a`, 0, 'subscription_create'), polarOrder(n, at, `ord_pol${n}b`, 30, 'subscription_cycle')],
  renewal: (n, at, k) => [polarOrder(n, at, `ord_pol${n}r${k}`, 30 * k, 'subscription_cycle')],
}

/** Braintree: each charge of the subscription (cycle 1 carries the referral custom field), and its settlement, which counts nothing more. */
const braintreeCharge = (n: number, at: Date, id: string, days: number, cycle: number) => {
  const charge = { at: iso(at, days), id, customer: `cus_bt${n}`, email: `bt${n}@example.com`, amount: '53.90', tax: '4.90', ...(cycle === 1 ? { customFields: { referral: 'ANN' } } : {}) }
  return [
    subscriptionCharged({ at: charge.at, subscription: `sub_bt${n}`, plan: 'monthly', cycle, charge }),
    transactionSettled({ ...charge, subscription: `sub_bt${n}`, plan: 'monthly' }),
  ]
}
export const braintree: CheckoutProvider = {
  name: 'braintree',
  provider: 'braintree',
  handler: (program, storage, project) => braintreeHandler({ program, storage, ...BRAINTREE_KEYS, ...(project ? { project } : {}) }),
  deliver: (handler, event) => deliverBraintree(handler, event),
  checkout: (n, at) => [...braintreeCharge(n, at, `txn_bt${n}a`, 0, 1), ...braintreeCharge(n, at, `txn_bt${n}b`, 30, 2)],
  renewal: (n, at, k) => braintreeCharge(n, at, `txn_bt${n}r${k}`, 30 * k, k + 1),
}

/** Chargebee: the subscription's first invoice (its customer carries the referral custom field), then its renewals. */
const chargebeeInvoice = (n: number, at: Date, id: string, days: number, first: boolean) =>
  chargebeePayment(`ev_${id}`, {
    id,
    at: iso(at, days),
    customer: { id: `cb_cus${n}`, email: `cb${n}@example.com`, ...(first ? { referral: 'ANN' } : {}) },
    subscriptionId: `cb_sub${n}`,
    first,
    lines: [{ itemPrice: 'pro-USD-monthly', amount: month.subtotal }],
    tax: month.tax,
  })
export const chargebee: CheckoutProvider = {
  name: 'chargebee',
  provider: 'chargebee',
  handler: (program, storage, project) => chargebeeHandler({ program, storage, ...CHARGEBEE_OPTIONS, ...(project ? { project } : {}) }),
  deliver: (handler, event) => deliverChargebee(handler, event),
  checkout: (n, at) => [chargebeeInvoice(n, at, `inv_cb${n}a`, 0, true), chargebeeInvoice(n, at, `inv_cb${n}b`, 30, false)],
  renewal: (n, at, k) => [chargebeeInvoice(n, at, `inv_cb${n}r${k}`, 30 * k, false)],
}

/** Recurly: the purchase invoice (its account carries the referral custom field), paid and its payment notified, then the renewals. */
const recurlyInvoice = (n: number, at: Date, k: number): InvoiceFixture => ({
  id: `inv_rc${n}_${k}`,
  // Invoice numbers are the site's sequence: one per invoice here (k: 0 the purchase, 1.. the renewals).
  number: 500_000 + n * 1000 + k,
  at: iso(at, 30 * k),
  account: { id: `acc_rc${n}`, code: `rc${n}`, email: `rc${n}@example.com`, referral: 'ANN' },
  subscriptionId: `sub_rc${n}`,
  origin: k === 0 ? 'purchase' : 'renewal',
  lines: [{ itemCode: 'pro-monthly', amount: month.subtotal }],
  tax: month.tax,
})
export const recurly: CheckoutProvider = {
  name: 'recurly',
  provider: 'recurly',
  handler: (program, storage, project) => recurlyHandler({ program, storage, ...RECURLY_OPTIONS, ...(project ? { project } : {}) }),
  deliver: (handler, event, clock) => deliverRecurly(handler, event, clock),
  checkout: (n, at) => [recurlyPayment(recurlyInvoice(n, at, 0)), chargeInvoice('paid', recurlyInvoice(n, at, 0)), chargeInvoice('paid', recurlyInvoice(n, at, 1))],
  renewal: (n, at, k) => [chargeInvoice('paid', recurlyInvoice(n, at, k))],
}

export const CHECKOUT_PROVIDERS = [stripeCurrent, stripeLegacy, paddle, lemonSqueezy, polar, braintree, chargebee, recurly]

/**
 * The events of `customers` checkouts, in order: customer n's first payment n minutes past
 * `from`. Make them once per test: a fixture's event id is new each time it is made.
 */
export function checkoutEvents(provider: CheckoutProvider, customers: number, from: Date): unknown[] {
  return Array.from({ length: customers }, (_, n) => provider.checkout(n, new Date(from.getTime() + n * 60_000))).flat()
}
