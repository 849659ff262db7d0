// Stripe events in the provider-neutral terms. Reads only the fields it needs, as plain JSON,
// so events of any API version map: invoices name their subscription at `subscription` (before
// 2025-03-31) or `parent.subscription_details.subscription`; a charge names its invoice (before)
// or only its payment intent (from 2025-03-31), which invoice_payment.paid links to the invoice:
// the invoice's own `payments` list is returned only when expanded, so never in a webhook.
import { minorDigits, pow10, roundHalfUp } from '../../core/model/money.js'
import { idOf, isRecord, MalformedEvent, minorUnits, namesOf, record, text, type MappedEvent, type PaidLine, type ProviderAction } from '../mapping.js'

/** The events the handler uses; select these when creating the webhook endpoint in Stripe. */
export const STRIPE_EVENTS = [
  'checkout.session.completed',
  'customer.created',
  'customer.updated',
  'invoice.paid',
  'invoice_payment.paid',
  'charge.refunded',
  'transfer.reversed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const
const USED: readonly string[] = STRIPE_EVENTS

export function mapStripeEvent(body: unknown): MappedEvent {
  const event = record(body, 'event')
  const eventId = text(event.id)
  const type = text(event.type)
  if (eventId === null || type === null || typeof event.created !== 'number') throw new MalformedEvent('id, type and created are required')
  const object = record(record(event.data, 'data').object, 'data.object')
  const occurredAt = new Date(event.created * 1000)
  const base = { eventId, type, occurredAt, reference: text(object.id) }
  if (!USED.includes(type)) return { ...base, actions: [], ignored: `${type} is not an event affiliate-kit uses` }
  switch (type) {
    case 'checkout.session.completed':
      return { ...base, reference: idOf(object.customer) ?? base.reference, actions: [checkoutCustomer(object)] }
    case 'customer.created':
    case 'customer.updated':
      return { ...base, actions: [{ kind: 'customer', customerId: text(object.id), email: lower(object.email), referral: referralIn(object.metadata), coupons: [] }] }
    case 'invoice.paid':
      return invoicePaid(base, object)
    case 'invoice_payment.paid':
      return invoicePayment(base, object)
    case 'transfer.reversed':
      return { ...base, actions: [transferReversed(object)] }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionEvent(base, object)
    default:
      return { ...base, reference: paymentOfCharge(object), actions: [chargeRefund(object)] }
  }
}

const lower = (value: unknown) => text(value)?.trim().toLowerCase() ?? null

/** The referral code a checkout or customer carries in its metadata. */
function referralIn(metadata: unknown): string | null {
  if (!isRecord(metadata)) return null
  return text(metadata.referral) ?? text(metadata.referral_code) ?? text(metadata.affiliate_code)
}

function checkoutCustomer(session: Record<string, unknown>): ProviderAction {
  const details = isRecord(session.customer_details) ? session.customer_details : {}
  return {
    kind: 'customer',
    customerId: idOf(session.customer),
    email: lower(details.email) ?? lower(session.customer_email),
    referral: text(session.client_reference_id) ?? referralIn(session.metadata),
    // Webhooks carry the coupon and promotion code ids of each discount (the code's text only when expanded).
    coupons: discountNames(Array.isArray(session.discounts) ? session.discounts : []),
  }
}

function invoicePaid(base: Omit<MappedEvent, 'actions'>, invoice: Record<string, unknown>): MappedEvent {
  const reference = text(invoice.id)
  if (reference === null) throw new MalformedEvent('invoice id is required')
  const currency = text(invoice.currency)?.toUpperCase() ?? null
  if (currency === null) throw new MalformedEvent('invoice currency is required')
  const stripeAmount =
    invoice.total_excluding_tax !== null && invoice.total_excluding_tax !== undefined
      ? minorUnits(invoice.total_excluding_tax, 'total_excluding_tax')
      : minorUnits(invoice.total, 'total') - taxOf(invoice)
  const subscriptionId = idOf(invoice.subscription) ?? subscriptionOfParent(invoice.parent)
  const transitions = isRecord(invoice.status_transitions) ? invoice.status_transitions : {}
  const occurredAt = typeof transitions.paid_at === 'number' ? new Date(transitions.paid_at * 1000) : base.occurredAt
  return {
    ...base,
    occurredAt,
    reference,
    actions: [
      {
        kind: 'paid',
        reference,
        customerId: idOf(invoice.customer),
        email: lower(invoice.customer_email),
        amount: isoMinorUnits(stripeAmount, currency),
        currency,
        coupons: couponsOf(invoice),
        subscriptionId,
        // Only the invoice that starts a subscription earns the purchase rule; cycles, upgrades
        // and manual invoices of a subscription are renewals. Invoices without one are one-off.
        firstPayment: subscriptionId === null || invoice.billing_reason === 'subscription_create',
        aliases: paymentsOf(invoice),
        // From API 2025-03-31, several payment intents may pay one invoice: each one's refunds count against this.
        ...(typeof invoice.amount_paid === 'number' ? { paidTotal: minorUnits(invoice.amount_paid, 'amount_paid') } : {}),
        ...productLines(invoice, currency),
        ...cardOf(invoice),
      },
    ],
  }
}

/**
 * The invoice's product (its first line's) and, when its lines are of several products, the lines:
 * each line's product is `price.product` (before 2025-03-31) or `pricing.price_details.product`;
 * its value is its `amount` less its discounts and any tax included in it. An invoice whose lines
 * are not all in the event (`has_more`) earns as one payment.
 */
function productLines(invoice: Record<string, unknown>, currency: string): { productId: string | null; lines?: PaidLine[] } {
  const list = isRecord(invoice.lines) ? invoice.lines : {}
  const data = Array.isArray(list.data) ? list.data.filter(isRecord) : []
  const lines = data.map((line) => ({ id: text(line.id), productId: productOfLine(line), amount: isoMinorUnits(lineValue(line), currency) }))
  const productId = lines[0]?.productId ?? null
  const products = new Set(lines.map((line) => line.productId))
  if (products.size < 2 || list.has_more === true || lines.some((line) => line.id === null)) return { productId }
  return { productId, lines: lines as PaidLine[] }
}

function productOfLine(line: Record<string, unknown>): string | null {
  if (isRecord(line.price)) return idOf(line.price.product)
  const pricing = isRecord(line.pricing) ? line.pricing : {}
  return isRecord(pricing.price_details) ? idOf(pricing.price_details.product) : null
}

/** A line's amount less its discounts and the tax included in it (tax-inclusive prices). */
function lineValue(line: Record<string, unknown>): bigint {
  const amounts = (list: unknown, counts: (item: Record<string, unknown>) => boolean) =>
    (Array.isArray(list) ? list.filter(isRecord) : []).filter(counts).reduce((sum, item) => sum + minorUnits(item.amount, 'line amount'), 0n)
  const discounts = amounts(line.discount_amounts, () => true)
  // tax_amounts (before 2025-03-31) say `inclusive`; taxes say `tax_behavior`.
  const includedTax = amounts(line.tax_amounts, (tax) => tax.inclusive === true) + amounts(line.taxes, (tax) => tax.tax_behavior === 'inclusive')
  return minorUnits(line.amount, 'line amount') - discounts - includedTax
}

/**
 * Where Stripe's minor unit is not ISO 4217's: ISK stays two-decimal in Stripe's API (100 is one
 * króna; ISO: zero), MGA is zero-decimal there (ISO: two). See docs.stripe.com/currencies.
 */
const STRIPE_DIGITS = new Map([
  ['ISK', 2],
  ['MGA', 0],
])

/** A Stripe amount in the ISO 4217 minor units the core counts in (whole krónur rounded half up). */
function isoMinorUnits(amount: bigint, currency: string): bigint {
  const stripe = STRIPE_DIGITS.get(currency)
  if (stripe === undefined) return amount
  const shift = minorDigits(currency) - stripe
  return shift >= 0 ? amount * pow10(shift) : roundHalfUp(amount, pow10(-shift))
}

function taxOf(invoice: Record<string, unknown>): bigint {
  if (typeof invoice.tax === 'number') return BigInt(invoice.tax)
  if (!Array.isArray(invoice.total_taxes)) return 0n
  return invoice.total_taxes.reduce<bigint>((sum, tax) => sum + (isRecord(tax) && typeof tax.amount === 'number' ? BigInt(tax.amount) : 0n), 0n)
}

function subscriptionOfParent(parent: unknown): string | null {
  if (!isRecord(parent) || !isRecord(parent.subscription_details)) return null
  return idOf(parent.subscription_details.subscription)
}

/**
 * The names of the invoice's discounts. Before 2025-03-31 `discount` is the discount object, its
 * coupon expanded; later `discounts` lists discount ids only (webhooks never expand them: the
 * checkout session names the coupon), or discount objects when expanded, whose coupon is at
 * `coupon` (before 2025-09-30) or `source.coupon`.
 */
function couponsOf(invoice: Record<string, unknown>): string[] {
  return discountNames([invoice.discount, ...(Array.isArray(invoice.discounts) ? invoice.discounts : [])])
}

/**
 * Each discount's promotion code text (when expanded) and id, then its coupon id: the most
 * specific first, since one coupon may back the promotion codes of several affiliates.
 */
function discountNames(discounts: unknown[]): string[] {
  const names: Array<string | null> = []
  for (const discount of discounts.filter(isRecord)) {
    const promotion = discount.promotion_code
    const source = isRecord(discount.source) ? discount.source.coupon : undefined
    names.push(isRecord(promotion) ? text(promotion.code) : null, idOf(promotion), idOf(source) ?? idOf(discount.coupon))
  }
  return namesOf(...names)
}

/** The payment intents and charges the invoice names (before 2025-03-31, or `payments` expanded): a refund names one of these. */
/**
 * The card fingerprint of the charge that paid the invoice, when the event carries the charge
 * expanded (`charge` before 2025-03-31, `payments.data[].payment.charge` after): Stripe's own
 * webhooks name charges by id only, so this is there only when the sender expanded it.
 */
function cardOf(invoice: Record<string, unknown>): { cardFingerprint?: string } {
  const payments = isRecord(invoice.payments) && Array.isArray(invoice.payments.data) ? invoice.payments.data : []
  const charges = [invoice.charge, ...payments.map((item) => (isRecord(item) && isRecord(item.payment) ? item.payment.charge : null))]
  for (const charge of charges) {
    const details = isRecord(charge) && isRecord(charge.payment_method_details) ? charge.payment_method_details : null
    const fingerprint = details && isRecord(details.card) ? text(details.card.fingerprint) : null
    if (fingerprint !== null && /^[A-Za-z0-9_-]{1,100}$/.test(fingerprint)) return { cardFingerprint: fingerprint }
  }
  return {}
}

function paymentsOf(invoice: Record<string, unknown>): string[] {
  const ids = [idOf(invoice.payment_intent), idOf(invoice.charge)]
  const payments = isRecord(invoice.payments) && Array.isArray(invoice.payments.data) ? invoice.payments.data : []
  for (const item of payments) {
    if (!isRecord(item) || !isRecord(item.payment)) continue
    ids.push(idOf(item.payment.payment_intent), idOf(item.payment.charge))
  }
  return [...new Set(ids.filter((id): id is string => id !== null))]
}

/** The payment intent or charge that paid an invoice (an invoice_payment, API 2025-03-31 on). */
function invoicePayment(base: Omit<MappedEvent, 'actions'>, paid: Record<string, unknown>): MappedEvent {
  const invoice = idOf(paid.invoice)
  if (invoice === null) throw new MalformedEvent('invoice_payment.invoice is required')
  const payment = isRecord(paid.payment) ? paid.payment : {}
  const aliases = [idOf(payment.payment_intent), idOf(payment.charge)].filter((id): id is string => id !== null)
  if (aliases.length === 0) return { ...base, reference: invoice, actions: [], ignored: `${invoice} was paid by neither a payment intent nor a charge` }
  return { ...base, reference: invoice, actions: [{ kind: 'alias', paymentReference: invoice, aliases }] }
}

function paymentOfCharge(charge: Record<string, unknown>): string {
  const reference = idOf(charge.invoice) ?? idOf(charge.payment_intent) ?? text(charge.id)
  if (reference === null) throw new MalformedEvent('charge id is required')
  return reference
}

function chargeRefund(charge: Record<string, unknown>): ProviderAction {
  return {
    kind: 'refunded',
    paymentReference: paymentOfCharge(charge),
    full: charge.refunded === true,
    soFar: { refunded: minorUnits(charge.amount_refunded, 'amount_refunded'), of: minorUnits(charge.amount, 'amount'), ...(text(charge.id) ? { part: text(charge.id)! } : {}) },
  }
}

/** Statuses of a subscription that ended, or that Stripe stopped trying to collect: a trial of it ends unpaid unless its customer paid. */
const ENDED = new Set(['canceled', 'incomplete_expired', 'unpaid'])

/**
 * A subscription's trial and its end (docs/commissions.md "Leads and trials"): created in status
 * `trialing`, a trial started; deleted, or updated to `canceled`, `incomplete_expired` or `unpaid`,
 * it ended (`past_due` has not: Stripe still retries the payment). Anything else is recorded only.
 */
function subscriptionEvent(base: Omit<MappedEvent, 'actions'>, subscription: Record<string, unknown>): MappedEvent {
  const id = text(subscription.id)
  if (id === null) throw new MalformedEvent('subscription id is required')
  const status = text(subscription.status)
  const customerId = idOf(subscription.customer)
  const referral = referralIn(subscription.metadata)
  if (base.type === 'customer.subscription.created') {
    if (status !== 'trialing') return { ...base, actions: [], ignored: `subscription ${id} started ${String(status)}, not in a trial: its invoices earn` }
    const actions: ProviderAction[] = []
    // A subscription created by the API may carry the referral in its metadata.
    if (referral !== null && customerId !== null) actions.push({ kind: 'customer', customerId, email: null, referral, coupons: [] })
    actions.push({ kind: 'trial-started', subscriptionId: id, customerId, email: null })
    return { ...base, actions }
  }
  if (base.type === 'customer.subscription.deleted' || (status !== null && ENDED.has(status))) {
    return { ...base, actions: [{ kind: 'subscription-ended', subscriptionId: id }] }
  }
  return { ...base, actions: [], ignored: `subscription ${id} is ${String(status)}: nothing to apply` }
}

/** A Connect transfer of one of the program's payouts reversed: its metadata names the payout (see src/payouts/stripe/transfers.ts). */
function transferReversed(transfer: Record<string, unknown>): ProviderAction {
  const id = text(transfer.id)
  if (id === null) throw new MalformedEvent('transfer id is required')
  const metadata = isRecord(transfer.metadata) ? transfer.metadata : {}
  const payoutId = text(metadata.payout_id)
  const amount = minorUnits(transfer.amount, 'amount')
  return {
    kind: 'transfer-reversed',
    transfer: id,
    payoutId: payoutId !== null && /^\d{1,15}$/.test(payoutId) ? Number(payoutId) : null,
    projectId: text(metadata.project_id),
    full: transfer.reversed === true || minorUnits(transfer.amount_reversed, 'amount_reversed') >= amount,
  }
}
