// The Stripe handler's door: signatures made by the stripe package verify (also under a rolled
// secret, and among several v1 signatures); a wrong secret, an old timestamp or a changed body is
// 400 and writes nothing; re-deliveries and unknown types are 200 and recorded.
import Stripe from 'stripe'
import { describe, expect, it, onTestFinished } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type StoragePort } from '../../src/index.js'
import { createHandler } from '../../src/http/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { snapshot } from '../conformance/helpers.js'
import { chargeRefunded, checkoutCompleted, invoicePaid, invoicePaymentPaid, unusedEvent } from '../support/providers/stripe-fixtures.js'
import { shuffled } from '../support/providers/ledger.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from '../support/providers/scenario.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import { migratedPgliteStorage } from '../support/pglite-template.js'
import { DATABASE_URL, freshPostgresStorage } from '../support/sql/pg-schema.js'

const stripe = new Stripe('sk_test_not_used')

async function setup(secret: string | string[] = STRIPE_SECRET, storage = memoryStorage(), customer = 'dan@example.com') {
  const clock = testClock('2026-02-01T00:00:00Z')
  const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
  await scenarioAffiliates(program, 'BOB20')
  await program.referrals.create({ email: customer, referralCode: 'ANN' })
  return { program, clock, handler: stripeHandler({ program, storage, webhookSecret: secret }) }
}

const paid = () =>
  invoicePaid({ at: '2026-01-31T23:59:00Z', id: 'in_Dan1', customer: 'cus_Dan', email: 'dan@example.com', subtotal: 1000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Dan1' })

const post = (handler: (request: Request) => Promise<Response>, body: string, header: string) =>
  handler(new Request('https://shop.example/hook', { method: 'POST', body, headers: { 'Stripe-Signature': header } }))

describe('stripe handler: mapping', () => {
  it('a first invoice the core refuses is ignored, and the renewal that waited for it applies', async () => {
    const { program, clock, handler } = await setup()
    const dan = { customer: 'cus_Dan', email: 'dan@example.com', subscription: 'sub_Dan', tax: 0 }
    // The app used in_Dan1 as the reference of a signup: the invoice's conversion is refused.
    await program.conversions.create({ type: 'signup', email: 'dan@example.com', reference: 'in_Dan1' })
    const renewal = invoicePaid({ at: '2026-01-31T00:00:00Z', id: 'in_Dan2', ...dan, subtotal: 1000, billingReason: 'subscription_cycle', paymentIntent: 'pi_Dan2' })
    expect(await (await deliverStripe(handler, renewal, clock)).json()).toMatchObject({ status: 'waiting' })
    const first = invoicePaid({ at: '2026-01-01T00:00:00Z', id: 'in_Dan1', ...dan, subtotal: 1000, billingReason: 'subscription_create', paymentIntent: 'pi_Dan1' })
    expect(await (await deliverStripe(handler, first, clock)).json()).toMatchObject({ status: 'ignored', detail: expect.stringContaining('different payload') })
    const events = await program.providerEvents.list({ reference: 'in_Dan2' })
    expect(events.items.map((event) => event.status)).toEqual(['applied'])
    // The refused invoice earned nothing: the renewal is the customer's first commissioned purchase.
    expect((await program.conversions.list()).items.map((c) => [c.reference, c.type, c.basis]).sort()).toEqual([
      ['in_Dan1', 'signup', 'signup'],
      ['in_Dan2', 'purchase', 'purchase'],
    ])
  })

  it('a free trial invoice pays nothing; the first paid invoice after it earns the purchase rule, the next the recurring rule', async () => {
    const { program, clock, handler } = await setup()
    const dan = { customer: 'cus_Dan', email: 'dan@example.com', subscription: 'sub_Dan', tax: 0 }
    const trial = invoicePaid({ at: '2026-01-01T00:00:00Z', id: 'in_DanTrial', ...dan, subtotal: 0, billingReason: 'subscription_create', paymentIntent: 'pi_none' })
    expect(await (await deliverStripe(handler, trial, clock)).json()).toMatchObject({ status: 'ignored', detail: 'in_DanTrial: zero amount, no commission' })
    const first = invoicePaid({ at: '2026-01-15T00:00:00Z', id: 'in_Dan1', ...dan, subtotal: 1000, billingReason: 'subscription_cycle', paymentIntent: 'pi_Dan1' })
    const second = invoicePaid({ at: '2026-01-31T00:00:00Z', id: 'in_Dan2', ...dan, subtotal: 1000, billingReason: 'subscription_cycle', paymentIntent: 'pi_Dan2' })
    await deliverStripe(handler, first, clock)
    await deliverStripe(handler, second, clock)
    const conversions = (await program.conversions.list()).items.reverse()
    expect(conversions.map((c) => [c.reference, c.basis, c.value])).toEqual([
      ['in_Dan1', 'purchase', '3.00'],
      ['in_Dan2', 'recurring', '2.00'],
    ])
  })


  it('credits the affiliate of the coupon a checkout used when the invoice lists discount ids only (current API)', async () => {
    const { program, clock, handler } = await setup()
    await deliverStripe(handler, checkoutCompleted({ at: '2026-01-31T10:00:00Z', customer: 'cus_Fay', email: 'fay@example.com', coupon: 'BOB20' }), clock)
    const invoice = invoicePaid({ at: '2026-01-31T10:00:01Z', id: 'in_Fay1', customer: 'cus_Fay', email: 'fay@example.com', subtotal: 5000, discount: { amount: 1000, coupon: 'BOB20' }, tax: 400, billingReason: 'manual', paymentIntent: 'pi_Fay1' })
    expect(invoice.data.object.discounts).toEqual(['di_in_Fay1'])
    expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'applied' })
    // 30% of 50.00 - 10.00 = 12.00
    expect((await program.affiliates.get('bob@affiliates.example')).earnings.total).toBe('12.00')
  })

  it("reads amounts in Stripe's minor units where they differ from ISO 4217 (ISK two-decimal, MGA zero-decimal); JPY and KWD as ISO", async () => {
    // Stripe: "ISK will remain a two-decimal currency in the Stripe API, and an ISK amount of 100
    // will continue to represent 1 króna"; MGA is in Stripe's zero-decimal list (ISO 4217: 2).
    const cases = [
      { currency: 'ISK', stripeAmount: 490000, baseValue: '4900', value: '1470' },
      { currency: 'MGA', stripeAmount: 4900, baseValue: '4900.00', value: '1470.00' },
      { currency: 'JPY', stripeAmount: 4900, baseValue: '4900', value: '1470' },
      { currency: 'KWD', stripeAmount: 4900, baseValue: '4.900', value: '1.470' },
    ]
    for (const { currency, stripeAmount, baseValue, value } of cases) {
      const storage = memoryStorage()
      const clock = testClock('2026-02-01T00:00:00Z')
      const program = await createAffiliateProgram({ storage, clock, settings: { ...SCENARIO_SETTINGS, currency } })
      await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
      await program.referrals.create({ email: 'dan@example.com', referralCode: 'ANN' })
      const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
      const invoice = invoicePaid({ at: '2026-01-31T23:59:00Z', id: `in_${currency}`, customer: 'cus_Dan', email: 'dan@example.com', subtotal: stripeAmount, tax: 0, billingReason: 'manual', paymentIntent: `pi_${currency}`, currency: currency.toLowerCase() })
      expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'applied' })
      const [conversion] = (await program.conversions.list()).items
      expect([currency, conversion?.baseValue, conversion?.baseValueCurrency, conversion?.value]).toEqual([currency, baseValue, currency, value])
    }
  })

  it('a current-API refund finds its invoice through invoice_payment.paid (invoice.paid carries no payments), in any order', async () => {
    const dan = { customer: 'cus_Dan', email: 'dan@example.com' }
    const events = [
      invoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Dan1', ...dan, subtotal: 1000, tax: 100, billingReason: 'manual', paymentIntent: 'pi_Dan1' }),
      invoicePaymentPaid({ at: '2026-01-31T10:00:00Z', invoice: 'in_Dan1', paymentIntent: 'pi_Dan1', amount: 1100 }),
      chargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_Dan1', ...dan, paymentIntent: 'pi_Dan1', amount: 1100, refundedSoFar: 550 }),
      chargeRefunded({ at: '2026-01-31T12:00:00Z', id: 'ch_Dan1', ...dan, paymentIntent: 'pi_Dan1', amount: 1100, refundedSoFar: 1100 }),
    ]
    expect('payments' in events[0]!.data.object).toBe(false)
    for (const [index, order] of [events, shuffled(events, 1), shuffled(events, 2), [...events].reverse()].entries()) {
      const { program, clock, handler } = await setup()
      for (const event of order) expect((await deliverStripe(handler, event, clock)).status).toBe(200)
      const conversions = (await program.conversions.list()).items.map((c) => [c.reference, c.baseValue, c.status])
      expect(conversions, `order ${index}`).toEqual([['in_Dan1', '10.00', 'refunded']])
      expect((await program.providerEvents.list({ status: 'waiting' })).items.map((e) => e.detail), `order ${index}`).toEqual([])
    }
  })

  it('a partial current-API refund shrinks the conversion pro rata once the payment intent is linked', async () => {
    const { program, clock, handler } = await setup()
    const dan = { customer: 'cus_Dan', email: 'dan@example.com' }
    await deliverStripe(handler, chargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_Dan1', ...dan, paymentIntent: 'pi_Dan1', amount: 1100, refundedSoFar: 275 }), clock)
    await deliverStripe(handler, invoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Dan1', ...dan, subtotal: 1000, tax: 100, billingReason: 'manual', paymentIntent: 'pi_Dan1' }), clock)
    const linked = await deliverStripe(handler, invoicePaymentPaid({ at: '2026-01-31T10:00:00Z', invoice: 'in_Dan1', paymentIntent: 'pi_Dan1', amount: 1100 }), clock)
    expect(await linked.json()).toMatchObject({ status: 'applied' })
    // 275 of 1100 refunded: a quarter of 10.00 before tax; commission 30% of 7.50.
    expect((await program.conversions.list()).items.map((c) => [c.refundedBaseValue, c.value])).toEqual([['2.50', '2.25']])
  })

  it('a customer whose checkout had no referral waits, and is listed with the reason', async () => {
    const { program, clock, handler } = await setup()
    await deliverStripe(handler, checkoutCompleted({ at: '2026-01-31T10:00:00Z', customer: 'cus_Gus', email: 'gus@example.com' }), clock)
    const invoice = invoicePaid({ at: '2026-01-31T10:00:01Z', id: 'in_Gus1', customer: 'cus_Gus', email: 'gus@example.com', subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Gus1' })
    expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'waiting' })
    const [listed] = (await program.providerEvents.list({ reference: 'in_Gus1' })).items
    expect(listed).toMatchObject({ status: 'waiting', waitingFor: 'customer:cus_Gus', detail: expect.stringContaining('no affiliate for gus@example.com') })
    expect((await program.conversions.list()).total).toBe(0)
  })
})

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

  it('a signed event with a NUL or a lone surrogate in a string answers 400 and records nothing', async () => {
    const { program, clock, handler } = await setup()
    for (const bad of ['\u0000', '\ud800']) {
      const event = { ...paid(), id: `evt_bad${bad}` }
      expect((await deliverStripe(handler, event, clock)).status).toBe(400)
    }
    expect((await program.providerEvents.list()).total).toBe(0)
  })

  it('lists received events in the alternative shape under data.providerEvents', async () => {
    const { program, clock, handler } = await setup()
    await deliverStripe(handler, paid(), clock)
    const { key } = await program.keys.create({ name: 'alt' })
    const api = createHandler(program, { shape: 'alternative', rateLimit: false })
    const response = await api(new Request('http://shop.example/api/v1/provider-events?provider=stripe', { headers: { Authorization: `Bearer ${key}` } }))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      success: true,
      data: { providerEvents: [{ provider: 'stripe', type: 'invoice.paid', reference: 'in_Dan1', status: 'applied', conversionId: expect.any(Number) }], total: 1 },
    })
  })

  it('the same event delivered ten times at once creates one conversion', async () => {
    const { program, clock, handler } = await setup()
    const event = paid()
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliverStripe(handler, event, clock)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200))
    expect((await program.conversions.list()).total).toBe(1)
    expect((await program.providerEvents.list()).total).toBe(1)
  })

  it('a copy arriving while another request still applies the event answers 409, so the provider retries it; none answers 200 for unfinished work', async () => {
    const { program, clock, handler } = await setup()
    const event = checkoutCompleted({ at: '2026-01-31T10:00:00Z', customer: 'cus_Hal', email: 'hal@example.com', referral: 'ANN' })
    const answers = await Promise.all(Array.from({ length: 10 }, async () => {
      const answer = await deliverStripe(handler, event, clock)
      return { status: answer.status, body: (await answer.json()) as { status?: string } }
    }))
    expect(answers.filter((answer) => answer.status === 200 && answer.body.status !== 'applied')).toEqual([])
    expect(answers.filter((answer) => answer.status === 409).length).toBeGreaterThan(0)
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true)
    // The provider's retry, once the first is done, is answered from the record.
    expect(await (await deliverStripe(handler, event, clock)).json()).toMatchObject({ status: 'applied', duplicate: true })
    expect((await program.referrals.get('hal@example.com')).affiliateId).toBe((await program.affiliates.get('ann@affiliates.example')).id)
  })
})

describe('stripe handler: an invoice paid by two payment intents', () => {
  const eve = { customer: 'cus_Eve', email: 'eve@example.com' }
  // 100.00 paid as 60.00 (pi_EveA) and 40.00 (pi_EveB); charge A refunded in full, then B in two steps.
  const invoice = invoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Eve1', ...eve, subtotal: 10000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_EveA' })
  const paidBy = [
    invoicePaymentPaid({ at: '2026-01-31T10:00:00Z', invoice: 'in_Eve1', paymentIntent: 'pi_EveA', amount: 6000 }),
    invoicePaymentPaid({ at: '2026-01-31T10:00:00Z', invoice: 'in_Eve1', paymentIntent: 'pi_EveB', amount: 4000 }),
  ]
  const refunds = [
    chargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_EveA', ...eve, paymentIntent: 'pi_EveA', amount: 6000, refundedSoFar: 6000 }),
    chargeRefunded({ at: '2026-01-31T12:00:00Z', id: 'ch_EveB', ...eve, paymentIntent: 'pi_EveB', amount: 4000, refundedSoFar: 1000 }),
    chargeRefunded({ at: '2026-01-31T13:00:00Z', id: 'ch_EveB', ...eve, paymentIntent: 'pi_EveB', amount: 4000, refundedSoFar: 4000 }),
  ]
  const all = [invoice, ...paidBy, ...refunds]
  const refunded = async (program: AffiliateProgram) => (await program.conversions.list()).items.map((c) => [c.refundedBaseValue, c.status])
  const storages: Array<[string, () => { storage: StoragePort; cleanup(): Promise<void> }]> = [
    ['memory', () => ({ storage: memoryStorage(), cleanup: async () => undefined })],
    ['pglite', () => migratedPgliteStorage()],
  ]
  if (DATABASE_URL) storages.push(['postgres', () => freshPostgresStorage()])

  for (const [name, fresh] of storages) {
    it(`${name}: a refund of one charge shrinks the conversion by that charge's share of what was paid; a late, older total counts no less`, async () => {
      const inOrder = fresh()
      const late = fresh()
      try {
        const { program, clock, handler } = await setup(STRIPE_SECRET, inOrder.storage, 'eve@example.com')
        for (const event of [invoice, ...paidBy]) expect((await deliverStripe(handler, event, clock)).status).toBe(200)
        const steps = [[['60.00', 'active']], [['70.00', 'active']], [['100.00', 'refunded']]]
        for (const [index, refund] of refunds.entries()) {
          expect(await (await deliverStripe(handler, refund, clock)).json()).toMatchObject({ status: 'applied' })
          expect(await refunded(program), `after refund ${index + 1}`).toEqual(steps[index])
        }
        // B's total of 1000 arrives after its total of 4000, and before A's refund.
        const lateRun = await setup(STRIPE_SECRET, late.storage, 'eve@example.com')
        for (const event of [invoice, ...paidBy, refunds[2], refunds[1]]) expect((await deliverStripe(lateRun.handler, event, lateRun.clock)).status).toBe(200)
        expect(await refunded(lateRun.program)).toEqual([['40.00', 'active']])
        expect((await deliverStripe(lateRun.handler, refunds[0], lateRun.clock)).status).toBe(200)
        expect(await refunded(lateRun.program)).toEqual([['100.00', 'refunded']])
      } finally {
        await inOrder.cleanup()
        await late.cleanup()
      }
    }, 60_000)

    it(`${name}: a charge's newer total that refunds nothing yet still counts toward the next refund of another charge`, async () => {
      const taxed = fresh()
      const manual = fresh()
      try {
        // 10.00 before 2.00 tax, paid as 6.00 (pi_EveA) and 6.00 (pi_EveB): each cent refunded is 5/6 of a base cent.
        const run = await setup(STRIPE_SECRET, taxed.storage, 'eve@example.com')
        const taxedInvoice = invoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Eve2', ...eve, subtotal: 1000, tax: 200, billingReason: 'manual', paymentIntent: 'pi_EveA' })
        const taxedPaidBy = ['pi_EveA', 'pi_EveB'].map((paymentIntent) => invoicePaymentPaid({ at: '2026-01-31T10:00:00Z', invoice: 'in_Eve2', paymentIntent, amount: 600 }))
        for (const event of [taxedInvoice, ...taxedPaidBy]) expect((await deliverStripe(run.handler, event, run.clock)).status).toBe(200)
        const cents = (id: 'A' | 'B', soFar: number) => chargeRefunded({ at: '2026-01-31T11:00:00Z', id: `ch_Eve${id}`, ...eve, paymentIntent: `pi_Eve${id}`, amount: 600, refundedSoFar: soFar })
        // A 3 cents: 2.5 base cents, 0.03. B 1 cent: 4 cents in all, 3.33, still 0.03. A 4 cents: 5 in all, 4.17: 0.04.
        for (const [refund, base] of [[cents('A', 3), '0.03'], [cents('B', 1), '0.03'], [cents('A', 4), '0.04']] as const) {
          expect((await deliverStripe(run.handler, refund, run.clock)).status).toBe(200)
          expect(await refunded(run.program)).toEqual([[base, 'active']])
        }

        // 30.00 of the 100.00 refunded by hand first: A's 20.00 and then B's 30.00 are 50.00 in all.
        const byHand = await setup(STRIPE_SECRET, manual.storage, 'eve@example.com')
        for (const event of [invoice, ...paidBy]) expect((await deliverStripe(byHand.handler, event, byHand.clock)).status).toBe(200)
        const [conversion] = (await byHand.program.conversions.list()).items
        await byHand.program.conversions.update(conversion!.id, { refundAmount: '30.00' })
        const partly = (id: 'A' | 'B', amount: number, soFar: number) => chargeRefunded({ at: '2026-01-31T11:00:00Z', id: `ch_Eve${id}`, ...eve, paymentIntent: `pi_Eve${id}`, amount, refundedSoFar: soFar })
        for (const [refund, base] of [[partly('A', 6000, 2000), '30.00'], [partly('B', 4000, 3000), '50.00']] as const) {
          expect((await deliverStripe(byHand.handler, refund, byHand.clock)).status).toBe(200)
          expect(await refunded(byHand.program)).toEqual([[base, 'active']])
        }
      } finally {
        await taxed.cleanup()
        await manual.cleanup()
      }
    }, 60_000)
  }

  it('memory: shuffled deliveries end in the same ledger', async () => {
    for (const [index, order] of [shuffled(all, 1), shuffled(all, 2), [...all].reverse()].entries()) {
      const { program, clock, handler } = await setup(STRIPE_SECRET, memoryStorage(), 'eve@example.com')
      for (const event of order) expect((await deliverStripe(handler, event, clock)).status).toBe(200)
      expect(await refunded(program), `order ${index}`).toEqual([['100.00', 'refunded']])
      expect((await program.providerEvents.list({ status: 'waiting' })).total, `order ${index}`).toBe(0)
    }
    // Before B's last refund the ledger already tells the shares apart (a full refund of A alone is not all of it).
    const some = [invoice, ...paidBy, refunds[0]!, refunds[1]!]
    for (const [index, order] of [shuffled(some, 1), shuffled(some, 2), [...some].reverse()].entries()) {
      const { program, clock, handler } = await setup(STRIPE_SECRET, memoryStorage(), 'eve@example.com')
      for (const event of order) expect((await deliverStripe(handler, event, clock)).status).toBe(200)
      expect(await refunded(program), `partly, order ${index}`).toEqual([['70.00', 'active']])
    }
  })
})

describe('stripe handler: one record per event', () => {
  const opened = { memory: () => ({ storage: memoryStorage(), cleanup: async () => {} }), pglite: migratedPgliteStorage }
  for (const [name, open] of Object.entries(opened)) {
    it(`${name}: a re-delivery of an invoice that waited is a duplicate, and the conversion it could now create is rolled back`, async () => {
      const { storage, cleanup } = open()
      onTestFinished(cleanup)
      const { program, clock, handler } = await setup(STRIPE_SECRET, storage)
      const invoice = invoicePaid({ at: '2026-01-31T10:00:01Z', id: 'in_Gus1', customer: 'cus_Gus', email: 'gus@example.com', subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Gus1' })
      expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'waiting', duplicate: false })
      // Gus is referred now, so applying the invoice again would create its conversion.
      await program.referrals.create({ email: 'gus@example.com', referralCode: 'ANN' })
      const before = await snapshot(program)
      expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'waiting', duplicate: true, conversion_id: null })
      expect(await snapshot(program)).toBe(before)
      expect((await program.providerEvents.list()).items.map((event) => [event.reference, event.status])).toEqual([['in_Gus1', 'waiting']])
      await program.close()
    }, 120_000)
  }
})
