// Payouts (docs/ledger.md "Payouts"): oldest-first settlement, credit, limits, events.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError, recordAllEvents, recordedEvents, snapshot } from './helpers.js'

export function payoutCases(context: CaseContext): void {
  describe('payouts', () => {
    it('settles oldest first, stops at the first conversion not fully covered, and keeps the rest as credit', async () => {
      const { program, clock } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'settle@example.com' })
      const ids: number[] = []
      for (const baseValue of [100, 50, 10]) {
        ids.push((await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue })).conversion.id)
        clock.advance({ minutes: 1 })
      }
      // values 30.00, 15.00, 3.00; 40.00 covers the first only: the second (15) does not fit, the third is not reached.
      const payout = await program.payouts.create({ affiliateEmail: 'SETTLE@example.com', amount: 40, method: 'paypal' })
      expect(payout).toMatchObject({
        affiliateId: affiliate.id,
        affiliateEmail: 'settle@example.com',
        amount: '40.00',
        status: 'Paid',
        method: 'paypal',
        conversionsSettled: 1,
        unpaidAfter: '8.00',
      })
      expect(payout.paymentDate).toEqual(clock.now())
      const paid = async () => (await program.conversions.list({ paid: true })).items.map((item) => item.id).sort()
      expect(await paid()).toEqual([ids[0]])
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ paid: '40.00', unpaid: '8.00', credit: '10.00' })
      const next = await program.payouts.create({ affiliateId: affiliate.id, amount: 5, paymentDate: '2025-12-31T00:00:00.000Z' })
      expect(next).toMatchObject({ conversionsSettled: 1, unpaidAfter: '3.00', method: 'manual' })
      expect(next.paymentDate.toISOString()).toBe('2025-12-31T00:00:00.000Z')
      expect(await paid()).toEqual([ids[0], ids[1]].sort())
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ credit: '0.00', unpaid: '3.00' })
    })

    it('never settles held, review, refunded or rejected conversions', async () => {
      const { program, clock } = await context.program({ settings: { holdPeriodDays: 30 } })
      const affiliate = await program.affiliates.create({ email: 'never@example.com' })
      const make = async () => (await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })).conversion.id
      const review = await make()
      const refunded = await make()
      const rejected = await make()
      const eligible = await make()
      await program.conversions.update(review, { status: 'review' })
      await program.conversions.update(refunded, { status: 'refunded' })
      await program.conversions.update(rejected, { status: 'rejected' })
      clock.advance({ days: 31 })
      const held = await make()
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ eligible: '3.00', held: '3.00', unpaid: '6.00' })
      const payout = await program.payouts.create({ affiliateId: affiliate.id, amount: 6 })
      expect(payout.conversionsSettled).toBe(1)
      const paid = (await program.conversions.list({ paid: true })).items.map((item) => item.id)
      expect(paid).toEqual([eligible])
      expect(paid).not.toContain(held)
      // The 3.00 paid ahead of the hold sits in credit and offsets the held amount.
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ held: '0.00', eligible: '0.00', unpaid: '0.00', credit: '3.00' })
      clock.advance({ days: 31 })
      await program.payouts.create({ affiliateId: affiliate.id, amount: 0.01 }).catch(() => undefined)
      expect((await program.affiliates.get(affiliate.id)).earnings.unpaid).toBe('0.00')
    })

    it('refuses amounts above the unpaid balance, zero, negative or with too many decimals, changing nothing', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'limit@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })
      const before = await snapshot(program)
      await expectError(program.payouts.create({ affiliateId: affiliate.id, amount: 3.01 }), 'invalid_request', 'amount')
      await expectError(program.payouts.create({ affiliateId: affiliate.id, amount: 0 }), 'invalid_request', 'amount')
      await expectError(program.payouts.create({ affiliateId: affiliate.id, amount: -1 }), 'invalid_request', 'amount')
      await expectError(program.payouts.create({ affiliateId: affiliate.id, amount: 1.001 }), 'invalid_request', 'amount')
      await expectError(program.payouts.create({ amount: 1 }), 'invalid_request', 'affiliateId')
      await expectError(program.payouts.create({ affiliateId: 123_456, amount: 1 }), 'not_found')
      expect(await snapshot(program)).toBe(before)
      expect(await program.payouts.create({ affiliateId: affiliate.id, amount: 3 })).toMatchObject({ unpaidAfter: '0.00' })
    })

    it('records payout.created with the payout members', async () => {
      const { program, storage } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'pev@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })
      await recordAllEvents(program)
      const payout = await program.payouts.create({ affiliateId: affiliate.id, amount: '3.00', method: 'wise' })
      const events = await recordedEvents(storage, program)
      expect(events).toHaveLength(1)
      expect(events[0]!.body).toMatchObject({
        event: 'payout.created',
        project_id: program.projectId,
        affiliate: { id: String(affiliate.id), email: 'pev@example.com' },
        payout: { id: String(payout.id), amount: '3.00', currency: 'USD', method: 'wise', conversions_settled: 1 },
      })
    })

    it('lists newest first, by affiliate, with the limit clamped to 200', async () => {
      const { program, clock } = await context.program()
      const one = await program.affiliates.create({ email: 'po1@example.com' })
      const two = await program.affiliates.create({ email: 'po2@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: one.id, baseValue: 100 })
      await program.conversions.create({ type: 'purchase', affiliateId: two.id, baseValue: 100 })
      const a = await program.payouts.create({ affiliateId: one.id, amount: 1 })
      clock.advance({ seconds: 1 })
      const b = await program.payouts.create({ affiliateId: two.id, amount: 1 })
      clock.advance({ seconds: 1 })
      const c = await program.payouts.create({ affiliateId: one.id, amount: 1 })
      const list = await program.payouts.list({ limit: 1000 })
      expect(list.limit).toBe(200)
      expect(list.items.map((item) => item.id)).toEqual([c.id, b.id, a.id])
      expect((await program.payouts.list({ affiliateId: one.id })).items.map((item) => item.id)).toEqual([c.id, a.id])
      expect(await program.payouts.get(b.id)).toEqual(b)
    })

    it('lets only one of several racing payouts for the whole balance succeed', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'race@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 })
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => program.payouts.create({ affiliateId: affiliate.id, amount: 30 })))
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ paid: '30.00', unpaid: '0.00' })
    })
  })
}
