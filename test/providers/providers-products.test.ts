// The payment providers fill a conversion's product from their own objects, and the product's rule
// earns it: a Paddle transaction's item (`price.product_id`), a Lemon Squeezy order's
// `first_order_item.product_id` (its subscription invoices name none), a Polar order's
// `product_id`, a Braintree subscription's `planId` (a one-off sale's `product` custom field).
// Stripe's lines are in the conformance scenario (test/conformance/commission-scenario.case.ts);
// an excluded product is in every provider's scenario that has one (test/conformance/providers.case.ts).
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { mapBraintreeNotification } from '../../src/providers/braintree/map.js'
import { mapLemonSqueezyEvent } from '../../src/providers/lemon-squeezy/map.js'
import { mapPolarEvent } from '../../src/providers/polar/map.js'
import { mapPaddleEvent } from '../../src/providers/paddle/map.js'
import { paddleHandler } from '../../src/providers/paddle/index.js'
import braintree from 'braintree'
import { subscriptionCharged, transactionSettled } from '../support/providers/braintree-fixtures.js'
import { BRAINTREE_KEYS, braintreeForm } from '../support/providers/braintree-scenario.js'
import { order, subscriptionInvoice } from '../support/providers/lemon-squeezy-fixtures.js'
import { orderPaid } from '../support/providers/polar-fixtures.js'
import { customerCreated, transactionCompleted } from '../support/providers/paddle-fixtures.js'
import { deliverPaddle, PADDLE_SECRET } from '../support/providers/paddle-scenario.js'

const paidOf = (actions: ReadonlyArray<{ kind: string }>) => actions.find((action) => action.kind === 'paid') as { productId?: string | null } | undefined

describe('payment providers fill the product', () => {
  it('Paddle: the transaction item\'s price.product_id; none without items', () => {
    const withItem = mapPaddleEvent(transactionCompleted({ at: '2026-01-10T09:00:00Z', id: 'txn_1', customer: 'ctm_1', subtotal: 4900, tax: 0, origin: 'web', product: 'pro_01starter' }))
    expect(paidOf(withItem.actions)?.productId).toBe('pro_01starter')
    const without = mapPaddleEvent(transactionCompleted({ at: '2026-01-10T09:00:00Z', id: 'txn_2', customer: 'ctm_1', subtotal: 4900, tax: 0, origin: 'web' }))
    expect(paidOf(without.actions)?.productId).toBeNull()
  })

  it("Lemon Squeezy: the order's first_order_item.product_id, as text; subscription invoices name none", () => {
    const created = mapLemonSqueezyEvent(order('order_created', { at: '2026-01-10T09:00:00Z', id: 1, customer: 11, email: 'c@example.com', subtotal: 4900, tax: 0 }))
    expect(paidOf(created.actions)?.productId).toBe('7')
    const renewal = mapLemonSqueezyEvent(
      subscriptionInvoice('subscription_payment_success', { at: '2026-02-10T09:00:00Z', id: 2, subscription: 5, customer: 11, email: 'c@example.com', billingReason: 'renewal', subtotal: 4900, tax: 0 }),
    )
    expect(paidOf(renewal.actions)?.productId).toBeNull()
  })

  it("Polar: the order's product_id", () => {
    const paid = mapPolarEvent({ webhookId: 'msg_1', event: orderPaid({ at: '2026-01-10T09:00:00Z', id: 'ord_1', customer: 'cus_1', email: 'c@example.com', subtotal: 4900, tax: 0, billingReason: 'purchase', product: 'prod_starter' }) })
    expect(paidOf(paid.actions)?.productId).toBe('prod_starter')
  })

  it("Braintree: the subscription's planId; a one-off sale's product custom field, else none", async () => {
    // Parsed by the braintree package, as the handler reads them.
    const gateway = new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, ...BRAINTREE_KEYS })
    const parsed = async (notification: Parameters<typeof braintreeForm>[0]) => {
      const form = braintreeForm(notification)
      return mapBraintreeNotification(await gateway.webhookNotification.parse(form.bt_signature, form.bt_payload))
    }
    const sale = { at: '2026-01-10T09:00:00Z', id: 'txn_1', customer: 'cus_1', email: 'c@example.com', amount: '49.00', tax: '0.00' }
    expect(paidOf((await parsed(subscriptionCharged({ at: sale.at, subscription: 'sub_1', plan: 'starter_monthly', cycle: 1, charge: sale }))).actions)?.productId).toBe('starter_monthly')
    expect(paidOf((await parsed(transactionSettled({ ...sale, customFields: { product: 'ebook' } }))).actions)?.productId).toBe('ebook')
    expect(paidOf((await parsed(transactionSettled(sale))).actions)?.productId).toBeNull()
  })

  it('Paddle end to end: the Starter transaction earns the Starter rule, its conversion names the product', async () => {
    const storage = memoryStorage()
    const clock = testClock('2026-02-01T00:00:00Z')
    const program = await createAffiliateProgram({
      storage,
      clock,
      settings: { commission: { purchase: { type: 'percentage', rate: 30 }, products: { pro_01starter: { purchase: { type: 'percentage', rate: 20 } } } } },
    })
    await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
    const handler = paddleHandler({ program, storage, webhookSecret: PADDLE_SECRET })
    expect((await deliverPaddle(handler, customerCreated({ at: '2026-01-10T08:59:00Z', id: 'ctm_1', email: 'c@example.com' }), clock)).status).toBe(200)
    const paid = transactionCompleted({ at: '2026-01-10T09:00:00Z', id: 'txn_1', customer: 'ctm_1', subtotal: 4900, tax: 490, origin: 'web', referral: 'ANN', product: 'pro_01starter' })
    expect((await deliverPaddle(handler, paid, clock)).status).toBe(200)
    const [conversion] = (await program.conversions.list()).items
    expect(conversion).toMatchObject({ reference: 'txn_1', productId: 'pro_01starter', ruleSource: 'product', value: '9.80', basis: 'purchase' })
  })
})
