// Braintree webhook notifications shaped like the documented ones (developer.paypal.com/braintree
// "Webhooks: Parse" and the Transaction and Subscription response objects; the braintree
// package's webhook_testing_gateway.js writes the same XML): <notification> with <timestamp>,
// <kind> and <subject> holding a <subscription> (its <transactions>, most recent first) or a
// <transaction>. A fixture is the notification as a tree with Braintree's dashed XML names;
// notificationXml writes it, and braintree-scenario.ts signs it as Braintree does.

export type XmlTree = { [name: string]: XmlValue }
export type XmlValue = string | number | boolean | null | XmlTree | XmlValue[]

export interface BraintreeNotification {
  timestamp: string
  kind: string
  subject: XmlTree
}

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

/** One element, typed as Braintree types them: arrays, integers, booleans, datetimes and nil. */
function element(name: string, value: XmlValue): string {
  if (value === null) return `<${name} nil="true"/>`
  if (Array.isArray(value)) {
    const item = name.endsWith('s') ? name.slice(0, -1) : 'item'
    return `<${name} type="array">${value.map((entry) => element(item, entry)).join('')}</${name}>`
  }
  if (typeof value === 'object') return `<${name}>${Object.entries(value).map(([key, entry]) => element(key, entry)).join('')}</${name}>`
  if (typeof value === 'boolean') return `<${name} type="boolean">${value}</${name}>`
  if (typeof value === 'number') return Number.isInteger(value) ? `<${name} type="integer">${value}</${name}>` : `<${name}>${value}</${name}>`
  return DATETIME.test(value) ? `<${name} type="datetime">${escape(value)}</${name}>` : `<${name}>${escape(value)}</${name}>`
}

export function notificationXml(notification: BraintreeNotification): string {
  const { timestamp, kind, subject, ...rest } = notification
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('notification', { timestamp, kind, ...rest, subject })}\n`
}

export interface TransactionInput {
  at: string
  id: string
  customer: string
  email: string
  /** Charged, tax included, as decimal text ('53.90'). */
  amount: string
  tax: string
  type?: 'sale' | 'credit'
  status?: string
  subscription?: string
  plan?: string
  refunds?: string
  /** The transaction's custom fields (referral, coupon, product: fields of the Control Panel). */
  customFields?: Record<string, string>
  discounts?: string[]
  currency?: string
}

export function transaction(input: TransactionInput): XmlTree {
  return {
    id: input.id,
    status: input.status ?? (input.type === 'credit' ? 'settled' : 'submitted_for_settlement'),
    type: input.type ?? 'sale',
    'currency-iso-code': input.currency ?? 'USD',
    amount: input.amount,
    'tax-amount': input.tax,
    'tax-exempt': false,
    'merchant-account-id': 'shop_usd',
    'order-id': null,
    'created-at': input.at,
    'updated-at': input.at,
    customer: { id: input.customer, 'first-name': null, 'last-name': null, company: null, email: input.email, website: null, phone: null, fax: null },
    'custom-fields': input.customFields ?? {},
    'subscription-id': input.subscription ?? null,
    'plan-id': input.plan ?? null,
    'refunded-transaction-id': input.refunds ?? null,
    'refund-ids': [],
    recurring: input.subscription !== undefined,
    'add-ons': [],
    discounts: (input.discounts ?? []).map((id) => ({ id, name: id, amount: '0.00', 'never-expires': true, quantity: 1 })),
    'payment-instrument-type': 'credit_card',
  }
}

/** subscription_charged_successfully: the subscription, its new charge first. */
export function subscriptionCharged(input: { at: string; subscription: string; plan: string; cycle: number; charge: TransactionInput }): BraintreeNotification {
  return {
    timestamp: input.at,
    kind: 'subscription_charged_successfully',
    subject: {
      subscription: {
        id: input.subscription,
        'plan-id': input.plan,
        status: 'Active',
        price: input.charge.amount,
        'current-billing-cycle': input.cycle,
        'billing-period-start-date': input.at.slice(0, 10),
        'next-bill-amount': input.charge.amount,
        'never-expires': true,
        'failure-count': 0,
        transactions: [transaction({ ...input.charge, subscription: input.subscription, plan: input.plan })],
        'add-ons': [],
        discounts: [],
      },
    },
  }
}

/** transaction_settled: a sale, or a credit refunding one. */
export const transactionSettled = (input: TransactionInput): BraintreeNotification => ({
  timestamp: input.at,
  kind: 'transaction_settled',
  subject: { transaction: transaction({ status: 'settled', ...input }) },
})

export const subscriptionCanceled = (input: { at: string; subscription: string; plan: string }): BraintreeNotification => ({
  timestamp: input.at,
  kind: 'subscription_canceled',
  subject: { subscription: { id: input.subscription, 'plan-id': input.plan, status: 'Canceled', transactions: [], 'add-ons': [], discounts: [] } },
})
