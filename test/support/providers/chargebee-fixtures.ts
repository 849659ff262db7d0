// Chargebee API v2 events as its API returns them (GET /api/v2/events/{id}: `{ event }`), with the
// fields of the chargebee package's types (Event, Invoice, CreditNote, Customer, Subscription):
// amounts in minor units, times in Unix seconds, the referral in a customer custom field.
import type { CreditNote, Customer, Event, Invoice, Subscription } from 'chargebee'

const seconds = (at: string) => Math.floor(new Date(at).getTime() / 1000)

/** The envelope's fields as Event names them (its content typed per resource below). */
function event(id: string, type: Event['event_type'], at: string, content: Record<string, unknown>) {
  return { id, occurred_at: seconds(at), source: 'scheduled_job' as Event['source'], object: 'event', api_version: 'v2', event_type: type, webhook_status: 'scheduled' as Event['webhook_status'], content }
}

export interface CustomerFixture {
  id: string
  email: string
  /** The `cf_referral` custom field. */
  referral?: string
}

export const customerOf = (customer: CustomerFixture) =>
  ({
    id: customer.id,
    email: customer.email,
    auto_collection: 'on',
    net_term_days: 0,
    allow_direct_debit: false,
    created_at: 1767225600,
    taxability: 'taxable',
    pii_cleared: 'active',
    channel: 'web',
    deleted: false,
    ...(customer.referral ? { cf_referral: customer.referral } : {}),
  }) satisfies Partial<Customer>

export interface InvoiceFixture {
  id: string
  at: string
  customer: CustomerFixture
  subscriptionId?: string
  first?: boolean
  currency?: string
  /** Each line: its item price and amount; tax is added on top. */
  lines: Array<{ itemPrice: string; amount: number; discount?: number }>
  tax?: number
  coupon?: { id: string; code?: string; amount: number }
}

export function invoiceOf(fixture: InvoiceFixture) {
  const subTotal = fixture.lines.reduce((sum, line) => sum + line.amount, 0)
  const discount = fixture.lines.reduce((sum, line) => sum + (line.discount ?? 0), 0)
  const tax = fixture.tax ?? 0
  return {
    id: fixture.id,
    customer_id: fixture.customer.id,
    ...(fixture.subscriptionId ? { subscription_id: fixture.subscriptionId } : {}),
    recurring: fixture.subscriptionId !== undefined,
    status: 'paid',
    price_type: 'tax_exclusive',
    date: seconds(fixture.at),
    paid_at: seconds(fixture.at),
    currency_code: fixture.currency ?? 'USD',
    sub_total: subTotal,
    tax,
    total: subTotal - discount + tax,
    amount_paid: subTotal - discount + tax,
    amount_due: 0,
    first_invoice: fixture.first ?? false,
    term_finalized: true,
    is_gifted: false,
    deleted: false,
    line_items: fixture.lines.map((line, index) => ({
      id: `li_${fixture.id}_${index}`,
      date_from: seconds(fixture.at),
      date_to: seconds(fixture.at) + 30 * 86_400,
      unit_amount: line.amount,
      quantity: 1,
      amount: line.amount,
      discount_amount: line.discount ?? 0,
      is_taxed: tax > 0,
      description: line.itemPrice,
      entity_type: 'plan_item_price',
      entity_id: line.itemPrice,
      customer_id: fixture.customer.id,
    })),
    discounts: fixture.coupon
      ? [{ amount: fixture.coupon.amount, entity_type: 'document_level_coupon', entity_id: fixture.coupon.id, ...(fixture.coupon.code ? { coupon_set_code: fixture.coupon.code } : {}) }]
      : [],
  } satisfies Partial<Invoice>
}

export function paymentSucceeded(eventId: string, fixture: InvoiceFixture) {
  const invoice = invoiceOf(fixture)
  const transaction = { id: `txn_${fixture.id}`, customer_id: fixture.customer.id, type: 'payment', status: 'success', amount: invoice.total, currency_code: invoice.currency_code, date: invoice.paid_at, linked_invoices: [{ invoice_id: fixture.id, applied_amount: invoice.total }] }
  return event(eventId, 'payment_succeeded', fixture.at, { transaction, invoice, customer: customerOf(fixture.customer), ...(fixture.subscriptionId ? { subscription: subscriptionOf(fixture.subscriptionId, fixture.customer, 'active') } : {}) })
}

const subscriptionOf = (id: string, customer: CustomerFixture, status: 'active' | 'cancelled') =>
  ({ id, customer_id: customer.id, status, currency_code: 'USD', billing_period: 1, billing_period_unit: 'month', deleted: false, has_scheduled_changes: false, channel: 'web' }) satisfies Partial<Subscription>

/** A refundable credit note of `refunded` (tax excluded) against the invoice, as credit_note_created or payment_refunded sends it. */
export function creditNoteEvent(eventId: string, type: 'credit_note_created' | 'payment_refunded', at: string, invoice: InvoiceFixture, note: { id: string; refunded: number; tax?: number; kind?: 'refundable' | 'adjustment' }) {
  const tax = note.tax ?? 0
  const creditNote = {
    id: note.id,
    customer_id: invoice.customer.id,
    reference_invoice_id: invoice.id,
    type: note.kind ?? 'refundable',
    reason_code: 'product_unsatisfactory',
    status: 'refunded',
    price_type: 'tax_exclusive',
    currency_code: invoice.currency ?? 'USD',
    date: seconds(at),
    sub_total: note.refunded,
    total: note.refunded + tax,
    amount_refunded: note.refunded + tax,
    taxes: tax > 0 ? [{ name: 'VAT', amount: tax }] : [],
    deleted: false,
  } satisfies Partial<CreditNote>
  const content: Record<string, unknown> = { credit_note: creditNote, customer: customerOf(invoice.customer) }
  if (type === 'payment_refunded') {
    content.invoice = invoiceOf(invoice)
    content.transaction = { id: `txn_refund_${note.id}`, type: 'refund', status: 'success', amount: creditNote.total, currency_code: creditNote.currency_code }
  }
  return event(eventId, type, at, content)
}

export const subscriptionCancelled = (eventId: string, at: string, subscriptionId: string, customer: CustomerFixture) =>
  event(eventId, 'subscription_cancelled', at, { subscription: subscriptionOf(subscriptionId, customer, 'cancelled'), customer: customerOf(customer) })

export const customerChanged = (eventId: string, at: string, customer: CustomerFixture) => event(eventId, 'customer_changed', at, { customer: customerOf(customer) })
