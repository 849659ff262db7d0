// Recurly notifications in the provider-neutral terms (docs/providers.md "Recurly"). Each is mapped
// with the resources read back from the API v3 (./fetch-back.ts): amounts are the API's decimals
// read exactly into minor units (./amounts.ts). A charge invoice earns once it is paid, by its
// `total` less its `tax`, referenced by its id; whichever of charge_invoice.created,
// charge_invoice.paid and payment.succeeded finds it paid records it, the others find it recorded.
// A refund is its refund transaction, applied once by its id against the credit invoice's
// `previous_invoice_id`; a voided payment refunds what it paid of its invoice.
import { roundHalfUp } from '../../core/model/money.js'
import { idOf, isRecord, MalformedEvent, namesOf, record, text, type MappedEvent, type PaidLine, type ProviderAction } from '../mapping.js'
import { magnitude, minorOf, minorOrZero } from './amounts.js'
import type { RecurlyDelivery } from './fetch-back.js'

/**
 * The notifications the handler uses, as JSON endpoints name them (`object_type.event_type`):
 * new_charge_invoice, paid_charge_invoice, successful_payment, successful_refund, void_payment and
 * canceled_subscription in the XML names. Subscribe the endpoint to these.
 */
export const RECURLY_EVENTS = ['charge_invoice.created', 'charge_invoice.paid', 'payment.succeeded', 'payment.refunded', 'payment.voided', 'subscription.canceled'] as const
const USED: readonly string[] = RECURLY_EVENTS
/** The account custom fields that may carry the referral code, in order. */
const REFERRAL_FIELDS = ['referral', 'referral_code', 'affiliate_code']

type Base = Omit<MappedEvent, 'actions'>

export function mapRecurlyDelivery(delivery: RecurlyDelivery): MappedEvent {
  const notification = record(delivery.notification, 'notification')
  const id = text(notification.id)
  const objectType = text(notification.object_type)
  const eventType = text(notification.event_type)
  const sent = text(notification.event_time)
  const at = new Date(sent ?? '')
  if (id === null || objectType === null || eventType === null || sent === null || Number.isNaN(at.getTime())) throw new MalformedEvent('id, object_type, event_type and event_time are required')
  const type = `${objectType}.${eventType}`
  // A notification's id names its object (the invoice, the transaction), not the notification: with
  // its type and time it is the event's id, the same on each delivery of that notification.
  const base: Base = { eventId: `${type}:${id}@${sent}`, type, occurredAt: at, reference: null }
  if (!USED.includes(type)) return { ...base, actions: [], ignored: `${type} is not a notification affiliate-kit uses` }
  if (type === 'subscription.canceled') {
    const uuid = text(notification.uuid)
    return { ...base, reference: uuid, actions: [], ignored: `subscription ${String(uuid)} was canceled: no later renewals, nothing earned changes` }
  }
  if (type === 'charge_invoice.created' || type === 'charge_invoice.paid') return paidInvoice(base, delivery, record(delivery.invoice, 'invoice'))
  const transaction = record(delivery.transaction, 'transaction')
  const reference = text(transaction.id)
  if (reference === null) throw new MalformedEvent('transaction id is required')
  if (!isRecord(delivery.invoice)) return { ...base, reference, actions: [], ignored: `transaction ${reference} names no invoice` }
  if (type === 'payment.succeeded') return paidInvoice({ ...base, reference }, delivery, delivery.invoice)
  if (type === 'payment.refunded') return refund(base, transaction, delivery.invoice)
  return voided(base, transaction, delivery.invoice)
}

const lower = (value: unknown) => text(value)?.trim().toLowerCase() ?? null

function currencyOf(resource: Record<string, unknown>, field: string): string {
  const currency = text(resource.currency)?.toUpperCase() ?? null
  if (currency === null || !/^[A-Z]{3}$/.test(currency)) throw new MalformedEvent(`${field}.currency must be an ISO 4217 code`)
  return currency
}

/** What the invoice charged before tax, after discounts, in minor units (negative on a credit invoice). */
const untaxed = (invoice: Record<string, unknown>, currency: string) => minorOf(invoice.total, currency, 'invoice.total') - minorOrZero(invoice.tax, currency, 'invoice.tax')

function paidInvoice(base: Base, delivery: RecurlyDelivery, invoice: Record<string, unknown>): MappedEvent {
  const reference = text(invoice.id)
  if (reference === null) throw new MalformedEvent('invoice id is required')
  const named = { ...base, reference: base.reference ?? reference }
  if (invoice.type !== 'charge') return { ...named, actions: [], ignored: `invoice ${reference} is a ${String(invoice.type)} invoice` }
  if (invoice.state !== 'paid') return { ...named, actions: [], ignored: `invoice ${reference} is ${String(invoice.state)}: it earns once paid` }
  const currency = currencyOf(invoice, 'invoice')
  const account = isRecord(delivery.account) ? delivery.account : record(invoice.account, 'invoice.account')
  const customerId = text(account.code)
  const email = lower(account.email)
  const coupons = couponsOf(delivery.couponRedemptions)
  const subscriptions = Array.isArray(invoice.subscription_ids) ? invoice.subscription_ids.map(text) : []
  const subscriptionId = subscriptions.find((each) => each !== null) ?? null
  // A one-off invoice, and a subscription's purchase invoice, start something; renewals and changes follow it.
  const firstPayment = subscriptionId === null || invoice.origin === 'purchase'
  // The account keeps its custom field: read at the payment that starts something, as a checkout's
  // referral is, so a renewal delivered first waits for it rather than counting as the first.
  const referral = firstPayment ? customField(account, REFERRAL_FIELDS) : null
  const lines = linesOf(invoice.line_items, currency)
  const actions: ProviderAction[] = []
  if (referral !== null || coupons.length > 0) actions.push({ kind: 'customer', customerId, email, referral, coupons })
  actions.push({
    kind: 'paid',
    reference,
    customerId,
    email,
    amount: untaxed(invoice, currency),
    currency,
    coupons,
    subscriptionId,
    firstPayment,
    aliases: [],
    productId: lines[0]?.productId ?? null,
    ...(new Set(lines.map((line) => line.productId)).size > 1 ? { lines } : {}),
  })
  const closed = new Date(String(invoice.closed_at))
  return { ...named, occurredAt: Number.isNaN(closed.getTime()) ? base.occurredAt : closed, actions }
}

/** The first non-empty value among the named custom fields ([{ name, value }]). */
function customField(resource: Record<string, unknown>, names: string[]): string | null {
  const fields = Array.isArray(resource.custom_fields) ? resource.custom_fields.filter(isRecord) : []
  for (const name of names) {
    const found = fields.find((field) => field.name === name && text(field.value) !== null)
    if (found) return text(found.value)
  }
  return null
}

/** Each redeemed coupon's code, then its id. */
function couponsOf(redemptions: unknown): string[] {
  const coupons = (Array.isArray(redemptions) ? redemptions : []).map((redemption) => (isRecord(redemption) && isRecord(redemption.coupon) ? redemption.coupon : {}))
  return namesOf(...coupons.flatMap((coupon) => [text(coupon.code), text(coupon.id)]))
}

/** The invoice's charge lines, each at its subtotal less its discount; its product the item's code, else the add-on's or the plan's. */
function linesOf(items: unknown, currency: string): PaidLine[] {
  const list = Array.isArray(items) ? items : isRecord(items) && Array.isArray(items.data) ? items.data : []
  return list
    .filter(isRecord)
    .filter((line) => line.type !== 'credit')
    .map((line) => ({
      id: text(line.id) ?? '',
      productId: text(line.item_code) ?? text(line.add_on_code) ?? text(line.plan_code),
      amount: minorOf(line.subtotal ?? 0, currency, 'line_items.subtotal') - minorOrZero(line.discount, currency, 'line_items.discount'),
    }))
}

/** `part` of `whole` as its share of `value` (all of it when part covers whole). */
const share = (value: bigint, part: bigint, whole: bigint) => (whole <= 0n || part >= whole ? value : roundHalfUp(value * part, whole))

/** A successful refund transaction: its share of its credit invoice's untaxed value, once by its id, against the invoice the credit invoice refunds. */
function refund(base: Base, transaction: Record<string, unknown>, credit: Record<string, unknown>): MappedEvent {
  const refundId = text(transaction.id)!
  const paymentReference = text(credit.previous_invoice_id)
  if (transaction.type !== 'refund' || transaction.status !== 'success') return { ...base, reference: refundId, actions: [], ignored: `transaction ${refundId} is not a successful refund` }
  if (paymentReference === null) return { ...base, reference: refundId, actions: [], ignored: `credit invoice ${String(credit.id)} refunds no earlier invoice` }
  const currency = currencyOf(credit, 'invoice')
  const whole = magnitude(minorOf(credit.total, currency, 'invoice.total'))
  const amount = share(magnitude(untaxed(credit, currency)), magnitude(minorOf(transaction.amount, currency, 'transaction.amount')), whole)
  return { ...base, reference: paymentReference, actions: [{ kind: 'refunded', paymentReference, full: false, single: { refundId, amount } }] }
}

/** A voided payment gives back what it paid of its charge invoice: that share of the invoice's untaxed value, once. */
function voided(base: Base, transaction: Record<string, unknown>, invoice: Record<string, unknown>): MappedEvent {
  const id = text(transaction.id)!
  const reference = idOf(invoice.id)
  if (reference === null) throw new MalformedEvent('invoice id is required')
  if (transaction.status !== 'void' || (transaction.type !== 'purchase' && transaction.type !== 'capture')) {
    return { ...base, reference, actions: [], ignored: `transaction ${id} is not a voided payment` }
  }
  if (invoice.type !== 'charge') return { ...base, reference, actions: [], ignored: `invoice ${reference} is a ${String(invoice.type)} invoice` }
  const currency = currencyOf(invoice, 'invoice')
  const total = minorOf(invoice.total, currency, 'invoice.total')
  const paid = minorOf(transaction.amount, currency, 'transaction.amount')
  const amount = share(untaxed(invoice, currency), paid, total)
  return { ...base, reference, actions: [{ kind: 'refunded', paymentReference: reference, full: paid >= total, single: { refundId: `void:${id}`, amount } }] }
}
