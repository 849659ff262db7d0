// When money is due (docs/payouts.md): a month walked through hold, terms and the minimum.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError, recordAllEvents, recordedEvents } from './helpers.js'

const settings = { holdPeriodDays: 14, payouts: { minimumAmount: '50.00', termsDays: 15, schedule: { day: 1 } } }

export function payoutsDueCases(context: CaseContext): void {
  describe('payouts due', () => {
    it('walks a month: commissions clear their hold, terms pass, two affiliates are due and one is below the minimum', async () => {
      const { program, clock } = await context.program({ settings })
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const bob = await program.affiliates.create({ email: 'bob@example.com' })
      const cat = await program.affiliates.create({ email: 'cat@example.com' })
      const buy = async (affiliateId: number, baseValue: number, occurredAt?: string) =>
        (await program.conversions.create({ type: 'purchase', affiliateId, baseValue, ...(occurredAt ? { occurredAt } : {}) })).conversion.id

      clock.set('2026-01-05T10:00:00Z')
      const ann1 = await buy(ann.id, 100) // 30.00, hold ends Jan 19
      clock.set('2026-01-08T10:00:00Z')
      const bob1 = await buy(bob.id, 200) // 60.00, hold ends Jan 22
      clock.set('2026-01-10T10:00:00Z')
      const ann2 = await buy(ann.id, 150) // 45.00, hold ends Jan 24
      clock.set('2026-01-12T10:00:00Z')
      await buy(cat.id, 100) // 30.00: below the minimum of 50.00
      clock.set('2026-01-25T10:00:00Z')
      const bob2 = await buy(bob.id, 100) // 30.00, hold ends Feb 8: payable Mar 16
      // Recorded in February, paid on January 2nd: its hold runs from the payment, so it ends in January.
      clock.set('2026-02-02T10:00:00Z')
      const ann3 = await buy(ann.id, 50, '2026-01-02T09:00:00Z') // 15.00, hold ended Jan 16

      clock.set('2026-02-05T12:00:00Z')
      // Every hold but bob2's has ended; the terms (15 days after the end of January) have not.
      expect((await program.affiliates.get(ann.id)).earnings).toMatchObject({ eligible: '90.00', held: '0.00', unpaid: '90.00' })
      expect((await program.affiliates.get(bob.id)).earnings).toMatchObject({ eligible: '60.00', held: '30.00', unpaid: '90.00' })
      expect(await program.payouts.due()).toEqual([])

      clock.set('2026-02-15T23:59:59Z')
      expect(await program.payouts.due()).toEqual([])

      clock.set('2026-02-16T00:00:00Z')
      expect(await program.payouts.due()).toEqual([
        { affiliateId: ann.id, affiliateEmail: 'ann@example.com', amount: '90.00', currency: 'USD', conversionIds: [ann3, ann1, ann2] },
        { affiliateId: bob.id, affiliateEmail: 'bob@example.com', amount: '60.00', currency: 'USD', conversionIds: [bob1] },
      ])
      expect(await program.payouts.nextPayout(cat.id)).toEqual({
        date: '2026-03-01',
        amount: '30.00',
        currency: 'USD',
        minimumAmount: '50.00',
        reachesMinimum: false,
        belowMinimumBy: '20.00',
        payableNow: '30.00',
        dueNow: false,
      })
      expect(await program.payouts.nextPayout('bob@example.com')).toMatchObject({ date: '2026-03-01', amount: '60.00', reachesMinimum: true, belowMinimumBy: '0.00', dueNow: true })

      await program.affiliates.update(bob.id, { status: 'blocked' })
      expect((await program.payouts.due()).map((entry) => entry.affiliateId)).toEqual([ann.id])
      await program.affiliates.update(bob.id, { status: 'active' })

      // Paying what is due settles exactly the listed conversions.
      const payout = await program.payouts.create({ affiliateId: ann.id, amount: '90.00' })
      expect(payout.conversionsSettled).toBe(3)
      expect((await program.payouts.due()).map((entry) => entry.affiliateId)).toEqual([bob.id])

      // bob2 becomes payable on March 16th, after the March 1st payout day: its next payout is April's.
      clock.set('2026-03-02T00:00:00Z')
      await program.payouts.create({ affiliateId: bob.id, amount: '60.00' })
      expect(await program.payouts.nextPayout(bob.id)).toMatchObject({ date: '2026-04-01', amount: '30.00', reachesMinimum: false, belowMinimumBy: '20.00', payableNow: '0.00' })
      clock.set('2026-03-16T00:00:00Z')
      expect(await program.payouts.due()).toEqual([])
      expect(bob2).toBeGreaterThan(0)
    })

    it('without payout settings, what is past its hold is due at once (no minimum)', async () => {
      const { program, clock } = await context.program({ settings: { holdPeriodDays: 3 } })
      const dee = await program.affiliates.create({ email: 'dee@example.com' })
      const id = (await program.conversions.create({ type: 'purchase', affiliateId: dee.id, baseValue: 10 })).conversion.id
      expect(await program.payouts.due()).toEqual([])
      clock.advance({ days: 3 })
      expect(await program.payouts.due()).toEqual([{ affiliateId: dee.id, affiliateEmail: 'dee@example.com', amount: '3.00', currency: 'USD', conversionIds: [id] }])
      expect(await program.payouts.nextPayout(dee.id)).toBeNull()
    })

    it('counts credit against the payable balance', async () => {
      const { program, clock } = await context.program({ settings: { payouts: { minimumAmount: '5.00' } } })
      clock.set('2026-01-02T00:00:00Z')
      const eve = await program.affiliates.create({ email: 'eve@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: eve.id, baseValue: 100 }) // 30.00, payable from the 1st of next month
      expect(await program.payouts.due()).toEqual([])
      await program.payouts.create({ affiliateId: eve.id, amount: '26.00' }) // held money paid ahead: credit
      expect((await program.payouts.nextPayout(eve.id))!).toMatchObject({ amount: '4.00', reachesMinimum: false, belowMinimumBy: '1.00' })
    })

    it('takes payout requests from affiliates at or above the minimum, answered by the next payout', async () => {
      const { program, clock, storage } = await context.program({ settings: { payouts: { minimumAmount: '20.00', requests: true } } })
      await recordAllEvents(program)
      clock.set('2026-01-10T00:00:00Z')
      const fay = await program.affiliates.create({ email: 'fay@example.com' })
      const gus = await program.affiliates.create({ email: 'gus@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: fay.id, baseValue: 100 }) // 30.00
      await program.conversions.create({ type: 'purchase', affiliateId: gus.id, baseValue: 50 }) // 15.00
      await expectError(program.payouts.request(fay.id), 'invalid_request', 'amount') // not payable before February 1st
      clock.set('2026-02-01T00:00:00Z')
      await expectError(program.payouts.request(gus.id), 'invalid_request', 'amount')
      // Two requests at once (two connections on PostgreSQL): one open request, answered to both.
      const [request, same] = await Promise.all([program.payouts.request('fay@example.com'), program.payouts.request(fay.id)])
      expect(same).toEqual(request)
      expect(request).toMatchObject({ affiliateId: fay.id, affiliateEmail: 'fay@example.com', amount: '30.00', currency: 'USD', status: 'open', payoutId: null })
      expect(await program.payouts.request(fay.id)).toEqual(request)
      expect((await program.payouts.requests({ status: 'open' })).items).toEqual([request])
      const payout = await program.payouts.create({ affiliateId: fay.id, amount: '30.00' })
      const [paid] = (await program.payouts.requests()).items
      expect(paid).toMatchObject({ id: request.id, status: 'paid', payoutId: payout.id })
      expect((await program.payouts.requests({ status: 'open' })).total).toBe(0)
      const events = (await recordedEvents(storage, program)).filter((event) => event.type.startsWith('payout.'))
      expect(events.map((event) => event.type)).toEqual(['payout.requested', 'payout.created', 'payout.paid'])
      expect(events[0]!.body.payout).toEqual({ request_id: String(request.id), amount: '30.00', currency: 'USD' })
      expect(events[2]!.body.payout).toMatchObject({ id: String(payout.id), request_id: String(request.id), amount: '30.00' })
    })

    it('refuses payout requests when the program does not take them', async () => {
      const { program } = await context.program({ settings: { payouts: { minimumAmount: '0' } } })
      const hal = await program.affiliates.create({ email: 'hal@example.com' })
      await expectError(program.payouts.request(hal.id), 'conflict')
      await expectError(program.payouts.requests({ status: 'lost' as 'open' }), 'invalid_request', 'status')
    })
  })
}
