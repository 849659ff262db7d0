// Braintree notifications in the provider-neutral terms (docs/providers.md "Braintree"), as the
// braintree package parses them: { kind, timestamp, subscription?, transaction? } with camelCased
// attributes, amounts decimal text in the transaction's currency. A subscription's charge is its
// transactions[0]; its first charge is billing cycle 1. A refund is a credit transaction naming
// the refunded one (refundedTransactionId), its amount less its taxAmount taken off the payment.
// Notifications carry no id: the kind and the subject's id make one.
import { minorDigits, parseMoney } from '../../core/model/money.js'
import { isRecord, MalformedEvent, namesOf, record, text, type MappedEvent, type ProviderAction } from '../mapping.js'

/** The notifications the handler uses; subscribe the webhook to these. */
export const BRAINTREE_EVENTS = ['subscription_charged_successfully', 'transaction_settled', 'subscription_canceled'] as const
const USED: readonly string[] = BRAINTREE_EVENTS

export function mapBraintreeNotification(body: unknown): MappedEvent {
  const notification = record(body, 'notification')
  const kind = text(notification.kind)
  const sent = dateOf(notification.timestamp)
  if (kind === null || sent === null) throw new MalformedEvent('kind and timestamp are required')
  const base = { type: kind, occurredAt: sent }
  if (!USED.includes(kind)) return { ...base, eventId: `${kind}:${sent.toISOString()}`, reference: null, actions: [], ignored: `${kind} is not a notification affiliate-kit uses` }
  if (kind === 'transaction_settled') return transactionSettled(base, record(notification.transaction, 'transaction'))
  const subscription = record(notification.subscription, 'subscription')
  const id = text(subscription.id)
  if (id === null) throw new MalformedEvent('subscription id is required')
  if (kind === 'subscription_canceled') {
    // A cancellation ends the renewals (and with them their commissions); nothing earned changes.
    return { ...base, eventId: `${kind}:${id}`, reference: id, actions: [], ignored: `subscription ${id} was canceled: no later renewals, nothing earned changes` }
  }
  const transactions = Array.isArray(subscription.transactions) ? (subscription.transactions as unknown[]) : []
  const charge = record(transactions[0], 'subscription.transactions[0]')
  const paid = payment(charge, { subscriptionId: id, firstPayment: Number(subscription.currentBillingCycle) === 1, productId: text(subscription.planId) ?? text(charge.planId) })
  return { ...base, eventId: `${kind}:${paid.reference}`, ...paid }
}

function transactionSettled(base: Pick<MappedEvent, 'type' | 'occurredAt'>, transaction: Record<string, unknown>): MappedEvent {
  const id = text(transaction.id)
  if (id === null) throw new MalformedEvent('transaction id is required')
  const eventId = `${base.type}:${id}`
  const refunded = text(transaction.refundedTransactionId)
  if (transaction.type === 'credit') {
    if (refunded === null) return { ...base, eventId, reference: id, actions: [], ignored: `credit ${id} refunds no transaction` }
    const amount = beforeTax(transaction)
    return { ...base, eventId, reference: refunded, actions: [{ kind: 'refunded', paymentReference: refunded, full: false, single: { refundId: id, amount } }] }
  }
  const subscriptionId = text(transaction.subscriptionId)
  if (subscriptionId !== null) {
    return { ...base, eventId, reference: id, actions: [], ignored: `transaction ${id} is a charge of subscription ${subscriptionId}: subscription_charged_successfully counts it` }
  }
  return { ...base, eventId, ...payment(transaction, { subscriptionId: null, firstPayment: true, productId: customField(transaction, 'product') }) }
}

/** A sale as a payment: the customer (with the referral its custom fields carry) and what was paid. */
function payment(transaction: Record<string, unknown>, of: { subscriptionId: string | null; firstPayment: boolean; productId: string | null }): Pick<MappedEvent, 'reference' | 'actions' | 'occurredAt'> {
  const reference = text(transaction.id)
  const currency = text(transaction.currencyIsoCode)?.toUpperCase() ?? null
  const at = dateOf(transaction.createdAt)
  if (reference === null || currency === null || at === null) throw new MalformedEvent('transaction id, currencyIsoCode and createdAt are required')
  const customer = isRecord(transaction.customer) ? transaction.customer : {}
  const customerId = text(customer.id)
  const email = text(customer.email)?.trim().toLowerCase() ?? null
  const discounts = Array.isArray(transaction.discounts) ? (transaction.discounts as unknown[]) : []
  const coupons = namesOf(customField(transaction, 'coupon'), ...discounts.map((discount) => (isRecord(discount) ? text(discount.id) : null)))
  const actions: ProviderAction[] = []
  const referral = customField(transaction, 'referral')
  if (referral !== null) actions.push({ kind: 'customer', customerId, email, referral, coupons: [] })
  actions.push({ kind: 'paid', reference, customerId, email, amount: beforeTax(transaction), currency, coupons, aliases: [], ...of })
  return { reference, occurredAt: at, actions }
}

function customField(transaction: Record<string, unknown>, name: string): string | null {
  return isRecord(transaction.customFields) ? text(transaction.customFields[name]) : null
}

/** The transaction's amount less its tax amount, in minor units of its currency. */
function beforeTax(transaction: Record<string, unknown>): bigint {
  const digits = minorDigits(text(transaction.currencyIsoCode)?.toUpperCase() ?? '')
  const amount = money(transaction.amount, digits, 'amount')
  const tax = transaction.taxAmount == null || transaction.taxAmount === '' ? 0n : money(transaction.taxAmount, digits, 'taxAmount')
  if (tax > amount) throw new MalformedEvent('taxAmount is more than amount')
  return amount - tax
}

function money(value: unknown, digits: number, field: string): bigint {
  if (typeof value !== 'string') throw new MalformedEvent(`${field} must be a decimal amount`)
  try {
    return parseMoney(value, digits, field)
  } catch (error) {
    throw new MalformedEvent(`${field}: ${(error as Error).message}`)
  }
}

function dateOf(value: unknown): Date | null {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null
  return date && !Number.isNaN(date.getTime()) ? date : null
}
