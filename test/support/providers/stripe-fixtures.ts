// Stripe events shaped like the published objects (API reference, webhook payloads), written for
// these tests. Every field a fixture carries is type-checked against the `stripe` package's
// types (Pick<Stripe.X, ...>); the pre-2025-03-31 fields that the current types no longer have
// (invoice.subscription / charge / payment_intent, charge.invoice) are typed by hand below.
import type Stripe from 'stripe'
// The package types decimal fields as its Decimal class; the JSON a webhook carries has decimal text.
type Decimal = NonNullable<Stripe.InvoiceLineItem.Pricing['unit_amount_decimal']>

type EventEnvelope = Pick<Stripe.Event, 'id' | 'object' | 'api_version' | 'created' | 'livemode' | 'pending_webhooks' | 'request'>
export interface StripeEventFixture<T> extends EventEnvelope {
  type: string
  data: { object: T }
}

const NEW_API = '2025-03-31.basil'
const OLD_API = '2024-06-20'
const unix = (iso: string) => Math.floor(new Date(iso).getTime() / 1000)

let counter = 0
function envelope<T>(type: string, at: string, object: T, apiVersion = NEW_API): StripeEventFixture<T> {
  counter += 1
  return {
    id: `evt_${type.replace(/\W/g, '_')}_${unix(at)}_${counter}`,
    object: 'event',
    api_version: apiVersion,
    created: unix(at),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  }
}

type SessionFields = 'id' | 'object' | 'mode' | 'status' | 'payment_status' | 'customer' | 'customer_email' | 'customer_details' |
  'client_reference_id' | 'discounts' | 'metadata' | 'subscription' | 'invoice' | 'amount_subtotal' | 'amount_total' | 'currency' | 'created' | 'livemode'

export function checkoutCompleted(input: {
  at: string
  customer: string
  email: string
  referral?: string
  metadataReferral?: string
  subscription?: string
  coupon?: string
  /** The id of the promotion code the customer entered. @default promo_<coupon> */
  promotionCode?: string
}) {
  const session: Pick<Stripe.Checkout.Session, SessionFields> = {
    id: `cs_test_${input.customer}`,
    object: 'checkout.session',
    mode: input.subscription ? 'subscription' : 'payment',
    status: 'complete',
    payment_status: 'paid',
    customer: input.customer,
    customer_email: null,
    customer_details: { address: null, business_name: null, email: input.email, individual_name: null, name: 'Test Customer', phone: null, tax_exempt: 'none', tax_ids: [] },
    client_reference_id: input.referral ?? null,
    discounts: input.coupon ? [{ coupon: input.coupon, promotion_code: input.promotionCode ?? `promo_${input.coupon}` }] : [],
    metadata: input.metadataReferral ? { referral: input.metadataReferral } : {},
    subscription: input.subscription ?? null,
    invoice: null,
    amount_subtotal: 4900,
    amount_total: 5390,
    currency: 'usd',
    created: unix(input.at),
    livemode: false,
  }
  return envelope('checkout.session.completed', input.at, session)
}

export function customerCreated(input: { at: string; customer: string; email: string; referral?: string }) {
  const customer: Pick<Stripe.Customer, 'id' | 'object' | 'email' | 'name' | 'metadata' | 'created' | 'livemode' | 'balance' | 'description' | 'default_source' | 'shipping'> = {
    id: input.customer,
    object: 'customer',
    email: input.email,
    name: 'Test Customer',
    metadata: input.referral ? { referral: input.referral } : {},
    created: unix(input.at),
    livemode: false,
    balance: 0,
    description: null,
    default_source: null,
    shipping: null,
  }
  return envelope('customer.created', input.at, customer)
}

type InvoiceFields = 'id' | 'object' | 'customer' | 'customer_email' | 'currency' | 'status' | 'billing_reason' | 'subtotal' |
  'subtotal_excluding_tax' | 'total' | 'total_excluding_tax' | 'total_taxes' | 'amount_due' | 'amount_paid' | 'amount_remaining' |
  'discounts' | 'parent' | 'status_transitions' | 'created' | 'livemode' | 'period_start' | 'period_end'

export interface InvoiceInput {
  at: string
  id: string
  customer: string
  email: string
  /** Before discounts and tax. */
  subtotal: number
  /** The coupon's id and, when the customer entered one, the promotion code's id. */
  discount?: { amount: number; coupon: string; promotionCode?: string }
  tax: number
  subscription?: string
  billingReason: Stripe.Invoice.BillingReason
  /** The payment intent that paid it (named on the invoice before 2025-03-31 only). */
  paymentIntent: string
  /** Lower case, as Stripe sends it. @default 'usd' */
  currency?: string
  /** The invoice's lines (their amounts before tax, summing to subtotal). @default none listed */
  lines?: LineInput[]
}

export interface LineInput {
  id: string
  product: string
  amount: number
}

type LineFields = 'id' | 'object' | 'amount' | 'currency' | 'description' | 'discount_amounts' | 'discountable' | 'livemode' | 'metadata' | 'pricing' | 'quantity' | 'subtotal' | 'taxes'

/** An invoice line as the current API sends it: its product under pricing.price_details. */
function line(input: LineInput, currency: string): Pick<Stripe.InvoiceLineItem, LineFields> {
  return {
    id: input.id,
    object: 'line_item',
    amount: input.amount,
    currency,
    description: `1 x ${input.product}`,
    discount_amounts: [],
    discountable: true,
    livemode: false,
    metadata: {},
    pricing: { type: 'price_details', price_details: { price: `price_${input.product}`, product: input.product }, unit_amount_decimal: String(input.amount) as unknown as Decimal },
    quantity: 1,
    subtotal: input.amount,
    taxes: [],
  }
}

/** The invoice's lines list, as a webhook carries it (all of them: has_more false). */
function linesOf(input: InvoiceInput) {
  const currency = input.currency ?? 'usd'
  return input.lines ? { lines: { object: 'list' as const, data: input.lines.map((each) => line(each, currency)), has_more: false, url: `/v1/invoices/${input.id}/lines` } } : {}
}

/**
 * invoice.paid of the current API: subscription under parent. The invoice's `payments` are only
 * returned when expanded, so a webhook never carries them: invoice_payment.paid names the payment.
 */
export function invoicePaid(input: InvoiceInput) {
  const discount = input.discount?.amount ?? 0
  const invoice: Pick<Stripe.Invoice, InvoiceFields> = {
    id: input.id,
    object: 'invoice',
    customer: input.customer,
    customer_email: input.email,
    currency: input.currency ?? 'usd',
    status: 'paid',
    billing_reason: input.billingReason,
    subtotal: input.subtotal,
    subtotal_excluding_tax: input.subtotal,
    total: input.subtotal - discount + input.tax,
    total_excluding_tax: input.subtotal - discount,
    total_taxes: input.tax === 0 ? [] : [{ amount: input.tax, tax_behavior: 'exclusive', tax_rate_details: { tax_rate: 'txr_test' }, taxability_reason: 'standard_rated', taxable_amount: input.subtotal - discount, type: 'tax_rate_details' }],
    amount_due: input.subtotal - discount + input.tax,
    amount_paid: input.subtotal - discount + input.tax,
    amount_remaining: 0,
    // Webhook payloads are never expanded: the current API lists discount ids only.
    discounts: input.discount ? [`di_${input.id}`] : [],
    parent: input.subscription
      ? { quote_details: null, subscription_details: { metadata: {}, subscription: input.subscription }, type: 'subscription_details' }
      : null,
    status_transitions: { finalized_at: unix(input.at), marked_uncollectible_at: null, paid_at: unix(input.at), voided_at: null },
    created: unix(input.at),
    livemode: false,
    period_start: unix(input.at),
    period_end: unix(input.at),
    ...linesOf(input),
  }
  return envelope('invoice.paid', input.at, invoice)
}

/** invoice_payment.paid (current API): which payment intent paid which invoice. */
export function invoicePaymentPaid(input: { at: string; invoice: string; paymentIntent: string; amount: number }) {
  const payment: Pick<Stripe.InvoicePayment, 'id' | 'object' | 'amount_paid' | 'amount_requested' | 'created' | 'currency' | 'invoice' | 'is_default' | 'livemode' | 'status' | 'status_transitions'> & {
    payment: Pick<Stripe.InvoicePayment.Payment, 'type' | 'payment_intent'>
  } = {
    id: `inpay_${input.invoice}`,
    object: 'invoice_payment',
    amount_paid: input.amount,
    amount_requested: input.amount,
    created: unix(input.at),
    currency: 'usd',
    invoice: input.invoice,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: input.paymentIntent },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: unix(input.at) },
  }
  return envelope('invoice_payment.paid', input.at, payment)
}

/** Fields of API versions before 2025-03-31 that the current types no longer carry. */
interface LegacyInvoiceFields {
  subscription: string | null
  charge: string
  payment_intent: string
  /** The discount object, its coupon included, as those versions sent it. */
  discount: (Omit<Stripe.Discount, 'source'> & { coupon: Pick<Stripe.Coupon, 'id' | 'object' | 'percent_off' | 'amount_off' | 'duration' | 'valid'> }) | null
}

/** invoice.paid as API versions before 2025-03-31 sent it (subscription, charge on the invoice). */
export function legacyInvoicePaid(input: InvoiceInput & { charge: string }) {
  const { parent: _parent, ...current } = invoicePaid(input).data.object
  const discount: LegacyInvoiceFields['discount'] = input.discount
    ? {
        id: `di_${input.id}`,
        object: 'discount',
        checkout_session: null,
        coupon: { id: input.discount.coupon, object: 'coupon', percent_off: 20, amount_off: null, duration: 'once', valid: true },
        customer: input.customer,
        customer_account: null,
        end: null,
        invoice: input.id,
        invoice_item: null,
        promotion_code: input.discount.promotionCode ?? null,
        start: unix(input.at),
        subscription: input.subscription ?? null,
        subscription_item: null,
      }
    : null
  const invoice: typeof current & LegacyInvoiceFields = { ...current, subscription: input.subscription ?? null, charge: input.charge, payment_intent: input.paymentIntent, discount }
  return envelope('invoice.paid', input.at, invoice, OLD_API)
}

type ChargeFields = 'id' | 'object' | 'amount' | 'amount_captured' | 'amount_refunded' | 'captured' | 'currency' | 'customer' | 'paid' |
  'payment_intent' | 'refunded' | 'status' | 'created' | 'livemode' | 'metadata' | 'receipt_email'

export interface ChargeInput {
  at: string
  id: string
  customer: string
  paymentIntent: string
  /** Tax included, as charged. */
  amount: number
  refundedSoFar: number
}

/** charge.refunded of the current API: the charge names its payment intent only. */
export function chargeRefunded(input: ChargeInput) {
  const charge: Pick<Stripe.Charge, ChargeFields> = {
    id: input.id,
    object: 'charge',
    amount: input.amount,
    amount_captured: input.amount,
    amount_refunded: input.refundedSoFar,
    captured: true,
    currency: 'usd',
    customer: input.customer,
    paid: true,
    payment_intent: input.paymentIntent,
    refunded: input.refundedSoFar === input.amount,
    status: 'succeeded',
    created: unix(input.at),
    livemode: false,
    metadata: {},
    receipt_email: null,
  }
  return envelope('charge.refunded', input.at, charge)
}

/** charge.refunded as API versions before 2025-03-31 sent it: the charge names its invoice. */
export function legacyChargeRefunded(input: ChargeInput & { invoice: string }) {
  const charge: ReturnType<typeof chargeRefunded>['data']['object'] & { invoice: string } = { ...chargeRefunded(input).data.object, invoice: input.invoice }
  return envelope('charge.refunded', input.at, charge, OLD_API)
}

/** An event type the handler does not use. */
export function unusedEvent(at: string) {
  const intent: Pick<Stripe.PaymentIntent, 'id' | 'object' | 'amount' | 'currency' | 'status'> = { id: 'pi_unused', object: 'payment_intent', amount: 100, currency: 'usd', status: 'succeeded' }
  return envelope('payment_intent.succeeded', at, intent)
}

/**
 * A discount object as an API call with `expand[]=discounts` returns it from 2025-09-30 (the
 * coupon at `source.coupon`); webhooks list discount ids only.
 */
export function expandedDiscount(input: { at: string; invoice: string; customer: string; coupon: string; promotionCode?: string }) {
  const discount: Pick<Stripe.Discount, 'id' | 'object' | 'checkout_session' | 'customer' | 'customer_account' | 'end' | 'invoice' | 'invoice_item' | 'promotion_code' | 'source' | 'start' | 'subscription' | 'subscription_item'> = {
    id: `di_${input.invoice}`,
    object: 'discount',
    checkout_session: null,
    customer: input.customer,
    customer_account: null,
    end: null,
    invoice: input.invoice,
    invoice_item: null,
    promotion_code: input.promotionCode ?? null,
    source: { type: 'coupon', coupon: input.coupon },
    start: unix(input.at),
    subscription: null,
    subscription_item: null,
  }
  return discount
}

type SubscriptionFields = 'id' | 'object' | 'customer' | 'status' | 'trial_start' | 'trial_end' | 'ended_at' | 'canceled_at' | 'cancel_at_period_end' | 'collection_method' | 'currency' | 'metadata' | 'created' | 'livemode'

/**
 * customer.subscription.created / .updated / .deleted: the Subscription object. A subscription
 * created with a trial is `trialing` with `trial_start` and `trial_end`; one whose trial ended
 * without a payment method (trial_settings.end_behavior.missing_payment_method: cancel) is
 * deleted in status `canceled`, `ended_at` at the trial's end.
 */
export function subscriptionEvent(
  type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted',
  input: { at: string; id: string; customer: string; status: Stripe.Subscription.Status; trialStart?: string; trialEnd?: string; endedAt?: string; metadataReferral?: string },
) {
  const subscription: Pick<Stripe.Subscription, SubscriptionFields> = {
    id: input.id,
    object: 'subscription',
    customer: input.customer,
    status: input.status,
    trial_start: input.trialStart ? unix(input.trialStart) : null,
    trial_end: input.trialEnd ? unix(input.trialEnd) : null,
    ended_at: input.endedAt ? unix(input.endedAt) : null,
    canceled_at: input.endedAt ? unix(input.endedAt) : null,
    cancel_at_period_end: false,
    collection_method: 'charge_automatically',
    currency: 'usd',
    metadata: input.metadataReferral ? { referral: input.metadataReferral } : {},
    created: unix(input.trialStart ?? input.at),
    livemode: false,
  }
  return envelope(type, input.at, subscription)
}
