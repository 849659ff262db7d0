// Stripe events through the handler on every adapter: the scenario's balances after each step,
// figured by hand; the same events delivered twice, and shuffled, end in the identical ledger.
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram, TestClock } from '../../src/index.js'
import { balancesOf, ledgerOf, shuffled } from '../providers/ledger.js'
import { deliverStripe, SCENARIO_SETTINGS, scenarioAffiliates, scenarioEvents, scenarioHandler } from '../providers/stripe-scenario.js'
import type { CaseContext } from './harness.js'

const ANN = 'ann@affiliates.example'
const BOB = 'bob@affiliates.example'

export function providerStripeCases(context: CaseContext): void {
  describe('payment provider: stripe', () => {
    async function setup() {
      const made = await context.program({ settings: SCENARIO_SETTINGS })
      await scenarioAffiliates(made.program)
      return { ...made, handler: scenarioHandler(made.program) }
    }

    async function deliverAt(program: AffiliateProgram, clock: TestClock, event: { created: number }) {
      clock.set(new Date(event.created * 1000 + 1000))
      const response = await deliverStripe(scenarioHandler(program), event, clock)
      expect(response.status, await response.clone().text()).toBe(200)
      return (await response.json()) as { status: string; detail: string; duplicate: boolean }
    }

    it('scenario: balances after each step equal the hand-computed figures to the cent', async () => {
      const { program, clock } = await setup()
      const [customer, checkout, trial, carolCheckout, carolInvoice, month1, month2, partialRefund, fullRefund, month3] = scenarioEvents()
      const step = async (event: { created: number }) => deliverAt(program, clock, event)

      await step(customer!)
      await step(checkout!)
      expect(await program.referrals.get('alice@example.com')).toMatchObject({ affiliateEmail: ANN })
      expect(await step(trial!)).toMatchObject({ status: 'ignored', detail: expect.stringContaining('zero amount') })
      expect(await balancesOf(program, ANN)).toEqual({ total: '0.00', paid: '0.00', unpaid: '0.00', credit: '0.00' })

      // 30% of 100.00 - 20.00 discount (tax 8.00 excluded) = 24.00, credited through Bob's coupon.
      await step(carolCheckout!)
      expect(await step(carolInvoice!)).toMatchObject({ status: 'applied' })
      expect(await balancesOf(program, BOB)).toEqual({ total: '24.00', paid: '0.00', unpaid: '24.00', credit: '0.00' })

      // First paid month: purchase rule, 30% of 49.00 = 14.70.
      await step(month1!)
      expect(await balancesOf(program, ANN)).toEqual({ total: '14.70', paid: '0.00', unpaid: '14.70', credit: '0.00' })
      // Second month: recurring rule, 20% of 49.00 = 9.80.
      await step(month2!)
      expect(await balancesOf(program, ANN)).toEqual({ total: '24.50', paid: '0.00', unpaid: '24.50', credit: '0.00' })

      clock.set('2026-02-20T09:00:00Z')
      await program.payouts.create({ affiliateEmail: ANN, amount: '24.50' })
      expect(await balancesOf(program, ANN)).toEqual({ total: '24.50', paid: '24.50', unpaid: '0.00', credit: '0.00' })

      // Half of month 1's charge (26.95 of 53.90) refunded after the payout: base 24.50 of 49.00,
      // commission 14.70 -> 7.35; the 7.35 already paid comes back as credit.
      expect(await step(partialRefund!)).toMatchObject({ status: 'applied' })
      expect(await balancesOf(program, ANN)).toEqual({ total: '17.15', paid: '24.50', unpaid: '-7.35', credit: '7.35' })

      // Carol's invoice refunded in full (an old-API charge naming its invoice): Bob earns nothing.
      expect(await step(fullRefund!)).toMatchObject({ status: 'applied' })
      expect(await balancesOf(program, BOB)).toEqual({ total: '0.00', paid: '0.00', unpaid: '0.00', credit: '0.00' })

      // Third month is two months after the first paid one: the recurring duration has ended.
      expect(await step(month3!)).toMatchObject({ status: 'applied' })
      expect(await balancesOf(program, ANN)).toEqual({ total: '17.15', paid: '24.50', unpaid: '-7.35', credit: '7.35' })
      const third = (await program.conversions.list({ limit: 100 })).items.find((c) => c.reference === 'in_Alice3')
      expect(third).toMatchObject({ basis: 'recurring_expired', value: '0.00' })

      const log = await program.providerEvents.list({ provider: 'stripe', limit: 100 })
      expect(log.total).toBe(10)
      expect(log.items.filter((event) => event.status === 'waiting')).toEqual([])
    })

    it('the same events delivered twice, and shuffled, end in the identical ledger', async () => {
      const events = scenarioEvents()
      const inOrder = await setup()
      for (const event of events) await deliverAt(inOrder.program, inOrder.clock, event)
      const expected = await ledgerOf(inOrder.program)
      expect(expected.conversions.map((c) => [c.reference, c.status, c.value])).toEqual([
        ['in_Alice1', 'active', '7.35'],
        ['in_Alice2', 'active', '9.80'],
        ['in_Alice3', 'active', '0.00'],
        ['in_Carol1', 'refunded', '24.00'],
      ])

      for (const event of events) {
        const again = await deliverAt(inOrder.program, inOrder.clock, event)
        expect(again.duplicate).toBe(true)
      }
      expect(await ledgerOf(inOrder.program)).toEqual(expected)

      for (const seed of [1, 2, 3]) {
        const { program, clock } = await setup()
        clock.set('2026-03-20T00:00:00Z')
        const handler = scenarioHandler(program)
        for (const event of shuffled(events, seed)) expect((await deliverStripe(handler, event, clock)).status).toBe(200)
        expect(await ledgerOf(program), `shuffle seed ${seed}`).toEqual(expected)
        const waiting = await program.providerEvents.list({ status: 'waiting', limit: 100 })
        expect(waiting.total, `shuffle seed ${seed}`).toBe(0)
      }
    })
  })
}
