// The scenario (see scenario.ts) in Paddle Billing's events, signed with the documented
// algorithm (the SDK's own verifier accepts these signatures: see providers-paddle.test.ts).
import { createHmac } from 'node:crypto'
import type { TestClock } from '../../../src/index.js'
import type { FetchHandler } from '../../../src/providers/handler.js'
import { paddleHandler } from '../../../src/providers/paddle/index.js'
import { adjustment, customerCreated, transactionCompleted, type PaddleEventFixture } from './paddle-fixtures.js'
import type { ProviderScenario } from './scenario.js'

export const PADDLE_SECRET = 'pdl_ntfset_test_scenario_secret'

/** The Paddle-Signature header of a body sent at `ts` (unix seconds). */
export function paddleSignature(body: string, secret: string, ts: number): string {
  return `ts=${ts};h1=${createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex')}`
}

export async function deliverPaddle(handler: FetchHandler, event: unknown, clock: TestClock, secret = PADDLE_SECRET): Promise<Response> {
  const body = JSON.stringify(event)
  const header = paddleSignature(body, secret, Math.floor(clock.now().getTime() / 1000))
  return handler(new Request('https://shop.example/api/v1/providers/paddle/events', { method: 'POST', body, headers: { 'Paddle-Signature': header } }))
}

const month = (id: string, at: string) => transactionCompleted({ at, id, customer: 'ctm_alice', subtotal: 4900, tax: 490, subscription: 'sub_alice', origin: 'subscription_recurring' })
const refund = (eventType: 'adjustment.created' | 'adjustment.updated', input: Parameters<typeof adjustment>[1]) => adjustment(eventType, input)

export const paddleScenario: ProviderScenario = {
  name: 'paddle',
  // Transactions name the discount by id.
  bobCoupon: 'dsc_01bob20',
  handler: (program, storage) => paddleHandler({ program, storage, webhookSecret: PADDLE_SECRET }),
  deliver: (handler, event, clock) => deliverPaddle(handler, event, clock),
  sentAt: (event) => new Date((event as PaddleEventFixture<unknown>).occurred_at),
  steps: {
    aliceSignup: [customerCreated({ at: '2026-01-19T09:59:00Z', id: 'ctm_alice', email: 'alice@example.com' })],
    carol: [
      customerCreated({ at: '2026-01-10T09:00:00Z', id: 'ctm_carol', email: 'carol@example.com' }),
      transactionCompleted({ at: '2026-01-10T09:00:10Z', id: 'txn_carol1', customer: 'ctm_carol', subtotal: 10000, discount: { amount: 2000, id: 'dsc_01bob20' }, tax: 800, origin: 'web' }),
    ],
    // The checkout transaction starts the subscription; Paddle.js custom data carries the referral.
    month1: [transactionCompleted({ at: '2026-01-19T10:00:00Z', id: 'txn_alice1', customer: 'ctm_alice', subtotal: 4900, tax: 490, subscription: 'sub_alice', origin: 'web', referral: 'ANN' })],
    month2: [month('txn_alice2', '2026-02-19T10:00:00Z')],
    partialRefund: [
      refund('adjustment.created', { at: '2026-02-25T12:00:00Z', id: 'adj_alice1', transaction: 'txn_alice1', customer: 'ctm_alice', type: 'partial', status: 'pending_approval', subtotal: 2450, tax: 245 }),
      refund('adjustment.updated', { at: '2026-02-25T14:00:00Z', id: 'adj_alice1', transaction: 'txn_alice1', customer: 'ctm_alice', type: 'partial', status: 'approved', subtotal: 2450, tax: 245 }),
    ],
    fullRefund: [refund('adjustment.created', { at: '2026-03-01T12:00:00Z', id: 'adj_carol1', transaction: 'txn_carol1', customer: 'ctm_carol', type: 'full', status: 'approved', subtotal: 8000, tax: 800 })],
    month3: [month('txn_alice3', '2026-03-19T10:00:00Z')],
  },
}
