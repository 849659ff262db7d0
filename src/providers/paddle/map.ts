// Paddle Billing events in the provider-neutral terms. Amounts are integer text in the lowest
// denomination; a transaction names its customer by id only (customer.created brings the email);
// refunds and credits are adjustments, each applied once when approved.
import { isRecord, MalformedEvent, minorUnits, namesOf, record, text, type MappedEvent, type ProviderAction } from '../mapping.js'

/** The events the handler uses; subscribe the notification destination to these. */
export const PADDLE_EVENTS = [
  'transaction.completed',
  'customer.created',
  'customer.updated',
  'adjustment.created',
  'adjustment.updated',
  'subscription.trialing',
  'subscription.canceled',
] as const
const USED: readonly string[] = PADDLE_EVENTS
/** Adjustments that give money back: a refund, a credit (to the customer's balance or off an invoice), a chargeback. */
const GIVES_BACK = new Set(['refund', 'credit', 'chargeback'])
/** Transactions that start something: a checkout, or one made through the API. */
const FIRST_ORIGINS = new Set(['web', 'api'])

export function mapPaddleEvent(body: unknown): MappedEvent {
  const event = record(body, 'event')
  const eventId = text(event.event_id)
  const type = text(event.event_type)
  const occurred = new Date(String(event.occurred_at))
  if (eventId === null || type === null || Number.isNaN(occurred.getTime())) throw new MalformedEvent('event_id, event_type and occurred_at are required')
  const data = record(event.data, 'data')
  const base = { eventId, type, occurredAt: occurred, reference: text(data.id) }
  if (!USED.includes(type)) return { ...base, actions: [], ignored: `${type} is not an event affiliate-kit uses` }
  if (type === 'transaction.completed') return transactionCompleted(base, data)
  if (type === 'customer.created' || type === 'customer.updated') {
    return { ...base, actions: [{ kind: 'customer', customerId: text(data.id), email: text(data.email)?.trim().toLowerCase() ?? null, referral: referralIn(data.custom_data), coupons: [] }] }
  }
  if (type === 'subscription.trialing' || type === 'subscription.canceled') return subscriptionEvent(base, data)
  return adjustment(base, data)
}

/**
 * A subscription's trial (`subscription.trialing`) and its end (`subscription.canceled`, docs/commissions.md
 * "Leads and trials"). The subscription names its customer by id; its custom data carries the checkout's referral.
 */
function subscriptionEvent(base: Omit<MappedEvent, 'actions'>, subscription: Record<string, unknown>): MappedEvent {
  const id = text(subscription.id)
  if (id === null) throw new MalformedEvent('subscription id is required')
  if (base.type === 'subscription.canceled') return { ...base, actions: [{ kind: 'subscription-ended', subscriptionId: id }] }
  const customerId = text(subscription.customer_id)
  const referral = referralIn(subscription.custom_data)
  const actions: ProviderAction[] = []
  if (referral !== null && customerId !== null) actions.push({ kind: 'customer', customerId, email: null, referral, coupons: [] })
  actions.push({ kind: 'trial-started', subscriptionId: id, customerId, email: null })
  return { ...base, actions }
}

/** The product of the transaction's first item (`items[].price.product_id`). */
function firstProduct(items: unknown): string | null {
  const first = Array.isArray(items) ? items[0] : undefined
  return isRecord(first) && isRecord(first.price) ? text(first.price.product_id) : null
}

function referralIn(customData: unknown): string | null {
  if (!isRecord(customData)) return null
  return text(customData.referral) ?? text(customData.referral_code) ?? text(customData.affiliate_code)
}

function transactionCompleted(base: Omit<MappedEvent, 'actions'>, transaction: Record<string, unknown>): MappedEvent {
  const reference = text(transaction.id)
  const currency = text(transaction.currency_code)
  if (reference === null || currency === null) throw new MalformedEvent('transaction id and currency_code are required')
  const details = record(transaction.details, 'details')
  const totals = record(details.totals, 'details.totals')
  const amount = minorUnits(totals.subtotal, 'subtotal') - minorUnits(totals.discount ?? '0', 'discount')
  const customerId = text(transaction.customer_id)
  const subscriptionId = text(transaction.subscription_id)
  const billedAt = text(transaction.billed_at)
  const actions: ProviderAction[] = []
  const referral = referralIn(transaction.custom_data)
  // Paddle.js passes checkout custom data to the transaction: it carries the referral.
  if (referral !== null && customerId !== null) actions.push({ kind: 'customer', customerId, email: null, referral, coupons: [] })
  actions.push({
    kind: 'paid',
    reference,
    customerId,
    email: null,
    amount,
    currency,
    coupons: namesOf(text(transaction.discount_id)),
    subscriptionId,
    firstPayment: subscriptionId === null || FIRST_ORIGINS.has(String(transaction.origin)),
    aliases: [],
    productId: firstProduct(transaction.items),
  })
  return { ...base, occurredAt: billedAt ? new Date(billedAt) : base.occurredAt, reference, actions }
}

function adjustment(base: Omit<MappedEvent, 'actions'>, adjustment: Record<string, unknown>): MappedEvent {
  const id = text(adjustment.id)
  const transactionId = text(adjustment.transaction_id)
  if (id === null || transactionId === null) throw new MalformedEvent('adjustment id and transaction_id are required')
  const reference = transactionId
  if (typeof adjustment.action !== 'string' || !GIVES_BACK.has(adjustment.action)) {
    return { ...base, reference, actions: [], ignored: `adjustment ${id} is a ${String(adjustment.action)}, not a refund` }
  }
  if (adjustment.status !== 'approved') {
    return { ...base, reference, actions: [], ignored: `adjustment ${id} is ${String(adjustment.status)}; it applies once approved` }
  }
  const totals = record(adjustment.totals, 'totals')
  return {
    ...base,
    reference,
    actions: [{ kind: 'refunded', paymentReference: transactionId, full: adjustment.type === 'full', single: { refundId: id, amount: minorUnits(totals.subtotal, 'totals.subtotal') } }],
  }
}
