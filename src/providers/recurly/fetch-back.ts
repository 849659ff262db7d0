// What a Recurly notification names, read back from the API (docs/providers.md "Recurly"): a JSON
// notification carries only ids (`invoice_number`, a transaction's `uuid`), so the handler fetches
// the invoice or transaction, and for a paid charge invoice its account (the referral custom field)
// and, when it was discounted, its coupon redemptions. Amounts and lines are the API's, never the
// posted body's. Something the API does not know is refused (400, nothing recorded).
import type { Decoded } from '../handler.js'
import { idOf, isRecord, MalformedEvent, text } from '../mapping.js'
import type { RecurlyApi } from './api.js'

/** A verified notification and the resources read back for it: what the mapping reads. */
export interface RecurlyDelivery {
  notification: Record<string, unknown>
  /** The transaction of a payment notification (`uuid-<uuid>`). */
  transaction?: Record<string, unknown>
  /** The charge invoice paid (or voided), or a refund's credit invoice. */
  invoice?: Record<string, unknown>
  /** The paid invoice's account, with its custom fields. */
  account?: Record<string, unknown>
  /** The paid invoice's coupon redemptions (only read when it has a discount). */
  couponRedemptions?: unknown[]
}

const unknown = (what: string): Decoded => ({ refused: `Recurly's API does not know ${what}` })

export async function fetchBack(notification: Record<string, unknown>, api: RecurlyApi): Promise<Decoded> {
  const type = `${String(notification.object_type)}.${String(notification.event_type)}`
  if (type === 'charge_invoice.created' || type === 'charge_invoice.paid') {
    const number = typeof notification.invoice_number === 'number' ? String(notification.invoice_number) : text(notification.invoice_number)
    if (number === null) throw new MalformedEvent('invoice_number is required')
    const invoice = await api.getInvoice(`number-${number}`)
    if (invoice === null) return unknown(`invoice ${number}`)
    return withPaid({ notification, invoice }, api)
  }
  if (type === 'payment.succeeded' || type === 'payment.refunded' || type === 'payment.voided') {
    const uuid = text(notification.uuid)
    if (uuid === null) throw new MalformedEvent('uuid is required')
    const transaction = await api.getTransaction(`uuid-${uuid}`)
    if (transaction === null) return unknown(`transaction ${uuid}`)
    const invoiceId = idOf(transaction.invoice)
    if (invoiceId === null) return { body: { notification, transaction } satisfies RecurlyDelivery }
    const invoice = await api.getInvoice(invoiceId)
    if (invoice === null) return unknown(`invoice ${invoiceId}`)
    return type === 'payment.succeeded' ? withPaid({ notification, transaction, invoice }, api) : { body: { notification, transaction, invoice } satisfies RecurlyDelivery }
  }
  return { body: { notification } satisfies RecurlyDelivery }
}

/** A paid charge invoice comes with its account and, when discounted, its coupon redemptions. */
async function withPaid(delivery: RecurlyDelivery & { invoice: Record<string, unknown> }, api: RecurlyApi): Promise<Decoded> {
  const { invoice } = delivery
  if (invoice.type !== 'charge' || invoice.state !== 'paid') return { body: delivery }
  const accountId = idOf(invoice.account)
  if (accountId === null) throw new MalformedEvent('the invoice names no account')
  const account = await api.getAccount(accountId)
  if (account === null) return unknown(`account ${accountId}`)
  const discounted = invoice.discount !== undefined && invoice.discount !== null && invoice.discount !== 0
  const invoiceId = text(invoice.id)
  const couponRedemptions = discounted && invoiceId !== null ? ((await api.listCouponRedemptions(invoiceId)) ?? []) : []
  return { body: { ...delivery, account, couponRedemptions } satisfies RecurlyDelivery }
}

