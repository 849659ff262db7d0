// Chargebee events (API v2) in the provider-neutral terms. The handler maps the event as
// Chargebee's API returns it (fetched back by its id), never the posted body alone: Chargebee
// signs nothing. Amounts are integers in the currency's minor units; times are Unix seconds.
// A refund is its credit note: payment_refunded and credit_note_created both name it, and it
// applies once by its id. The product of a line is its item price (`entity_id`).
import { isRecord, MalformedEvent, minorUnits, namesOf, record, text, type MappedEvent, type PaidLine, type ProviderAction } from '../mapping.js'

/** The events the handler uses; select these in the webhook's settings. */
export const CHARGEBEE_EVENTS = ['payment_succeeded', 'payment_refunded', 'credit_note_created', 'subscription_cancelled', 'customer_changed'] as const
const USED: readonly string[] = CHARGEBEE_EVENTS

export function mapChargebeeEvent(body: unknown): MappedEvent {
  const event = record(body, 'event')
  const eventId = text(event.id)
  const type = text(event.event_type)
  if (eventId === null || type === null || typeof event.occurred_at !== 'number') throw new MalformedEvent('id, event_type and occurred_at are required')
  const content = record(event.content, 'content')
  const base = { eventId, type, occurredAt: new Date(event.occurred_at * 1000), reference: null }
  if (!USED.includes(type)) return { ...base, actions: [], ignored: `${type} is not an event affiliate-kit uses` }
  switch (type) {
    case 'payment_succeeded':
      return paymentSucceeded(base, content)
    case 'payment_refunded':
    case 'credit_note_created':
      return creditNote(base, content)
    case 'subscription_cancelled': {
      const subscription = record(content.subscription, 'content.subscription')
      return { ...base, reference: text(subscription.id), actions: [], ignored: `subscription ${String(subscription.id)} was cancelled: its paid invoices keep their commissions, and no renewal follows` }
    }
    default: {
      const customer = record(content.customer, 'content.customer')
      return { ...base, reference: text(customer.id), actions: [{ kind: 'customer', customerId: text(customer.id), email: lower(customer.email), referral: referralOf(customer), coupons: [] }] }
    }
  }
}

const lower = (value: unknown) => text(value)?.trim().toLowerCase() ?? null

/** The referral a customer or subscription carries: a custom field (`cf_referral`...) or its meta_data. */
function referralOf(resource: unknown): string | null {
  if (!isRecord(resource)) return null
  const meta = isRecord(resource.meta_data) ? resource.meta_data : {}
  for (const name of ['referral', 'referral_code', 'affiliate_code']) {
    const found = text(resource[`cf_${name}`]) ?? text(meta[name])
    if (found !== null) return found
  }
  return null
}

/** Invoice total less its tax: what was paid for, after discounts. */
const untaxed = (document: Record<string, unknown>, field: string) => minorUnits(document.total, `${field}.total`) - taxOf(document, field)

function taxOf(document: Record<string, unknown>, field: string): bigint {
  if (document.tax !== undefined) return minorUnits(document.tax, `${field}.tax`)
  const taxes = Array.isArray(document.taxes) ? document.taxes : []
  return taxes.reduce((sum: bigint, tax: unknown) => sum + (isRecord(tax) ? minorUnits(tax.amount, `${field}.taxes.amount`) : 0n), 0n)
}

function paymentSucceeded(base: Omit<MappedEvent, 'actions'>, content: Record<string, unknown>): MappedEvent {
  const invoice = record(content.invoice, 'content.invoice')
  const reference = text(invoice.id)
  const currency = text(invoice.currency_code)
  if (reference === null || currency === null) throw new MalformedEvent('invoice id and currency_code are required')
  const customer = isRecord(content.customer) ? content.customer : {}
  const customerId = text(invoice.customer_id) ?? text(customer.id)
  const subscriptionId = text(invoice.subscription_id)
  const email = lower(customer.email)
  const referral = referralOf(content.subscription) ?? referralOf(customer)
  const coupons = couponsOf(invoice.discounts)
  const actions: ProviderAction[] = []
  if (referral !== null || coupons.length > 0) actions.push({ kind: 'customer', customerId, email, referral, coupons })
  const lines = linesOf(invoice.line_items)
  actions.push({
    kind: 'paid',
    reference,
    customerId,
    email,
    amount: untaxed(invoice, 'invoice'),
    currency: currency.toUpperCase(),
    coupons,
    subscriptionId,
    // One-off invoices, and a subscription's first invoice, start something; later ones renew it.
    firstPayment: subscriptionId === null || invoice.first_invoice === true,
    aliases: namesOf(text(isRecord(content.transaction) ? content.transaction.id : null)),
    productId: lines[0]?.productId ?? null,
    ...(new Set(lines.map((line) => line.productId)).size > 1 ? { lines } : {}),
  })
  const paidAt = typeof invoice.paid_at === 'number' ? new Date(invoice.paid_at * 1000) : base.occurredAt
  return { ...base, occurredAt: paidAt, reference, actions }
}

/** The coupons a discount list names: each coupon's code (of a coupon set), then its id; credits are not coupons. */
function couponsOf(discounts: unknown): string[] {
  const coupons = (Array.isArray(discounts) ? discounts : []).filter((discount) => isRecord(discount) && String(discount.entity_type).endsWith('_coupon')) as Array<Record<string, unknown>>
  return namesOf(...coupons.flatMap((discount) => [text(discount.coupon_set_code), text(discount.entity_id)]))
}

/** The invoice's lines, each at its amount less its discounts. */
function linesOf(items: unknown): PaidLine[] {
  if (!Array.isArray(items)) return []
  return items.filter(isRecord).map((line) => ({
    id: text(line.id) ?? '',
    productId: text(line.entity_id),
    amount: minorUnits(line.amount ?? 0, 'line_items.amount') - minorUnits(line.discount_amount ?? 0, 'line_items.discount_amount'),
  }))
}

/** A refundable credit note refunds part or all of the invoice it references; an adjustment note or a store credit refunds nothing paid. */
function creditNote(base: Omit<MappedEvent, 'actions'>, content: Record<string, unknown>): MappedEvent {
  const note = record(content.credit_note, 'content.credit_note')
  const id = text(note.id)
  const reference = text(note.reference_invoice_id)
  if (id === null) throw new MalformedEvent('credit_note id is required')
  if (reference === null) return { ...base, reference: id, actions: [], ignored: `credit note ${id} references no invoice` }
  if (note.type !== 'refundable') return { ...base, reference, actions: [], ignored: `credit note ${id} is ${String(note.type)}: it gives back no payment` }
  const refunded = untaxed(note, 'credit_note')
  const invoice = isRecord(content.invoice) && text(content.invoice.id) === reference ? content.invoice : null
  return {
    ...base,
    reference,
    actions: [{ kind: 'refunded', paymentReference: reference, full: invoice !== null && refunded >= untaxed(invoice, 'invoice'), single: { refundId: id, amount: refunded } }],
  }
}
