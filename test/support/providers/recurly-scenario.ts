// The scenario (see scenario.ts) in Recurly's JSON notifications, signed with the endpoint's
// secret key (recurly-signature: `<ms>,<hex HMAC-SHA256 of "<ms>.<body>">`) at the clock's time,
// each delivered after the local API (recurly-api.ts) holds what it names. Alice's account carries
// the referral in a custom field; Carol pays once with Bob's coupon code, and her payment is voided.
import { createHmac } from 'node:crypto'
import type { TestClock } from '../../../src/index.js'
import type { FetchHandler } from '../../../src/providers/handler.js'
import { recurlyHandler, type RecurlyHandlerOptions } from '../../../src/providers/recurly/index.js'
import { RECURLY_API_KEY, recurlyApiServer } from './recurly-api.js'
import { chargeInvoice, paymentRefunded, paymentSucceeded, paymentVoided, subscriptionCanceled, type InvoiceFixture, type RecurlyEvent } from './recurly-fixtures.js'
import type { ProviderScenario } from './scenario.js'

export const RECURLY_SECRET = 'recurly_webhook_secret_key_scenario'
// A minute for each fetch-back request: the local API shares the test's process (and its two cores with other files).
export const RECURLY_OPTIONS = { webhookSecret: RECURLY_SECRET, apiBase: recurlyApiServer.url, apiKey: RECURLY_API_KEY, apiTimeoutMs: 60_000 } satisfies Partial<RecurlyHandlerOptions>

/** The recurly-signature header of a body sent at `at`, one signature per secret (two during a key's regeneration). */
export function recurlySignature(body: string, at: Date, secrets: string[] = [RECURLY_SECRET]): string {
  const timestamp = String(at.getTime())
  return [timestamp, ...secrets.map((secret) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'))].join(',')
}

/** Recurly holds what the notification names, then posts it signed at the clock's time. */
export async function deliverRecurly(handler: FetchHandler, event: unknown, clock: TestClock, signature?: (body: string) => string | null): Promise<Response> {
  const { notification, holds } = event as RecurlyEvent
  recurlyApiServer.hold(holds)
  const body = JSON.stringify(notification)
  const header = signature ? signature(body) : recurlySignature(body, clock.now())
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(header === null ? {} : { 'recurly-signature': header }) }
  return handler(new Request('https://shop.example/api/v1/providers/recurly/events', { method: 'POST', body, headers }))
}

const alice = { id: 'acc_alice', code: 'alice', email: 'alice@example.com', referral: 'ANN' }
const aliceMonth = (id: string, number: number, at: string, origin: InvoiceFixture['origin']): InvoiceFixture => ({ id, number, at, account: alice, subscriptionId: 'sub_alice', origin, lines: [{ itemCode: 'pro-monthly', amount: 4900 }], tax: 490 })
const aliceFirst = aliceMonth('inv_alice1', 1002, '2026-01-19T10:00:00Z', 'purchase')
const carol: InvoiceFixture = { id: 'inv_carol1', number: 1001, at: '2026-01-10T09:00:00Z', account: { id: 'acc_carol', code: 'carol', email: 'carol@example.com' }, origin: 'purchase', lines: [{ itemCode: 'lifetime', amount: 10000, discount: 2000 }], tax: 800, coupon: { id: 'cpn_bob20', code: 'BOB20' } }

export const recurlyScenario: ProviderScenario = {
  name: 'recurly',
  // Coupon redemptions name the coupon's code (and its id).
  bobCoupon: 'BOB20',
  excludedProduct: 'addon',
  handler: (program, storage) => recurlyHandler({ program, storage, ...RECURLY_OPTIONS }),
  deliver: (handler, event, clock) => deliverRecurly(handler, event, clock),
  sentAt: (event) => new Date(String((event as RecurlyEvent).notification.event_time)),
  steps: {
    aliceSignup: [],
    carol: [chargeInvoice('paid', carol), paymentSucceeded(carol)],
    // The purchase invoice is created, its payment succeeds, it is paid: one conversion.
    month1: [chargeInvoice('created', aliceFirst), paymentSucceeded(aliceFirst), chargeInvoice('paid', aliceFirst)],
    month2: [chargeInvoice('paid', aliceMonth('inv_alice2', 1003, '2026-02-19T10:00:00Z', 'renewal'))],
    // An add-on bought during the term: the subscription's immediate_change invoice.
    excluded: [chargeInvoice('paid', { id: 'inv_alice_addon', number: 1004, at: '2026-02-22T10:00:00Z', account: alice, subscriptionId: 'sub_alice', origin: 'immediate_change', lines: [{ itemCode: 'addon', amount: 1500 }], tax: 150 })],
    // Half of the first month refunded: the refund transaction of its credit invoice.
    partialRefund: [paymentRefunded(aliceFirst, { id: 'tx_refund_alice1', number: 1005, at: '2026-02-25T12:00:00Z', refunded: 2450, tax: 245 })],
    // Carol's payment voided: all of it given back.
    fullRefund: [paymentVoided(carol, '2026-03-01T12:00:00Z')],
    month3: [chargeInvoice('paid', aliceMonth('inv_alice3', 1006, '2026-03-19T10:00:00Z', 'renewal'))],
    cancel: [subscriptionCanceled('sub_alice', '2026-03-25T08:00:00Z')],
  },
}
