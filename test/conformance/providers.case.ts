// Every payment provider's scenario through its handler on every adapter: the affiliates'
// balances after each step equal figures computed by hand; the same events delivered twice, and
// shuffled, end in the identical ledger. And an event a request left half-done is applied again.
import { describe, expect, it } from 'vitest'
import { createAffiliateProgram, type AffiliateProgram, type StoragePort, type TestClock } from '../../src/index.js'
import { CHECKOUT_PROVIDERS, checkoutEvents } from '../support/providers/checkouts.js'
import { balancesOf, eventStatusesOf, ledgerOf, shuffled } from '../support/providers/ledger.js'
import { lemonSqueezyScenario } from '../support/providers/lemon-squeezy-scenario.js'
import { paddleScenario } from '../support/providers/paddle-scenario.js'
import { allEvents, SCENARIO_SETTINGS, scenarioAffiliates, scenarioSettings, type ProviderScenario } from '../support/providers/scenario.js'
import { polarScenario } from '../support/providers/polar-scenario.js'
import { braintreeScenario } from '../support/providers/braintree-scenario.js'
import { chargebeeScenario } from '../support/providers/chargebee-scenario.js'
import { recurlyScenario } from '../support/providers/recurly-scenario.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { customerCreated, legacyChargeRefunded, legacyInvoicePaid } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET, stripeScenario } from '../support/providers/stripe-scenario.js'
import type { CaseContext } from './harness.js'

const ANN = 'ann@affiliates.example'
const BOB = 'bob@affiliates.example'
const zero = { total: '0.00', paid: '0.00', unpaid: '0.00', credit: '0.00' }
const PROVIDER_SCENARIOS = [stripeScenario, paddleScenario, lemonSqueezyScenario, polarScenario, braintreeScenario, chargebeeScenario, recurlyScenario]

export function providerCases(context: CaseContext): void {
  for (const scenario of PROVIDER_SCENARIOS) scenarioCases(context, scenario)
  halfDoneCases(context)
  atOnceCases(context)
}

/**
 * Providers deliver a checkout's events within the same second, often twice: the customer, the
 * first payment and the renewal, all at once, end in the ledger of in-order delivery (the renewal
 * at the recurring rate, measured from the first payment).
 */
function atOnceCases(context: CaseContext): void {
  describe("payment providers: a checkout's events twice, all at once", () => {
    for (const provider of CHECKOUT_PROVIDERS) {
      it(`${provider.name}: 4 checkouts end in the ledger of in-order delivery`, async () => {
        const events = checkoutEvents(provider, 4, new Date('2026-04-01T00:00:00Z'))
        const delivered = async () => {
          const { program, clock, storage } = await context.program({ settings: SCENARIO_SETTINGS })
          await program.affiliates.create({ email: ANN, referralCode: 'ANN' })
          clock.set('2026-06-01T00:00:00Z')
          return { program, deliver: (event: unknown) => provider.deliver(provider.handler(program, storage), event, clock) }
        }
        const inOrder = await delivered()
        for (const event of events) expect((await inOrder.deliver(event)).status).toBe(200)
        const expected = { ...(await ledgerOf(inOrder.program)), events: await eventStatusesOf(inOrder.program) }
        expect(expected.conversions.map((c) => c.basis).sort()).toEqual([...Array(4).fill('purchase'), ...Array(4).fill('recurring')])

        const atOnce = await delivered()
        const answers = await Promise.all([...events, ...events].map((event) => atOnce.deliver(event)))
        // 409: another request was still applying that event; the provider delivers it again later.
        expect(answers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 409)).toEqual([])
        expect({ ...(await ledgerOf(atOnce.program)), events: await eventStatusesOf(atOnce.program) }).toEqual(expected)
      }, 60_000)
    }
  })
}

function halfDoneCases(context: CaseContext): void {
  describe('payment provider: an event left half-done', () => {
    it('a waiting event a request took and never saved is applied by the sweep after a later event, once a minute has passed', async () => {
      const { program, clock, storage } = await context.program({ settings: SCENARIO_SETTINGS })
      await scenarioAffiliates(program, 'BOB20')
      await program.referrals.create({ email: 'hal@example.com', referralCode: 'ANN' })
      const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
      const deliver = async (event: unknown) => (await deliverStripe(handler, event, clock)).json()
      const hal = { customer: 'cus_Hal', email: 'hal@example.com' }
      clock.set('2026-01-31T12:00:00Z')

      // The refund comes before its payment and waits. A request takes it (as one waking it
      // does) and dies before saving what it did: it stays `processing`.
      const refund = legacyChargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_Hal1', ...hal, paymentIntent: 'pi_Hal1', invoice: 'in_Hal1', amount: 5000, refundedSoFar: 5000 })
      expect(await deliver(refund)).toMatchObject({ status: 'waiting' })
      const [waiting] = (await program.providerEvents.list({ status: 'waiting' })).items
      expect(await storage.providerEvents.claim(program.projectId, waiting!.id, { status: 'waiting' }, clock.now())).toBe(true)
      // The payment arrives: the refund is not waiting any more, so the payment does not wake it.
      expect(await deliver(legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Hal1', ...hal, subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Hal1', charge: 'ch_Hal1' }))).toMatchObject({ status: 'applied' })
      const refundStatus = async () => (await program.providerEvents.get(waiting!.id)).status
      const conversionStatus = async () => (await program.conversions.list()).items.map((c) => c.status)
      expect([await refundStatus(), await conversionStatus()]).toEqual(['processing', ['active']])

      // 59 seconds on, the refund may still be in the works: a later event leaves it alone.
      clock.advance({ seconds: 59 })
      expect(await deliver(customerCreated({ at: '2026-01-31T12:00:59Z', customer: 'cus_Ivy', email: 'ivy@example.com' }))).toMatchObject({ status: 'applied' })
      expect([await refundStatus(), await conversionStatus()]).toEqual(['processing', ['active']])
      // Past the minute, the next event's sweep applies it from what was stored.
      clock.advance({ seconds: 2 })
      expect(await deliver(customerCreated({ at: '2026-01-31T12:01:01Z', customer: 'cus_Jo', email: 'jo@example.com' }))).toMatchObject({ status: 'applied' })
      expect([await refundStatus(), await conversionStatus()]).toEqual(['applied', ['refunded']])
      expect(await program.providerEvents.get(waiting!.id)).toMatchObject({ detail: expect.stringContaining('refund of in_Hal1') })
    })

    /** Refunds of payments not seen yet: each waits; `stale` of them are then left `processing` by a request that died two minutes ago. */
    async function staleRefunds(count: number) {
      const made = await context.program({ settings: SCENARIO_SETTINGS })
      const { program, clock, storage } = made
      clock.set('2026-01-31T12:00:00Z')
      const deliver = async (event: unknown) => (await deliverStripe(stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET }), event, clock)).json()
      for (let n = 1; n <= count; n += 1) {
        const refund = legacyChargeRefunded({ at: '2026-01-31T11:00:00Z', id: `ch_Stale${n}`, customer: `cus_Stale${n}`, paymentIntent: `pi_Stale${n}`, invoice: `in_Stale${n}`, amount: 500, refundedSoFar: 500 })
        expect(await deliver(refund)).toMatchObject({ status: 'waiting' })
      }
      const leaveProcessing = async () => {
        const twoMinutesAgo = new Date(clock.now().getTime() - 120_000)
        for (const event of (await program.providerEvents.list({ status: 'waiting', limit: 100 })).items) {
          expect(await storage.providerEvents.claim(program.projectId, event.id, { status: 'waiting' }, twoMinutesAgo)).toBe(true)
        }
      }
      const processing = async () => (await program.providerEvents.list({ status: 'processing', limit: 1 })).total
      return { ...made, deliver, leaveProcessing, processing }
    }

    it('handlers built per request sweep at most once a minute between them, as one long-lived handler does', async () => {
      const { clock, deliver, leaveProcessing, processing } = await staleRefunds(1)
      // The refund's own delivery swept (the first event of the minute). Then a request dies with it.
      await leaveProcessing()
      clock.advance({ seconds: 1 })
      expect(await deliver(customerCreated({ at: '2026-01-31T12:00:01Z', customer: 'cus_Ivy', email: 'ivy@example.com' }))).toMatchObject({ status: 'applied' })
      expect(await processing()).toBe(1)
      clock.advance({ seconds: 60 })
      expect(await deliver(customerCreated({ at: '2026-01-31T12:01:01Z', customer: 'cus_Jo', email: 'jo@example.com' }))).toMatchObject({ status: 'applied' })
      expect(await processing()).toBe(0)
    })

    it('one sweep applies every event left processing, past its first page of 100', async () => {
      const { program, clock, deliver, leaveProcessing, processing } = await staleRefunds(150)
      await leaveProcessing()
      await leaveProcessing()
      expect(await processing()).toBe(150)
      clock.advance({ seconds: 61 })
      expect(await deliver(customerCreated({ at: '2026-01-31T12:01:01Z', customer: 'cus_Ivy', email: 'ivy@example.com' }))).toMatchObject({ status: 'applied' })
      // Applied again, each refund waits for its payment once more.
      expect(await processing()).toBe(0)
      expect((await program.providerEvents.list({ status: 'waiting', limit: 1 })).total).toBe(150)
    }, 60_000)

    it('one sweep reaches every event left processing when other requests finish a page of them first', async () => {
      const { program, clock, storage, leaveProcessing, processing } = await staleRefunds(150)
      await leaveProcessing()
      await leaveProcessing()
      // Another request finishes each of the first 100 just before this sweep claims it.
      let finishedElsewhere = 0
      const providerEvents: StoragePort['providerEvents'] = {
        ...storage.providerEvents,
        claim: async (projectId, id, condition, now) => {
          if (finishedElsewhere >= 100) return storage.providerEvents.claim(projectId, id, condition, now)
          finishedElsewhere += 1
          await storage.providerEvents.update(projectId, id, { status: 'ignored', detail: 'finished by another request' })
          return false
        },
      }
      const racing = new Proxy(storage, { get: (target, property, receiver) => (property === 'providerEvents' ? providerEvents : (Reflect.get(target, property, receiver) as unknown)) })
      clock.advance({ seconds: 61 })
      const trigger = customerCreated({ at: '2026-01-31T12:01:01Z', customer: 'cus_Ivy', email: 'ivy@example.com' })
      // The program of a request running on that storage (the handler writes only through its program).
      const onRacing = await createAffiliateProgram({ storage: racing, clock, project: program.projectId })
      expect(await (await deliverStripe(stripeHandler({ program: onRacing, webhookSecret: STRIPE_SECRET }), trigger, clock)).json()).toMatchObject({ status: 'applied' })
      expect(finishedElsewhere).toBe(100)
      expect(await processing()).toBe(0)
    }, 60_000)
  })
}

function scenarioCases(context: CaseContext, scenario: ProviderScenario): void {
  describe(`payment provider: ${scenario.name}`, () => {
    async function setup() {
      const made = await context.program({ settings: scenarioSettings(scenario) })
      await scenarioAffiliates(made.program, scenario.bobCoupon)
      return made
    }

    /** Delivers as the provider did: each event just after it was sent. */
    async function deliverInOrder(program: AffiliateProgram, storage: StoragePort, clock: TestClock, events: unknown[]) {
      for (const event of events) {
        clock.set(new Date(scenario.sentAt(event).getTime() + 1000))
        const response = await scenario.deliver(scenario.handler(program, storage), event, clock)
        expect(response.status, await response.clone().text()).toBe(200)
      }
    }

    it('scenario: balances after each step equal the hand-computed figures to the cent', async () => {
      const { program, clock, storage } = await setup()
      const { steps } = scenario
      const step = (events: unknown[]) => deliverInOrder(program, storage, clock, events)

      // 30% of (100.00 - 20.00 discount), tax 8.00 excluded = 24.00, credited through Bob's coupon.
      await step(steps.carol)
      expect(await balancesOf(program, BOB)).toEqual({ total: '24.00', paid: '0.00', unpaid: '24.00', credit: '0.00' })

      await step(steps.aliceSignup)
      expect(await balancesOf(program, ANN)).toEqual(zero)

      // First paid month: purchase rule, 30% of 49.00 = 14.70.
      await step(steps.month1)
      expect(await program.referrals.get('alice@example.com')).toMatchObject({ affiliateEmail: ANN })
      expect(await balancesOf(program, ANN)).toEqual({ total: '14.70', paid: '0.00', unpaid: '14.70', credit: '0.00' })
      // Second month: recurring rule, 20% of 49.00 = 9.80.
      await step(steps.month2)
      expect(await balancesOf(program, ANN)).toEqual({ total: '24.50', paid: '0.00', unpaid: '24.50', credit: '0.00' })
      // Alice's purchase of the excluded product earns nothing (recorded, basis excluded).
      await step(steps.excluded ?? [])
      expect(await balancesOf(program, ANN)).toEqual({ total: '24.50', paid: '0.00', unpaid: '24.50', credit: '0.00' })

      clock.set('2026-02-20T09:00:00Z')
      await program.payouts.create({ affiliateEmail: ANN, amount: '24.50' })
      expect(await balancesOf(program, ANN)).toEqual({ total: '24.50', paid: '24.50', unpaid: '0.00', credit: '0.00' })

      // Half of month 1 (26.95 of 53.90, or 24.50 of 49.00 before tax) refunded after the payout:
      // commission 14.70 -> 7.35; the 7.35 already paid comes back as credit.
      await step(steps.partialRefund)
      expect(await balancesOf(program, ANN)).toEqual({ total: '17.15', paid: '24.50', unpaid: '-7.35', credit: '7.35' })

      // Carol's payment refunded in full: Bob earns nothing.
      await step(steps.fullRefund)
      expect(await balancesOf(program, BOB)).toEqual(zero)

      // The third month is two months after the first paid one: the recurring duration has ended.
      await step(steps.month3)
      expect(await balancesOf(program, ANN)).toEqual({ total: '17.15', paid: '24.50', unpaid: '-7.35', credit: '7.35' })
      // The cancellation is recorded; nothing earned changes.
      await step(steps.cancel ?? [])
      expect(await balancesOf(program, ANN)).toEqual({ total: '17.15', paid: '24.50', unpaid: '-7.35', credit: '7.35' })
      const conversions = (await program.conversions.list({ limit: 100 })).items.reverse()
      expect(conversions.map((c) => [c.customerEmail, c.basis, c.status, c.value])).toEqual([
        ['carol@example.com', 'purchase', 'refunded', '24.00'],
        ['alice@example.com', 'purchase', 'active', '7.35'],
        ['alice@example.com', 'recurring', 'active', '9.80'],
        ...(steps.excluded ? [['alice@example.com', 'excluded', 'active', '0.00']] : []),
        ['alice@example.com', 'recurring_expired', 'active', '0.00'],
      ])
      const log = await program.providerEvents.list({ provider: scenario.name, limit: 100 })
      expect(log.total).toBe(allEvents(scenario).length)
      expect(log.items.filter((event) => event.status === 'waiting' || event.status === 'processing')).toEqual([])
    })

    it('the same events delivered twice, and shuffled, end in the identical ledger', async () => {
      const events = allEvents(scenario)
      const inOrder = await setup()
      await deliverInOrder(inOrder.program, inOrder.storage, inOrder.clock, events)
      const expected = await ledgerOf(inOrder.program)
      expect(expected.conversions).toHaveLength(scenario.steps.excluded ? 5 : 4)

      for (const event of events) {
        const again = await scenario.deliver(scenario.handler(inOrder.program, inOrder.storage), event, inOrder.clock)
        expect(await again.json()).toMatchObject({ duplicate: true })
      }
      expect(await ledgerOf(inOrder.program)).toEqual(expected)

      for (const seed of [1, 2, 3]) {
        const { program, clock, storage } = await setup()
        clock.set('2026-03-20T00:00:00Z')
        const handler = scenario.handler(program, storage)
        for (const event of shuffled(events, seed)) expect((await scenario.deliver(handler, event, clock)).status).toBe(200)
        expect(await ledgerOf(program), `shuffle seed ${seed}`).toEqual(expected)
        const waiting = await program.providerEvents.list({ status: 'waiting', limit: 100 })
        expect(waiting.items.map((event) => event.detail), `shuffle seed ${seed}`).toEqual([])
      }
    })
  })
}
