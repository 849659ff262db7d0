// The scenario (see scenario.ts) in Chargebee's events, posted with the webhook's Basic credentials
// and fetched back by the handler from the local Chargebee API (chargebee-api.ts), which holds
// every event delivered. Alice's customer record carries the referral in a custom field; Carol
// pays once with Bob's coupon code.
import type { TestClock } from '../../../src/index.js'
import { chargebeeHandler, type ChargebeeHandlerOptions } from '../../../src/providers/chargebee/index.js'
import type { FetchHandler } from '../../../src/providers/handler.js'
import { CHARGEBEE_API_KEY, chargebeeApi } from './chargebee-api.js'
import { creditNoteEvent, paymentSucceeded, subscriptionCancelled, type InvoiceFixture } from './chargebee-fixtures.js'
import type { ProviderScenario } from './scenario.js'

export const CHARGEBEE_CREDENTIALS = { webhookUsername: 'chargebee-hooks', webhookPassword: 'S3cret-basic-pass' }
// A minute for the fetch-back: the local API shares the test's process (and its two cores with other files).
export const CHARGEBEE_OPTIONS = { apiBase: chargebeeApi.url, apiKey: CHARGEBEE_API_KEY, ...CHARGEBEE_CREDENTIALS, apiTimeoutMs: 60_000 } satisfies Partial<ChargebeeHandlerOptions>

/** The Authorization header Chargebee sends with the webhook's credentials. */
export const chargebeeAuthorization = (username = CHARGEBEE_CREDENTIALS.webhookUsername, password = CHARGEBEE_CREDENTIALS.webhookPassword) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`

/** Chargebee holds the event, then posts it with the webhook's credentials. */
export async function deliverChargebee(handler: FetchHandler, event: unknown, authorization = chargebeeAuthorization()): Promise<Response> {
  chargebeeApi.hold(event as { id: string })
  const headers = { 'Content-Type': 'application/json', Authorization: authorization }
  return handler(new Request('https://shop.example/api/v1/providers/chargebee/events', { method: 'POST', body: JSON.stringify(event), headers }))
}

const alice = { id: 'cb_alice', email: 'alice@example.com' }
const aliceMonth = (id: string, at: string, first = false): InvoiceFixture => ({ id, at, customer: first ? { ...alice, referral: 'ANN' } : alice, subscriptionId: 'sub_alice', first, lines: [{ itemPrice: 'pro-USD-monthly', amount: 4900 }], tax: 490 })
const aliceFirst = aliceMonth('inv_alice1', '2026-01-19T10:00:00Z', true)
const carol: InvoiceFixture = { id: 'inv_carol1', at: '2026-01-10T09:00:00Z', customer: { id: 'cb_carol', email: 'carol@example.com' }, lines: [{ itemPrice: 'lifetime-USD', amount: 10000, discount: 2000 }], tax: 800, coupon: { id: 'bob-20-off', code: 'BOB20', amount: 2000 } }

export const chargebeeScenario: ProviderScenario = {
  name: 'chargebee',
  // Invoices name the coupon set's code (and the coupon's id).
  bobCoupon: 'BOB20',
  excludedProduct: 'addon-USD',
  handler: (program, storage) => chargebeeHandler({ program, storage, ...CHARGEBEE_OPTIONS }),
  deliver: (handler, event) => deliverChargebee(handler, event),
  sentAt: (event) => new Date((event as { occurred_at: number }).occurred_at * 1000),
  steps: {
    aliceSignup: [],
    carol: [paymentSucceeded('ev_carol1', carol)],
    month1: [paymentSucceeded('ev_alice1', aliceFirst)],
    month2: [paymentSucceeded('ev_alice2', aliceMonth('inv_alice2', '2026-02-19T10:00:00Z'))],
    excluded: [paymentSucceeded('ev_alice_addon', { id: 'inv_alice_addon', at: '2026-02-22T10:00:00Z', customer: alice, lines: [{ itemPrice: 'addon-USD', amount: 1500 }], tax: 150 })],
    // A partial refund: its credit note, then the refund naming it (applied once).
    partialRefund: [creditNoteEvent('ev_cn_alice', 'credit_note_created', '2026-02-25T12:00:00Z', aliceFirst, { id: 'CN-1', refunded: 2450, tax: 245 }), creditNoteEvent('ev_refund_alice', 'payment_refunded', '2026-02-25T12:00:05Z', aliceFirst, { id: 'CN-1', refunded: 2450, tax: 245 })],
    fullRefund: [creditNoteEvent('ev_refund_carol', 'payment_refunded', '2026-03-01T12:00:00Z', carol, { id: 'CN-2', refunded: 8000, tax: 800 })],
    month3: [paymentSucceeded('ev_alice3', aliceMonth('inv_alice3', '2026-03-19T10:00:00Z'))],
    cancel: [subscriptionCancelled('ev_cancel_alice', '2026-03-25T08:00:00Z', 'sub_alice', alice)],
  },
}
