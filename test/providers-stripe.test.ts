// The Stripe handler's door: signatures made by the stripe package verify (also under a rolled
// secret, and among several v1 signatures); a wrong secret, an old timestamp or a changed body is
// 400 and writes nothing; re-deliveries and unknown types are 200 and recorded.
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../src/adapters/memory.js'
import { createAffiliateProgram, testClock } from '../src/index.js'
import { stripeHandler } from '../src/providers/stripe/index.js'
import { snapshot } from './conformance/helpers.js'
import { invoicePaid, unusedEvent } from './providers/stripe-fixtures.js'
import { deliverStripe, SCENARIO_SETTINGS, scenarioAffiliates, STRIPE_SECRET } from './providers/stripe-scenario.js'

const stripe = new Stripe('sk_test_not_used')

async function setup(secret: string | string[] = STRIPE_SECRET) {
  const clock = testClock('2026-02-01T00:00:00Z')
  const program = await createAffiliateProgram({ storage: memoryStorage(), clock, settings: SCENARIO_SETTINGS })
  await scenarioAffiliates(program)
  await program.referrals.create({ email: 'dan@example.com', referralCode: 'ANN' })
  return { program, clock, handler: stripeHandler({ program, webhookSecret: secret }) }
}

const paid = () =>
  invoicePaid({ at: '2026-01-31T23:59:00Z', id: 'in_Dan1', customer: 'cus_Dan', email: 'dan@example.com', subtotal: 1000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Dan1' })

const post = (handler: (request: Request) => Promise<Response>, body: string, header: string) =>
  handler(new Request('https://shop.example/hook', { method: 'POST', body, headers: { 'Stripe-Signature': header } }))

describe('stripe handler: signatures', () => {
  it('accepts a signature made by the stripe package and creates the conversion once per event', async () => {
    const { program, clock, handler } = await setup()
    const event = paid()
    const first = await deliverStripe(handler, event, clock)
    expect(await first.json()).toMatchObject({ status: 'applied', duplicate: false })
    const again = await deliverStripe(handler, event, clock)
    expect(await again.json()).toMatchObject({ status: 'applied', duplicate: true })
    expect((await program.conversions.list()).items.map((c) => [c.reference, c.value])).toEqual([['in_Dan1', '3.00']])
  })

  it('a wrong secret, a replayed old timestamp and a tampered body answer 400 and change nothing', async () => {
    const { program, clock, handler } = await setup()
    const before = await snapshot(program)
    const event = paid()
    const payload = JSON.stringify(event)
    const now = Math.floor(clock.now().getTime() / 1000)
    const wrongSecret = await deliverStripe(handler, event, clock, 'whsec_someone_else')
    const old = await post(handler, payload, stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET, timestamp: now - 301 }))
    const tampered = await deliverStripe(handler, event, clock, STRIPE_SECRET, (body) => body.replace('"total":1000', '"total":100000'))
    const missing = await handler(new Request('https://shop.example/hook', { method: 'POST', body: payload }))
    for (const response of [wrongSecret, old, tampered, missing]) {
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: expect.stringContaining('invalid signature') })
    }
    expect(await snapshot(program)).toBe(before)
    expect((await program.providerEvents.list()).total).toBe(0)
  })

  it('verifies under any of several secrets (rolled secret) and any of several v1 signatures', async () => {
    const { program, clock, handler } = await setup(['whsec_new', 'whsec_old'])
    const event = paid()
    expect((await deliverStripe(handler, event, clock, 'whsec_old')).status).toBe(200)
    const other = { ...unusedEvent('2026-01-31T23:59:30Z') }
    const payload = JSON.stringify(other)
    const t = Math.floor(clock.now().getTime() / 1000)
    const good = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_new', timestamp: t }).split('v1=')[1]
    const response = await post(handler, payload, `t=${t},v1=${'0'.repeat(64)},v1=${good},v0=ignored`)
    expect(response.status).toBe(200)
    expect((await program.providerEvents.list()).total).toBe(2)
  })

  it('records unknown event types as ignored with the reason; refuses a signed body that is not an event', async () => {
    const { program, clock, handler } = await setup()
    const response = await deliverStripe(handler, unusedEvent('2026-01-31T23:00:00Z'), clock)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'ignored', detail: 'payment_intent.succeeded is not an event affiliate-kit uses' })
    const notEvent = await deliverStripe(handler, { hello: 'world' }, clock)
    expect(notEvent.status).toBe(400)
    const get = await handler(new Request('https://shop.example/hook'))
    expect(get.status).toBe(405)
    const listed = await program.providerEvents.list({ status: 'ignored' })
    expect(listed.items.map((e) => e.type)).toEqual(['payment_intent.succeeded'])
  })

  it('the same event delivered ten times at once creates one conversion', async () => {
    const { program, clock, handler } = await setup()
    const event = paid()
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliverStripe(handler, event, clock)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200))
    expect((await program.conversions.list()).total).toBe(1)
    expect((await program.providerEvents.list()).total).toBe(1)
  })
})
