// Recurly notifications as JSON webhook endpoints send them (`id`, `object_type`, `site_id`,
// `event_type`, `event_time` and the object's `invoice_number` or `uuid`), each with the API v3
// resources it names (Invoice, LineItem, Transaction, Account, CouponRedemption, with the fields of
// Recurly's OpenAPI document), which the delivery holds in the local API (recurly-api.ts) first.
// Amounts are given here in minor units and written as the API writes them: decimal numbers in
// major units (4900 -> 49, 5390 -> 53.9).
import { createHash } from 'node:crypto'
import type { RecurlyHolds } from './recurly-api.js'

export const RECURLY_SITE = 'qc326l1hl8k9'

/** A notification and what Recurly's API holds for it. */
export interface RecurlyEvent {
  notification: Record<string, unknown>
  holds: RecurlyHolds
}

const major = (minor: number, digits = 2) => minor / 10 ** digits
/** Recurly's times: ISO 8601 to the second. */
const time = (at: string) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z')
/** A uuid as Recurly writes them: 32 hex digits. */
const hex32 = (seed: string) => createHash('md5').update(seed).digest('hex')

export interface AccountFixture {
  id: string
  code: string
  email: string
  /** The account's `referral` custom field. */
  referral?: string
}

export const accountOf = (account: AccountFixture) => ({
  id: account.id,
  object: 'account',
  code: account.code,
  state: 'active',
  email: account.email,
  first_name: account.code,
  last_name: 'Example',
  bill_to: 'self',
  has_live_subscription: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  custom_fields: account.referral ? [{ name: 'referral', value: account.referral }] : [],
})

const accountMini = (account: AccountFixture) => ({ id: account.id, object: 'account', code: account.code, email: account.email, first_name: account.code, last_name: 'Example' })

export interface InvoiceFixture {
  id: string
  number: number
  at: string
  account: AccountFixture
  subscriptionId?: string
  /** purchase: a one-off invoice or a subscription's first; renewal; immediate_change: an add-on bought during a term. */
  origin: 'purchase' | 'renewal' | 'immediate_change'
  currency?: string
  /** Each line: its item code and subtotal (and discount), in minor units; tax is added on top. */
  lines: Array<{ itemCode: string; amount: number; discount?: number }>
  tax?: number
  coupon?: { id: string; code: string }
}

const digitsOf = (currency: string) => (currency === 'JPY' ? 0 : 2)

export function invoiceOf(fixture: InvoiceFixture) {
  const currency = fixture.currency ?? 'USD'
  const digits = digitsOf(currency)
  const money = (minor: number) => major(minor, digits)
  const subtotal = fixture.lines.reduce((sum, line) => sum + line.amount, 0)
  const discount = fixture.lines.reduce((sum, line) => sum + (line.discount ?? 0), 0)
  const tax = fixture.tax ?? 0
  const total = subtotal - discount + tax
  return {
    id: fixture.id,
    uuid: hex32(fixture.id),
    object: 'invoice',
    type: 'charge',
    origin: fixture.origin,
    state: 'paid',
    account: accountMini(fixture.account),
    subscription_ids: fixture.subscriptionId ? [fixture.subscriptionId] : [],
    number: String(fixture.number),
    collection_method: 'automatic',
    net_terms: 0,
    currency,
    discount: money(discount),
    subtotal: money(subtotal),
    tax: money(tax),
    total: money(total),
    refundable_amount: money(total),
    paid: money(total),
    balance: 0,
    line_items: fixture.lines.map((line, index) => ({
      id: `li_${fixture.id}_${index}`,
      object: 'line_item',
      uuid: hex32(`li${fixture.id}${index}`),
      type: 'charge',
      item_code: line.itemCode,
      state: 'invoiced',
      account: accountMini(fixture.account),
      ...(fixture.subscriptionId ? { subscription_id: fixture.subscriptionId } : {}),
      invoice_id: fixture.id,
      invoice_number: String(fixture.number),
      origin: fixture.subscriptionId ? 'plan' : 'one_time',
      product_code: line.itemCode,
      currency,
      quantity: 1,
      unit_amount: money(line.amount),
      subtotal: money(line.amount),
      discount: money(line.discount ?? 0),
      tax: money(Math.round((tax * (line.amount - (line.discount ?? 0))) / Math.max(1, subtotal - discount))),
      amount: money(line.amount - (line.discount ?? 0)),
      taxable: tax > 0,
      refund: false,
      start_date: time(fixture.at),
      created_at: time(fixture.at),
      updated_at: time(fixture.at),
    })),
    has_more_line_items: false,
    transactions: [],
    credit_payments: [],
    created_at: time(fixture.at),
    updated_at: time(fixture.at),
    due_at: time(fixture.at),
    closed_at: time(fixture.at),
  }
}

const paymentId = (invoice: InvoiceFixture) => `tx_${invoice.id}`

/** The purchase transaction that paid the invoice in full (voided when `voidedAt` is given). */
export function purchaseOf(invoice: InvoiceFixture, voidedAt?: string) {
  const made = invoiceOf(invoice)
  return {
    id: paymentId(invoice),
    object: 'transaction',
    uuid: hex32(paymentId(invoice)),
    account: accountMini(invoice.account),
    invoice: { id: invoice.id, object: 'invoice', number: made.number, type: 'charge', state: 'paid' },
    subscription_ids: made.subscription_ids,
    type: 'purchase',
    origin: 'api',
    currency: made.currency,
    amount: made.total,
    status: voidedAt ? 'void' : 'success',
    success: true,
    refunded: false,
    collection_method: 'automatic',
    created_at: time(invoice.at),
    collected_at: time(invoice.at),
    ...(voidedAt ? { voided_at: time(voidedAt) } : {}),
  }
}

export const notification = (objectType: string, eventType: string, id: string, at: string, names: Record<string, unknown>) => ({
  id,
  object_type: objectType,
  site_id: RECURLY_SITE,
  event_type: eventType,
  event_time: time(at),
  ...names,
})

const paidHolds = (invoice: InvoiceFixture): RecurlyHolds => ({
  invoices: [invoiceOf(invoice)],
  accounts: [accountOf(invoice.account)],
  couponRedemptions: invoice.coupon
    ? {
        [invoice.id]: [
          {
            id: `cr_${invoice.id}`,
            object: 'coupon_redemption',
            account: accountMini(invoice.account),
            coupon: { id: invoice.coupon.id, object: 'coupon', code: invoice.coupon.code, name: invoice.coupon.code, state: 'redeemable', coupon_type: 'single_code' },
            state: 'inactive',
            currency: invoice.currency ?? 'USD',
            discounted: major(invoice.lines.reduce((sum, line) => sum + (line.discount ?? 0), 0)),
            created_at: time(invoice.at),
          },
        ],
      }
    : {},
})

/** charge_invoice.created (new_charge_invoice) or charge_invoice.paid (paid_charge_invoice). */
export const chargeInvoice = (eventType: 'created' | 'paid', invoice: InvoiceFixture): RecurlyEvent => ({
  notification: notification('charge_invoice', eventType, invoice.id, invoice.at, { invoice_number: invoice.number }),
  holds: paidHolds(invoice),
})

/** payment.succeeded (successful_payment): the invoice's purchase transaction. */
export function paymentSucceeded(invoice: InvoiceFixture): RecurlyEvent {
  const transaction = purchaseOf(invoice)
  const holds = paidHolds(invoice)
  return { notification: notification('payment', 'succeeded', transaction.id, invoice.at, { uuid: transaction.uuid }), holds: { ...holds, transactions: [transaction] } }
}

/** payment.voided (void_payment): the invoice's purchase transaction, voided. */
export function paymentVoided(invoice: InvoiceFixture, at: string): RecurlyEvent {
  const transaction = purchaseOf(invoice, at)
  return { notification: notification('payment', 'voided', transaction.id, at, { uuid: transaction.uuid }), holds: { invoices: [invoiceOf(invoice)], transactions: [transaction] } }
}

/** payment.refunded (successful_refund): a refund transaction of `refunded` (+ `tax`) and its credit invoice, refunding part or all of the invoice. */
export function paymentRefunded(invoice: InvoiceFixture, refund: { id: string; number: number; at: string; refunded: number; tax?: number }): RecurlyEvent {
  const currency = invoice.currency ?? 'USD'
  const tax = refund.tax ?? 0
  const credit = {
    id: `inv_${refund.id}`,
    uuid: hex32(`cr${refund.id}`),
    object: 'invoice',
    type: 'credit',
    origin: 'refund',
    state: 'closed',
    account: accountMini(invoice.account),
    subscription_ids: invoice.subscriptionId ? [invoice.subscriptionId] : [],
    previous_invoice_id: invoice.id,
    number: String(refund.number),
    currency,
    discount: 0,
    subtotal: -major(refund.refunded),
    tax: -major(tax),
    total: -major(refund.refunded + tax),
    balance: 0,
    line_items: [{ id: `li_${refund.id}`, object: 'line_item', type: 'credit', item_code: invoice.lines[0]!.itemCode, original_line_item_invoice_id: invoice.id, currency, subtotal: -major(refund.refunded), discount: 0, tax: -major(tax), amount: -major(refund.refunded + tax), refund: true }],
    created_at: time(refund.at),
    closed_at: time(refund.at),
  }
  const transaction = {
    id: refund.id,
    object: 'transaction',
    uuid: hex32(refund.id),
    original_transaction_id: paymentId(invoice),
    account: accountMini(invoice.account),
    invoice: { id: credit.id, object: 'invoice', number: credit.number, type: 'credit', state: 'closed' },
    type: 'refund',
    origin: 'api',
    currency,
    amount: major(refund.refunded + tax),
    status: 'success',
    success: true,
    created_at: time(refund.at),
  }
  return { notification: notification('payment', 'refunded', refund.id, refund.at, { uuid: transaction.uuid }), holds: { invoices: [credit], transactions: [transaction] } }
}

/** subscription.canceled (canceled_subscription). */
export const subscriptionCanceled = (subscriptionId: string, at: string): RecurlyEvent => ({
  notification: notification('subscription', 'canceled', subscriptionId, at, { uuid: hex32(subscriptionId) }),
  holds: {},
})
