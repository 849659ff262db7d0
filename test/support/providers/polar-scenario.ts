// The scenario (see scenario.ts) in Polar's webhooks, signed the Standard Webhooks way with the
// standardwebhooks package, keyed as Polar's SDK keys it (the secret's UTF-8 bytes, base64).
// Polar gives each message its webhook-id; here it is made from the body, so that one event sent
// twice is one message and a changed body another.
import { createHash } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import type { TestClock } from '../../../src/index.js'
import type { FetchHandler } from '../../../src/providers/handler.js'
import { polarHandler } from '../../../src/providers/polar/index.js'
import { orderPaid, orderRefunded, subscriptionCanceled, type OrderInput, type PolarEvent } from './polar-fixtures.js'
import type { ProviderScenario } from './scenario.js'

export const POLAR_SECRET = 'polar_whs_test_scenario_secret'

/** The Standard Webhooks headers of a body sent at `at`. */
export function polarHeaders(body: string, secret: string, at: Date): Record<string, string> {
  const id = `msg_${createHash('sha256').update(body).digest('hex').slice(0, 27)}`
  const signature = new Webhook(Buffer.from(secret, 'utf8').toString('base64')).sign(id, at, body)
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature }
}

export async function deliverPolar(handler: FetchHandler, event: unknown, clock: TestClock, secret = POLAR_SECRET): Promise<Response> {
  const body = JSON.stringify(event)
  const headers = { ...polarHeaders(body, secret, clock.now()), 'Content-Type': 'application/json' }
  return handler(new Request('https://shop.example/api/v1/providers/polar/events', { method: 'POST', body, headers }))
}

const alice = { customer: 'cus_alice', email: 'alice@example.com', product: 'prod_monthly', subscription: 'sub_alice', subtotal: 4900, tax: 490 }
const carol: OrderInput = { at: '2026-01-10T09:00:00Z', id: 'ord_carol1', customer: 'cus_carol', email: 'carol@example.com', subtotal: 10000, discount: { amount: 2000, code: 'BOB20', id: 'dsc_bob20' }, tax: 800, billingReason: 'purchase', product: 'prod_lifetime' }
const aliceFirst: OrderInput = { ...alice, at: '2026-01-19T10:00:00Z', id: 'ord_alice1', billingReason: 'subscription_create', metadata: { referral: 'ANN' } }
const month = (id: string, at: string) => orderPaid({ ...alice, at, id, billingReason: 'subscription_cycle' })

export const polarScenario: ProviderScenario = {
  name: 'polar',
  // Orders name the discount by its code (and id).
  bobCoupon: 'BOB20',
  excludedProduct: 'prod_addon',
  handler: (program, storage) => polarHandler({ program, storage, webhookSecret: POLAR_SECRET }),
  deliver: (handler, event, clock) => deliverPolar(handler, event, clock),
  sentAt: (event) => new Date((event as PolarEvent<unknown>).timestamp),
  steps: {
    aliceSignup: [],
    carol: [orderPaid(carol)],
    month1: [orderPaid(aliceFirst)],
    month2: [month('ord_alice2', '2026-02-19T10:00:00Z')],
    excluded: [orderPaid({ at: '2026-02-22T10:00:00Z', id: 'ord_alice_addon', customer: alice.customer, email: alice.email, subtotal: 1500, tax: 150, billingReason: 'purchase', product: 'prod_addon' })],
    partialRefund: [orderRefunded({ ...aliceFirst, refunded: { amount: 2450, tax: 245, at: '2026-02-25T12:00:00Z' } })],
    fullRefund: [orderRefunded({ ...carol, refunded: { amount: 8000, tax: 800, at: '2026-03-01T12:00:00Z' } })],
    month3: [month('ord_alice3', '2026-03-19T10:00:00Z')],
    cancel: [subscriptionCanceled({ at: '2026-03-25T08:00:00Z', id: 'sub_alice', customer: alice.customer, email: alice.email, product: alice.product, amount: 4900 })],
  },
}
