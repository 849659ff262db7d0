// The Paddle and Lemon Squeezy handlers' doors: signatures made by the documented algorithms (and,
// for Paddle, accepted by the official SDK's verifier) pass; a wrong secret, an old timestamp and
// a changed body answer 400 and write nothing.
import { NodeRuntime, Webhooks } from '@paddle/paddle-node-sdk'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, systemClock, testClock, type Clock } from '../../src/index.js'
import { lemonSqueezyHandler } from '../../src/providers/lemon-squeezy/index.js'
import { paddleHandler } from '../../src/providers/paddle/index.js'
import { snapshot } from '../conformance/helpers.js'
import { deliverLemonSqueezy, LEMON_SQUEEZY_SECRET } from '../support/providers/lemon-squeezy-scenario.js'
import { order, subscriptionInvoice } from '../support/providers/lemon-squeezy-fixtures.js'
import { adjustment, customerCreated, transactionCompleted } from '../support/providers/paddle-fixtures.js'
import { deliverPaddle, PADDLE_SECRET, paddleSignature } from '../support/providers/paddle-scenario.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from '../support/providers/scenario.js'

// The SDK's verifier needs its Node runtime (its Paddle client sets it up the same way).
NodeRuntime.initialize()

/** A program over its own memory storage, with the storage the provider handlers need. */
async function program(clock: Clock = testClock('2026-02-01T00:00:00Z')) {
  const storage = memoryStorage()
  const made = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
  await scenarioAffiliates(made, 'BOB20')
  return Object.assign(made, { storage })
}

const post = (handler: (request: Request) => Promise<Response>, body: string, headers: Record<string, string>) =>
  handler(new Request('https://shop.example/hook', { method: 'POST', body, headers }))

describe('paddle handler: signatures', () => {
  it("accepts a signature the Paddle SDK's own verifier accepts, and maps the customer and transaction", async () => {
    const app = await program(systemClock)
    const handler = paddleHandler({ program: app, storage: app.storage, webhookSecret: PADDLE_SECRET })
    const now = new Date().toISOString()
    for (const event of [
      customerCreated({ at: now, id: 'ctm_hal', email: 'hal@example.com' }),
      transactionCompleted({ at: now, id: 'txn_hal1', customer: 'ctm_hal', subtotal: 2000, tax: 0, origin: 'web', referral: 'ANN' }),
    ]) {
      const body = JSON.stringify(event)
      const header = paddleSignature(body, PADDLE_SECRET, Math.floor(Date.now() / 1000))
      expect(await new Webhooks().isSignatureValid(body, PADDLE_SECRET, header)).toBe(true)
      expect(await new Webhooks().isSignatureValid(body, 'pdl_other', header)).toBe(false)
      const response = await post(handler, body, { 'Paddle-Signature': header })
      expect(await response.json()).toMatchObject({ status: 'applied' })
    }
    expect((await app.affiliates.get('ann@affiliates.example')).earnings.total).toBe('6.00')
  })

  it('a wrong secret, a replayed old timestamp and a tampered body answer 400 and change nothing', async () => {
    const clock = testClock('2026-02-01T00:00:00Z')
    const app = await program(clock)
    const handler = paddleHandler({ program: app, storage: app.storage, webhookSecret: ['pdl_new', PADDLE_SECRET] })
    const before = await snapshot(app)
    const body = JSON.stringify(customerCreated({ at: '2026-02-01T00:00:00Z', id: 'ctm_ivy', email: 'ivy@example.com' }))
    const now = Math.floor(clock.now().getTime() / 1000)
    const answers = await Promise.all([
      post(handler, body, { 'Paddle-Signature': paddleSignature(body, 'pdl_wrong', now) }),
      post(handler, body, { 'Paddle-Signature': paddleSignature(body, PADDLE_SECRET, now - 301) }),
      post(handler, body.replace('ivy@', 'eve@'), { 'Paddle-Signature': paddleSignature(body, PADDLE_SECRET, now) }),
      post(handler, body, {}),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400])
    expect(await snapshot(app)).toBe(before)
    expect((await app.providerEvents.list()).total).toBe(0)
    // The rotated-out secret still verifies.
    expect((await post(handler, body, { 'Paddle-Signature': paddleSignature(body, PADDLE_SECRET, now) })).status).toBe(200)
  })
})

/** Customer `name` (ctm_<name>), referred by Ann, paid transaction txn_<name>1 of 100.00 plus `tax`. */
async function paidTransaction(name: string, tax: number) {
  const clock = testClock('2026-02-01T00:00:00Z')
  const app = await program(clock)
  const handler = paddleHandler({ program: app, storage: app.storage, webhookSecret: PADDLE_SECRET })
  await deliverPaddle(handler, customerCreated({ at: '2026-01-31T00:00:00Z', id: `ctm_${name}`, email: `${name}@example.com` }), clock)
  await deliverPaddle(handler, transactionCompleted({ at: '2026-01-31T00:00:01Z', id: `txn_${name}1`, customer: `ctm_${name}`, subtotal: 10000, tax, origin: 'web', referral: 'ANN' }), clock)
  return { app, handler, clock }
}

describe('paddle handler: adjustments', () => {
  it('adjustment.created and adjustment.updated of one approved refund, delivered at once, refund it once', async () => {
    const { app, handler, clock } = await paidTransaction('kim', 0)
    // Paddle sends both when a refund is approved at once and updated moments later.
    const refund = { at: '2026-01-31T12:00:00Z', id: 'adj_kim1', transaction: 'txn_kim1', customer: 'ctm_kim', type: 'partial' as const, status: 'approved' as const, subtotal: 2500, tax: 0 }
    const answers = await Promise.all([deliverPaddle(handler, adjustment('adjustment.created', refund), clock), deliverPaddle(handler, adjustment('adjustment.updated', refund), clock)])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
    const [conversion] = (await app.conversions.list()).items
    // 25.00 of 100.00 refunded: commission 30.00 -> 22.50.
    expect([conversion!.refundedBaseValue, conversion!.value]).toEqual(['25.00', '22.50'])
  })
})

describe('paddle handler: credits', () => {
  it('a credit adjustment shrinks the commission like a refund; a chargeback warning changes nothing', async () => {
    const { app, handler, clock } = await paidTransaction('lou', 1000)
    // A credit needs no Paddle approval: it is created approved.
    const credit = { at: '2026-01-31T12:00:00Z', id: 'adj_lou1', transaction: 'txn_lou1', customer: 'ctm_lou', type: 'partial' as const, status: 'approved' as const, subtotal: 2000, tax: 200 }
    expect(await (await deliverPaddle(handler, adjustment('adjustment.created', { ...credit, action: 'credit' }), clock)).json()).toMatchObject({ status: 'applied' })
    const warning = { ...credit, id: 'adj_lou2', action: 'chargeback_warning' as const }
    expect(await (await deliverPaddle(handler, adjustment('adjustment.created', warning), clock)).json()).toMatchObject({ status: 'ignored' })
    const [conversion] = (await app.conversions.list()).items
    // 20.00 of 100.00 credited: commission 30.00 -> 24.00.
    expect([conversion!.refundedBaseValue, conversion!.value]).toEqual(['20.00', '24.00'])
  })
})

describe('lemon squeezy handler: signatures', () => {
  it('accepts the documented X-Signature; a wrong secret or a tampered body answers 400 and changes nothing; a replay is a duplicate', async () => {
    const app = await program()
    const handler = lemonSqueezyHandler({ program: app, storage: app.storage, webhookSecret: LEMON_SQUEEZY_SECRET })
    const event = order('order_created', { at: '2026-01-31T00:00:00Z', id: 77, customer: 700, email: 'jo@example.com', subtotal: 1000, tax: 0, customData: { referral: 'ANN' } })
    const before = await snapshot(app)
    expect((await deliverLemonSqueezy(handler, event, undefined, 'wrong-secret')).status).toBe(400)
    expect((await deliverLemonSqueezy(handler, event, undefined, LEMON_SQUEEZY_SECRET, (body) => body.replace('"subtotal":1000', '"subtotal":100000'))).status).toBe(400)
    expect(await snapshot(app)).toBe(before)
    expect(await (await deliverLemonSqueezy(handler, event)).json()).toMatchObject({ status: 'applied', duplicate: false })
    expect(await (await deliverLemonSqueezy(handler, event)).json()).toMatchObject({ status: 'applied', duplicate: true })
    expect((await app.conversions.list()).items.map((c) => [c.reference, c.value])).toEqual([['ls-order-77', '3.00']])
  })
})

describe('lemon squeezy handler: amounts', () => {
  it("a payment's base value is what was paid before tax: Lemon Squeezy's documented order with a setup fee", async () => {
    const app = await program()
    const handler = lemonSqueezyHandler({ program: app, storage: app.storage, webhookSecret: LEMON_SQUEEZY_SECRET })
    // The Order object's example: subtotal 999, setup_fee 999, tax 200 (20% of 999), total 1199.
    const event = order('order_created', { at: '2026-01-31T00:00:00Z', id: 78, customer: 701, email: 'max@example.com', subtotal: 999, tax: 200, customData: { referral: 'ANN' } })
    event.data.attributes.setup_fee = 999
    expect(event.data.attributes.total).toBe(1199)
    expect(await (await deliverLemonSqueezy(handler, event)).json()).toMatchObject({ status: 'applied' })
    expect((await app.conversions.list()).items.map((c) => [c.baseValue, c.value])).toEqual([['9.99', '3.00']])
  })
})

describe('lemon squeezy handler: refunds', () => {
  it('two partial refunds of one order within the same second are two events, each applied', async () => {
    const app = await program()
    const handler = lemonSqueezyHandler({ program: app, storage: app.storage, webhookSecret: LEMON_SQUEEZY_SECRET })
    const paid = { at: '2026-01-31T00:00:00Z', id: 79, customer: 702, email: 'lou@example.com', subtotal: 10000, tax: 0 }
    expect(await (await deliverLemonSqueezy(handler, order('order_created', { ...paid, customData: { referral: 'ANN' } }))).json()).toMatchObject({ status: 'applied' })
    // Lemon Squeezy's updated_at is to the second: both refunds carry the same one.
    const refunded = { ...paid, updatedAt: '2026-02-01T00:00:00Z' }
    expect(await (await deliverLemonSqueezy(handler, order('order_refunded', { ...refunded, refundedAmount: 1000 }))).json()).toMatchObject({ status: 'applied' })
    expect(await (await deliverLemonSqueezy(handler, order('order_refunded', { ...refunded, refundedAmount: 3000 }))).json()).toMatchObject({ status: 'applied', duplicate: false })
    const [conversion] = (await app.conversions.list()).items
    // 30.00 of 100.00 refunded so far: commission 30.00 -> 21.00.
    expect([conversion!.refundedBaseValue, conversion!.value]).toEqual(['30.00', '21.00'])
  })

  it("a refund of a subscription's first invoice is ignored (its order's refund shrinks the commission), not left waiting", async () => {
    const app = await program()
    const handler = lemonSqueezyHandler({ program: app, storage: app.storage, webhookSecret: LEMON_SQUEEZY_SECRET })
    const paid = { at: '2026-01-31T00:00:00Z', id: 80, customer: 703, email: 'max@example.com', subtotal: 10000, tax: 0 }
    const invoice = { ...paid, id: 800, subscription: 8, billingReason: 'initial' as const }
    await deliverLemonSqueezy(handler, order('order_created', { ...paid, customData: { referral: 'ANN' } }))
    await deliverLemonSqueezy(handler, subscriptionInvoice('subscription_payment_success', invoice))
    const refunded = { updatedAt: '2026-02-01T00:00:00Z', refundedAmount: 10000 }
    expect(await (await deliverLemonSqueezy(handler, subscriptionInvoice('subscription_payment_refunded', { ...invoice, ...refunded }))).json()).toMatchObject({ status: 'ignored' })
    expect(await (await deliverLemonSqueezy(handler, order('order_refunded', { ...paid, ...refunded }))).json()).toMatchObject({ status: 'applied' })
    expect((await app.conversions.list()).items.map((c) => c.status)).toEqual(['refunded'])
    expect((await app.providerEvents.list({ status: 'waiting' })).total).toBe(0)
  })
})
