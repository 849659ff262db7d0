// Lemon Squeezy events in the provider-neutral terms. Payloads have no event id: the event name,
// object and its updated_at (to the second) identify a delivery, and a refund's amount refunded so
// far too (two partial refunds may share a second). Orders and subscription invoices carry the
// customer's email; checkout custom data carries the referral (and a coupon, since the discount
// code itself is not in the payload).
import { isRecord, MalformedEvent, minorUnits, namesOf, record, text, type MappedEvent, type ProviderAction } from '../mapping.js'

/** The events the handler uses; tick these in the webhook's settings. */
export const LEMON_SQUEEZY_EVENTS = [
  'order_created',
  'order_refunded',
  'subscription_payment_success',
  'subscription_payment_refunded',
  'subscription_created',
  'subscription_expired',
] as const
const USED: readonly string[] = LEMON_SQUEEZY_EVENTS

export function mapLemonSqueezyEvent(body: unknown): MappedEvent {
  const event = record(body, 'event')
  const meta = record(event.meta, 'meta')
  const type = text(meta.event_name)
  const data = record(event.data, 'data')
  const attributes = record(data.attributes, 'data.attributes')
  const objectId = data.id === undefined || data.id === null ? null : String(data.id)
  const updated = new Date(String(attributes.updated_at ?? attributes.created_at))
  if (type === null || objectId === null || Number.isNaN(updated.getTime())) throw new MalformedEvent('meta.event_name, data.id and updated_at are required')
  const reference = `${data.type === 'orders' ? 'ls-order' : data.type === 'subscriptions' ? 'ls-subscription' : 'ls-invoice'}-${objectId}`
  const base = { eventId: `${type}:${String(data.type)}:${objectId}:${updated.toISOString()}`, type, occurredAt: updated, reference }
  if (!USED.includes(type)) return { ...base, actions: [], ignored: `${type} is not an event affiliate-kit uses` }
  if (type === 'subscription_created' || type === 'subscription_expired') return subscriptionEvent(base, objectId, attributes, meta)
  const initialInvoice = data.type === 'subscription-invoices' && attributes.billing_reason === 'initial'
  if (initialInvoice && type === 'subscription_payment_refunded') {
    return { ...base, actions: [], ignored: `${reference}: the first invoice of a subscription; its order_refunded refunds the commission` }
  }
  if (type === 'order_refunded' || type === 'subscription_payment_refunded') {
    const refundedSoFar = minorUnits(attributes.refunded_amount ?? 0, 'refunded_amount')
    return { ...base, eventId: `${base.eventId}:${refundedSoFar}`, actions: [refund(reference, attributes, refundedSoFar)] }
  }
  if (initialInvoice && type === 'subscription_payment_success') {
    return { ...base, actions: [], ignored: `${reference}: the first invoice of a subscription; its order_created pays the commission` }
  }
  const customData = isRecord(meta.custom_data) ? meta.custom_data : {}
  const customerId = attributes.customer_id === undefined || attributes.customer_id === null ? null : String(attributes.customer_id)
  const email = text(attributes.user_email)?.trim().toLowerCase() ?? null
  const currency = text(attributes.currency)
  if (currency === null) throw new MalformedEvent('currency is required')
  const coupon = text(customData.coupon)
  const referral = text(customData.referral) ?? text(customData.referral_code) ?? text(customData.affiliate_code)
  const actions: ProviderAction[] = []
  if (referral !== null || coupon !== null) actions.push({ kind: 'customer', customerId, email, referral, coupons: namesOf(coupon) })
  actions.push({
    kind: 'paid',
    reference,
    customerId,
    email,
    // What was paid, less its tax: whether the subtotal holds the setup fee or the tax (tax-inclusive prices) or not.
    amount: minorUnits(attributes.total, 'total') - minorUnits(attributes.tax, 'tax'),
    currency: currency.toUpperCase(),
    coupons: namesOf(coupon),
    subscriptionId: attributes.subscription_id === undefined || attributes.subscription_id === null ? null : String(attributes.subscription_id),
    // An order is a customer's first payment; a subscription invoice past the first is a renewal.
    firstPayment: type === 'order_created',
    aliases: [],
    // Orders name their product; subscription invoices do not (their renewals earn by the rules without a product).
    productId: orderProduct(attributes.first_order_item),
  })
  return { ...base, actions }
}

/**
 * A subscription's trial (`subscription_created` in status `on_trial`) and its end
 * (`subscription_expired`; a `subscription_cancelled` one runs, and may be resumed, until its
 * `ends_at`), docs/commissions.md "Leads and trials". Its custom data carries the referral.
 */
function subscriptionEvent(base: Omit<MappedEvent, 'actions'>, id: string, attributes: Record<string, unknown>, meta: Record<string, unknown>): MappedEvent {
  if (base.type === 'subscription_expired') return { ...base, actions: [{ kind: 'subscription-ended', subscriptionId: id }] }
  if (attributes.status !== 'on_trial') return { ...base, actions: [], ignored: `subscription ${id} started ${String(attributes.status)}, not on a trial: its order earns` }
  const customData = isRecord(meta.custom_data) ? meta.custom_data : {}
  const customerId = attributes.customer_id === undefined || attributes.customer_id === null ? null : String(attributes.customer_id)
  const email = text(attributes.user_email)?.trim().toLowerCase() ?? null
  const coupon = text(customData.coupon)
  const referral = text(customData.referral) ?? text(customData.referral_code) ?? text(customData.affiliate_code)
  const actions: ProviderAction[] = []
  if (referral !== null || coupon !== null) actions.push({ kind: 'customer', customerId, email, referral, coupons: namesOf(coupon) })
  actions.push({ kind: 'trial-started', subscriptionId: id, customerId, email })
  return { ...base, actions }
}

/** The product of an order's first item, as text (Lemon Squeezy's ids are numbers). */
function orderProduct(item: unknown): string | null {
  if (!isRecord(item) || item.product_id === undefined || item.product_id === null) return null
  return String(item.product_id)
}

/** A refund of the payment `reference`: Lemon Squeezy's `refunded_amount` is what was refunded so far. */
function refund(reference: string, attributes: Record<string, unknown>, refundedSoFar: bigint): ProviderAction {
  const total = minorUnits(attributes.total, 'total')
  return {
    kind: 'refunded',
    paymentReference: reference,
    full: attributes.refunded === true && refundedSoFar >= total,
    soFar: { refunded: refundedSoFar, of: total },
  }
}
