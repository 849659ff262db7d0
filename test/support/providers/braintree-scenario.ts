// The scenario (see scenario.ts) in Braintree's notifications, signed as Braintree signs them and
// as the braintree package verifies them (webhook_notification_gateway.js): bt_payload is the
// notification's XML in base64 (lines of 60 characters), bt_signature `<public key>|<hex
// HMAC-SHA1 of bt_payload, keyed with the SHA-1 of the private key>`, posted as a form.
import { createHash, createHmac } from 'node:crypto'
import type { TestClock } from '../../../src/index.js'
import type { FetchHandler } from '../../../src/providers/handler.js'
import { braintreeHandler } from '../../../src/providers/braintree/index.js'
import { notificationXml, subscriptionCanceled, subscriptionCharged, transactionSettled, type BraintreeNotification, type TransactionInput } from './braintree-fixtures.js'
import type { ProviderScenario } from './scenario.js'

export const BRAINTREE_KEYS = { merchantId: 'shop_merchant', publicKey: 'bt_public_scenario', privateKey: 'bt_private_scenario_key' }

/** The form Braintree posts for a notification. */
export function braintreeForm(notification: BraintreeNotification, keys = BRAINTREE_KEYS): { bt_signature: string; bt_payload: string } {
  const payload = `${Buffer.from(notificationXml(notification)).toString('base64').replace(/.{60}/g, '$&\n')}\n`
  const key = createHash('sha1').update(keys.privateKey).digest()
  return { bt_signature: `${keys.publicKey}|${createHmac('sha1', key).update(payload).digest('hex')}`, bt_payload: payload }
}

export async function postBraintreeForm(handler: FetchHandler, form: Record<string, string>): Promise<Response> {
  const body = new URLSearchParams(form).toString()
  return handler(new Request('https://shop.example/api/v1/providers/braintree/events', { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }))
}

export const deliverBraintree = (handler: FetchHandler, event: unknown, _clock?: TestClock, keys = BRAINTREE_KEYS) => postBraintreeForm(handler, braintreeForm(event as BraintreeNotification, keys))

const alice = { customer: 'cus_alice', email: 'alice@example.com', amount: '53.90', tax: '4.90' }
const carol: TransactionInput = { at: '2026-01-10T09:00:00Z', id: 'txn_carol1', customer: 'cus_carol', email: 'carol@example.com', amount: '88.00', tax: '8.00', customFields: { coupon: 'BOB20' } }
const month = (id: string, at: string, cycle: number) => subscriptionCharged({ at, subscription: 'sub_alice', plan: 'monthly', cycle, charge: { ...alice, at, id } })

export const braintreeScenario: ProviderScenario = {
  name: 'braintree',
  // A one-off sale passes the coupon as a custom field (subscriptions name their discounts by id).
  bobCoupon: 'BOB20',
  excludedProduct: 'addon',
  handler: (program, storage) => braintreeHandler({ program, storage, ...BRAINTREE_KEYS }),
  deliver: (handler, event, clock) => deliverBraintree(handler, event, clock),
  sentAt: (event) => new Date((event as BraintreeNotification).timestamp),
  steps: {
    aliceSignup: [],
    // A sale without a subscription counts once settled.
    carol: [transactionSettled(carol)],
    month1: [
      subscriptionCharged({ at: '2026-01-19T10:00:00Z', subscription: 'sub_alice', plan: 'monthly', cycle: 1, charge: { ...alice, at: '2026-01-19T10:00:00Z', id: 'txn_alice1', customFields: { referral: 'ANN' } } }),
      // Its settlement two days on names the subscription: counted by the charge already.
      transactionSettled({ ...alice, at: '2026-01-21T02:00:00Z', id: 'txn_alice1', subscription: 'sub_alice', plan: 'monthly' }),
    ],
    month2: [month('txn_alice2', '2026-02-19T10:00:00Z', 2)],
    excluded: [subscriptionCharged({ at: '2026-02-22T10:00:00Z', subscription: 'sub_alice_addon', plan: 'addon', cycle: 1, charge: { ...alice, at: '2026-02-22T10:00:00Z', id: 'txn_alice_addon1', amount: '16.50', tax: '1.50' } })],
    partialRefund: [transactionSettled({ ...alice, at: '2026-02-25T12:00:00Z', id: 'txn_alice1_refund', type: 'credit', amount: '26.95', tax: '2.45', refunds: 'txn_alice1' })],
    fullRefund: [transactionSettled({ ...carol, at: '2026-03-01T12:00:00Z', id: 'txn_carol1_refund', type: 'credit', refunds: 'txn_carol1', customFields: {} })],
    month3: [month('txn_alice3', '2026-03-19T10:00:00Z', 3)],
    cancel: [subscriptionCanceled({ at: '2026-03-25T08:00:00Z', subscription: 'sub_alice', plan: 'monthly' })],
  },
}
