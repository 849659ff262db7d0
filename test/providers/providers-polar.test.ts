// The Polar handler's door and mapping: signatures Polar's SDK would accept (its validateEvent is
// standardwebhooks' verify keyed by the base64 of the secret) pass; a wrong secret, an old
// timestamp, a changed body or missing headers answer 400 and write nothing; the referral comes
// from the order's metadata or the customer's external_id; refunds are Polar's running totals.
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, systemClock, testClock, type Clock } from '../../src/index.js'
import { polarHandler } from '../../src/providers/polar/index.js'
import { snapshot } from '../conformance/helpers.js'
import { orderPaid, orderRefunded, type OrderInput } from '../support/providers/polar-fixtures.js'
import { deliverPolar, POLAR_SECRET, polarHeaders } from '../support/providers/polar-scenario.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from '../support/providers/scenario.js'

async function program(clock: Clock = testClock('2026-02-01T00:00:00Z')) {
  const storage = memoryStorage()
  const made = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
  await scenarioAffiliates(made, 'BOB20')
  return made
}

const post = (handler: (request: Request) => Promise<Response>, body: string, headers: Record<string, string>) =>
  handler(new Request('https://shop.example/hook', { method: 'POST', body, headers }))

const hal: OrderInput = { at: '2026-01-31T00:00:00Z', id: 'ord_hal1', customer: 'cus_hal', email: 'hal@example.com', subtotal: 2000, tax: 0, billingReason: 'purchase', product: 'prod_book', metadata: { referral: 'ANN' } }

describe('polar handler: signatures', () => {
  it("accepts what Polar's SDK accepts (standardwebhooks keyed by the secret in base64), and maps the order", async () => {
    const app = await program(systemClock)
    const handler = polarHandler({ program: app, webhookSecret: POLAR_SECRET })
    const body = JSON.stringify(orderPaid({ ...hal, at: new Date().toISOString() }))
    const headers = polarHeaders(body, POLAR_SECRET, new Date())
    // As @polar-sh/sdk's validateEvent verifies: new Webhook(base64(secret)).verify(body, headers).
    expect(new Webhook(Buffer.from(POLAR_SECRET).toString('base64')).verify(body, headers)).toMatchObject({ type: 'order.paid' })
    expect(() => new Webhook(Buffer.from('polar_whs_other').toString('base64')).verify(body, headers)).toThrow()
    expect(await (await post(handler, body, headers)).json()).toMatchObject({ status: 'applied', duplicate: false, event_id: headers['webhook-id'] })
    // 30% of 20.00.
    expect((await app.affiliates.get('ann@affiliates.example')).earnings.total).toBe('6.00')
  })

  it('a wrong secret, an old timestamp, a tampered body and missing headers answer 400 and change nothing; a rotated-out secret still verifies', async () => {
    const clock = testClock('2026-02-01T00:00:00Z')
    const app = await program(clock)
    const handler = polarHandler({ program: app, webhookSecret: ['polar_whs_new', POLAR_SECRET] })
    const before = await snapshot(app)
    const body = JSON.stringify(orderPaid(hal))
    const now = clock.now()
    const good = polarHeaders(body, POLAR_SECRET, now)
    const { 'webhook-signature': _signature, ...unsigned } = good
    const answers = await Promise.all([
      post(handler, body, polarHeaders(body, 'polar_whs_wrong', now)),
      post(handler, body, polarHeaders(body, POLAR_SECRET, new Date(now.getTime() - 301_000))),
      post(handler, body.replace('"net_amount":2000', '"net_amount":200000'), good),
      post(handler, body, unsigned),
      post(handler, body, {}),
      post(handler, body, { ...good, 'webhook-timestamp': 'soon' }),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400])
    expect(await answers[0]!.json()).toEqual({ error: 'invalid signature: no signature matches' })
    expect(await snapshot(app)).toBe(before)
    expect((await app.providerEvents.list()).total).toBe(0)
    // Several signatures in one header (Standard Webhooks separates them by spaces): one matching is enough.
    const both = { ...good, 'webhook-signature': `v1,${Buffer.from('x'.repeat(32)).toString('base64')} ${good['webhook-signature']}` }
    expect((await post(handler, body, both)).status).toBe(200)
  })

  it('a signed body that is not JSON, or not an event, answers 400 and records nothing', async () => {
    const clock = testClock('2026-02-01T00:00:00Z')
    const app = await program(clock)
    const handler = polarHandler({ program: app, webhookSecret: POLAR_SECRET })
    for (const body of ['{"type":', '[]', JSON.stringify({ type: 'order.paid', timestamp: 'never', data: {} })]) {
      const answer = await post(handler, body, polarHeaders(body, POLAR_SECRET, clock.now()))
      expect([answer.status, ((await answer.json()) as { error: string }).error]).toEqual([400, expect.stringMatching(/^not a polar event: /)])
    }
    expect((await app.providerEvents.list()).total).toBe(0)
  })
})

describe('polar handler: orders', () => {
  it("credits the affiliate named by the customer's external_id when the metadata names none; the coupon's affiliate by the discount code", async () => {
    const clock = testClock('2026-02-01T00:00:00Z')
    const app = await program(clock)
    const handler = polarHandler({ program: app, webhookSecret: POLAR_SECRET })
    const { metadata: _metadata, ...noMetadata } = hal
    expect(await (await deliverPolar(handler, orderPaid({ ...noMetadata, externalId: 'ANN' }), clock)).json()).toMatchObject({ status: 'applied' })
    const coupon = { ...noMetadata, id: 'ord_ivy1', customer: 'cus_ivy', email: 'ivy@example.com', discount: { amount: 500, code: 'BOB20', id: 'dsc_bob' } }
    expect(await (await deliverPolar(handler, orderPaid(coupon), clock)).json()).toMatchObject({ status: 'applied' })
    const conversions = (await app.conversions.list()).items.map((c) => [c.reference, c.customerEmail, c.baseValue, c.value])
    // Ann 30% of 20.00; Bob 30% of 15.00 (20.00 less the 5.00 discount).
    expect(conversions.sort()).toEqual([
      ['ord_hal1', 'hal@example.com', '20.00', '6.00'],
      ['ord_ivy1', 'ivy@example.com', '15.00', '4.50'],
    ])
  })

  it('order.refunded carries the running total: two partial refunds, delivered in either order, then the full one', async () => {
    const clock = testClock('2026-02-01T00:00:00Z')
    const app = await program(clock)
    const handler = polarHandler({ program: app, webhookSecret: POLAR_SECRET })
    const paid = { ...hal, subtotal: 10000, tax: 1000 }
    await deliverPolar(handler, orderPaid(paid), clock)
    const refund = (amount: number, at: string) => orderRefunded({ ...paid, refunded: { amount, tax: amount / 10, at } })
    // The later total first: the earlier one refunds nothing more.
    expect(await (await deliverPolar(handler, refund(5000, '2026-01-31T12:00:00Z'), clock)).json()).toMatchObject({ status: 'applied' })
    expect(await (await deliverPolar(handler, refund(2000, '2026-01-31T11:00:00Z'), clock)).json()).toMatchObject({ status: 'ignored' })
    const conversion = async () => (await app.conversions.list()).items.map((c) => [c.status, c.refundedBaseValue, c.value])[0]
    // 50.00 of 100.00 refunded: 30.00 -> 15.00.
    expect(await conversion()).toEqual(['active', '50.00', '15.00'])
    expect(await (await deliverPolar(handler, refund(10000, '2026-01-31T13:00:00Z'), clock)).json()).toMatchObject({ status: 'applied' })
    expect((await conversion())![0]).toBe('refunded')
  })

  it('a renewal (subscription_cycle) earns the recurring rule; an order.created is recorded as an event affiliate-kit does not use', async () => {
    const clock = testClock('2026-03-01T00:00:00Z')
    const app = await program(clock)
    const handler = polarHandler({ program: app, webhookSecret: POLAR_SECRET })
    const sub = { ...hal, subtotal: 4900, subscription: 'sub_hal', product: 'prod_monthly' }
    await deliverPolar(handler, orderPaid({ ...sub, billingReason: 'subscription_create' }), clock)
    await deliverPolar(handler, { ...orderPaid({ ...sub, id: 'ord_hal2', at: '2026-02-28T00:00:00Z', billingReason: 'subscription_cycle' }), type: 'order.created' }, clock)
    await deliverPolar(handler, orderPaid({ ...sub, id: 'ord_hal2', at: '2026-02-28T00:00:00Z', billingReason: 'subscription_cycle' }), clock)
    expect((await app.conversions.list()).items.map((c) => [c.reference, c.basis, c.value]).sort()).toEqual([
      ['ord_hal1', 'purchase', '14.70'],
      ['ord_hal2', 'recurring', '9.80'],
    ])
    expect((await app.providerEvents.list({ status: 'ignored' })).items.map((event) => event.detail)).toEqual(['order.created is not an event affiliate-kit uses'])
  })
})
