// Polar events in the provider-neutral terms (docs/providers.md "Polar"). The payload is
// { type, timestamp, data }, data an Order or a Subscription; amounts are integer cents, the
// currency lower case. An order's net_amount is after discounts, before tax; refunded_amount is
// the running total of its refunds before tax, so a refund is that total out of net_amount.
import { isRecord, MalformedEvent, minorUnits, namesOf, record, text, type MappedEvent, type ProviderAction } from '../mapping.js'

/** The events the handler uses; subscribe the webhook endpoint to these. */
export const POLAR_EVENTS = ['order.paid', 'order.refunded', 'subscription.canceled'] as const
const USED: readonly string[] = POLAR_EVENTS
/** Orders that start something: a one-time purchase, a subscription's first. Renewals are subscription_cycle and subscription_update. */
const FIRST_REASONS = new Set(['purchase', 'subscription_create'])

/** A verified delivery: the webhook-id header (the event's id) and the parsed body. */
export interface PolarDelivery {
  webhookId: string
  event: unknown
}

export function mapPolarEvent(delivery: PolarDelivery): MappedEvent {
  const eventId = text(delivery.webhookId)
  const event = record(delivery.event, 'event')
  const type = text(event.type)
  const sent = new Date(String(event.timestamp))
  if (eventId === null || type === null || Number.isNaN(sent.getTime())) throw new MalformedEvent('webhook-id, type and timestamp are required')
  const data = record(event.data, 'data')
  const base = { eventId, type, occurredAt: sent, reference: text(data.id) }
  if (!USED.includes(type)) return { ...base, actions: [], ignored: `${type} is not an event affiliate-kit uses` }
  if (type === 'order.paid') return orderPaid(base, data)
  if (type === 'order.refunded') return orderRefunded(base, data)
  // A cancellation ends the renewals (and with them their commissions); nothing earned changes.
  return { ...base, actions: [], ignored: `subscription ${String(base.reference)} was canceled: no later renewals, nothing earned changes` }
}

/** The referral a checkout's metadata carries (the order's, else the customer's), else the customer's external_id. */
function referralOf(order: Record<string, unknown>, customer: Record<string, unknown>): string | null {
  for (const metadata of [order.metadata, customer.metadata]) {
    if (!isRecord(metadata)) continue
    const referral = text(metadata.referral) ?? text(metadata.referral_code) ?? text(metadata.affiliate_code)
    if (referral !== null) return referral
  }
  return text(customer.external_id)
}

function orderPaid(base: Omit<MappedEvent, 'actions'>, order: Record<string, unknown>): MappedEvent {
  const reference = text(order.id)
  const currency = text(order.currency)?.toUpperCase() ?? null
  const created = new Date(String(order.created_at))
  if (reference === null || currency === null || Number.isNaN(created.getTime())) throw new MalformedEvent('order id, currency and created_at are required')
  const customer = record(order.customer, 'customer')
  const customerId = text(order.customer_id) ?? text(customer.id)
  const email = text(customer.email)?.trim().toLowerCase() ?? null
  const discount = isRecord(order.discount) ? order.discount : {}
  const coupons = namesOf(text(discount.code), text(order.discount_id))
  const actions: ProviderAction[] = []
  const referral = referralOf(order, customer)
  if (referral !== null) actions.push({ kind: 'customer', customerId, email, referral, coupons: [] })
  actions.push({
    kind: 'paid',
    reference,
    customerId,
    email,
    amount: minorUnits(order.net_amount, 'net_amount'),
    currency,
    coupons,
    subscriptionId: text(order.subscription_id),
    firstPayment: FIRST_REASONS.has(String(order.billing_reason)),
    aliases: [],
    productId: text(order.product_id) ?? (isRecord(order.product) ? text(order.product.id) : null),
  })
  return { ...base, occurredAt: created, reference, actions }
}

function orderRefunded(base: Omit<MappedEvent, 'actions'>, order: Record<string, unknown>): MappedEvent {
  const reference = text(order.id)
  if (reference === null) throw new MalformedEvent('order id is required')
  const refunded = minorUnits(order.refunded_amount, 'refunded_amount')
  const of = minorUnits(order.net_amount, 'net_amount')
  if (refunded <= 0n) return { ...base, reference, actions: [], ignored: `order ${reference} has nothing refunded` }
  return { ...base, reference, actions: [{ kind: 'refunded', paymentReference: reference, full: order.status === 'refunded', soFar: { refunded, of } }] }
}
