// The scenario (see scenario.ts) in Lemon Squeezy's events, signed with the documented algorithm:
// X-Signature = hex HMAC-SHA256 of the raw body with the signing secret.
import { createHmac } from 'node:crypto'
import type { TestClock } from '../../../src/index.js'
import type { FetchHandler } from '../../../src/providers/handler.js'
import { lemonSqueezyHandler } from '../../../src/providers/lemon-squeezy/index.js'
import { order, subscriptionInvoice, type LemonSqueezyEvent } from './lemon-squeezy-fixtures.js'
import type { ProviderScenario } from './scenario.js'

export const LEMON_SQUEEZY_SECRET = 'ls_test_scenario_secret'

export async function deliverLemonSqueezy(handler: FetchHandler, event: unknown, _clock?: TestClock, secret = LEMON_SQUEEZY_SECRET, tamper?: (body: string) => string): Promise<Response> {
  const body = JSON.stringify(event)
  const signature = createHmac('sha256', secret).update(body).digest('hex')
  const headers = { 'X-Signature': signature, 'X-Event-Name': String((event as Partial<LemonSqueezyEvent<unknown>>).meta?.event_name), 'Content-Type': 'application/json' }
  return handler(new Request('https://shop.example/api/v1/providers/lemon-squeezy/events', { method: 'POST', body: tamper ? tamper(body) : body, headers }))
}

const alice = { customer: 501, email: 'alice@example.com', subscription: 9001 }
const month = (id: number, at: string) => subscriptionInvoice('subscription_payment_success', { at, id, ...alice, billingReason: 'renewal', subtotal: 4900, tax: 490 })

export const lemonSqueezyScenario: ProviderScenario = {
  name: 'lemon-squeezy',
  // The discount code is not in the payload: the checkout passes it as custom data.
  bobCoupon: 'BOB20',
  handler: (program, storage) => lemonSqueezyHandler({ program, storage, webhookSecret: LEMON_SQUEEZY_SECRET }),
  deliver: (handler, event, clock) => deliverLemonSqueezy(handler, event, clock),
  sentAt: (event) => new Date((event as LemonSqueezyEvent<{ updated_at: string }>).data.attributes.updated_at),
  steps: {
    aliceSignup: [],
    carol: [order('order_created', { at: '2026-01-10T09:00:00Z', id: 1002, customer: 502, email: 'carol@example.com', subtotal: 10000, discount: 2000, tax: 800, customData: { coupon: 'BOB20' } })],
    month1: [
      // The subscription's order pays the first month; its first invoice is the same payment.
      order('order_created', { at: '2026-01-19T10:00:00Z', id: 1001, customer: alice.customer, email: alice.email, subtotal: 4900, tax: 490, customData: { referral: 'ANN' } }),
      subscriptionInvoice('subscription_payment_success', { at: '2026-01-19T10:00:05Z', id: 2001, ...alice, billingReason: 'initial', subtotal: 4900, tax: 490 }),
    ],
    month2: [month(2002, '2026-02-19T10:00:00Z')],
    partialRefund: [
      order('order_refunded', { at: '2026-01-19T10:00:00Z', updatedAt: '2026-02-25T12:00:00Z', id: 1001, customer: alice.customer, email: alice.email, subtotal: 4900, tax: 490, refundedAmount: 2695, customData: { referral: 'ANN' } }),
    ],
    fullRefund: [
      order('order_refunded', { at: '2026-01-10T09:00:00Z', updatedAt: '2026-03-01T12:00:00Z', id: 1002, customer: 502, email: 'carol@example.com', subtotal: 10000, discount: 2000, tax: 800, refundedAmount: 8800, customData: { coupon: 'BOB20' } }),
    ],
    month3: [month(2003, '2026-03-19T10:00:00Z')],
  },
}
