// Conversion changes (docs/ledger.md): refunds, partial refunds, clawback, review, paid flag.
import { describe, expect, it } from 'vitest'
import type { StorageTx } from '../../src/storage.js'
import type { CaseContext } from './harness.js'
import { expectError, recordAllEvents, recordedEvents } from './helpers.js'

export function statusCases(context: CaseContext): void {
  describe('conversion status changes', () => {
    it('refunds: the conversion leaves the totals and referral_canceled fires', async () => {
      const { program, storage } = await context.program()
      await recordAllEvents(program)
      const affiliate = await program.affiliates.create({ email: 'refund@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 50 })
      const refunded = await program.conversions.update(conversion.id, { status: 'refunded', reason: 'requested_by_customer' })
      expect(refunded).toMatchObject({ status: 'refunded', refundedBaseValue: '50.00', refundReason: 'requested_by_customer' })
      expect(await program.affiliates.get(affiliate.id)).toMatchObject({ purchases: 0, earnings: { total: '0.00', unpaid: '0.00' } })
      const events = await recordedEvents(storage, program)
      expect(events.map((event) => event.type)).toEqual(['referral_converted', 'referral_updated', 'referral_canceled', 'referral_updated'])
      expect(events[2]!.body).toMatchObject({
        conversion: { id: String(conversion.id), amount: 50, commission_amount: 15, refund_amount: 50, reason: 'requested_by_customer' },
      })
      await expectError(program.conversions.update(conversion.id, { status: 'active' }), 'conflict', 'status')
    })

    it('partial refunds reduce the commission pro rata and keep the status', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'partial@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 })
      const once = await program.conversions.update(conversion.id, { refundAmount: 25 })
      expect(once).toMatchObject({ status: 'active', value: '22.50', refundedBaseValue: '25.00' })
      await expectError(program.conversions.update(conversion.id, { refundAmount: 80 }), 'invalid_request', 'refundAmount')
      const rest = await program.conversions.update(conversion.id, { refundAmount: '75.00' })
      expect(rest).toMatchObject({ status: 'refunded', refundedBaseValue: '100.00' })
      expect((await program.affiliates.get(affiliate.id)).earnings.total).toBe('0.00')
    })

    it('decide: a change decided from the locked latest state, applied with what it writes, or none', async () => {
      const { program, storage } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'decide@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 })
      const link = { projectId: program.projectId, provider: 'test', kind: 'refund', externalId: 're_1', data: {} }
      // Refunded "so far": 40.00 of the base, whatever was refunded before.
      const soFar = (target: number) => async (latest: { refundedBaseValue: string }, tx: StorageTx) => {
        const refund = target - Number(latest.refundedBaseValue)
        if (refund <= 0) return null
        await tx.providerEvents.saveLinks([link])
        return { refundAmount: refund }
      }
      await program.conversions.update(conversion.id, { refundAmount: 10 })
      expect(await program.conversions.update(conversion.id, {}, { decide: soFar(40) })).toMatchObject({ refundedBaseValue: '40.00', value: '18.00' })
      expect(await storage.providerEvents.getLink(program.projectId, 'test', 'refund', 're_1')).toMatchObject({ externalId: 're_1' })
      // Nothing left to decide: nothing changes.
      expect(await program.conversions.update(conversion.id, {}, { decide: soFar(40) })).toMatchObject({ refundedBaseValue: '40.00', value: '18.00' })
      // A decided change that is refused rolls back what decide wrote.
      const refused = { ...link, externalId: 're_2' }
      const tooMuch = async (_latest: unknown, tx: StorageTx) => {
        await tx.providerEvents.saveLinks([refused])
        return { refundAmount: 500 }
      }
      await expectError(program.conversions.update(conversion.id, {}, { decide: tooMuch }), 'invalid_request', 'refundAmount')
      expect(await storage.providerEvents.getLink(program.projectId, 'test', 'refund', 're_2')).toBeNull()
      expect((await program.affiliates.get(affiliate.id)).earnings.total).toBe('18.00')
    })

    it('claws back a refunded paid conversion: unpaid goes below zero', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'claw@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 })
      await program.payouts.create({ affiliateId: affiliate.id, amount: 30 })
      expect((await program.conversions.get(conversion.id)).paid).toBe(true)
      await program.conversions.update(conversion.id, { status: 'refunded' })
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ total: '0.00', paid: '30.00', unpaid: '-30.00', credit: '30.00' })
      await expectError(program.payouts.create({ affiliateId: affiliate.id, amount: 1 }), 'invalid_request', 'amount')
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 200 })
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ total: '60.00', unpaid: '30.00' })
      const payout = await program.payouts.create({ affiliateId: affiliate.id, amount: 30 })
      expect(payout).toMatchObject({ conversionsSettled: 1, unpaidAfter: '0.00' })
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ unpaid: '0.00', credit: '0.00', paid: '60.00' })
    })

    it('review earns nothing; approving returns to pending inside the hold; rejected is final', async () => {
      const { program, clock } = await context.program({ settings: { holdPeriodDays: 10 } })
      const affiliate = await program.affiliates.create({ email: 'review@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })
      expect(await program.conversions.update(conversion.id, { status: 'review' })).toMatchObject({ status: 'review' })
      expect((await program.affiliates.get(affiliate.id)).earnings.total).toBe('0.00')
      expect(await program.conversions.update(conversion.id, { status: 'active' })).toMatchObject({ status: 'pending' })
      clock.advance({ days: 10 })
      expect(await program.conversions.get(conversion.id)).toMatchObject({ status: 'active' })
      expect(await program.conversions.update(conversion.id, { status: 'rejected' })).toMatchObject({ status: 'rejected' })
      await expectError(program.conversions.update(conversion.id, { status: 'active' }), 'conflict')
      await expectError(program.conversions.update(conversion.id, { paid: true }), 'conflict')
    })

    it('marks paid by hand and back; unmarking a payout-settled conversion returns its money to credit', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'paid@example.com' })
      const first = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })
      const second = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 20 })
      expect(await program.conversions.update(first.conversion.id, { paid: true })).toMatchObject({ paid: true, paidByPayoutId: null })
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ paid: '3.00', unpaid: '6.00' })
      await program.conversions.update(first.conversion.id, { paid: false })
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ paid: '0.00', unpaid: '9.00', credit: '0.00' })

      await program.payouts.create({ affiliateId: affiliate.id, amount: 9 })
      await program.conversions.update(second.conversion.id, { paid: false })
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ paid: '9.00', unpaid: '0.00', credit: '6.00' })
    })

    it('refuses to change the value of a paid conversion, and allows it when unpaid', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'value@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10, paid: true })
      await expectError(program.conversions.update(conversion.id, { value: 5 }), 'conflict', 'value')
      const changed = await program.conversions.update(conversion.id, { value: 5, paid: false })
      expect(changed).toMatchObject({ value: '5.00', paid: false })
      expect((await program.affiliates.get(affiliate.id)).earnings).toMatchObject({ total: '5.00', unpaid: '5.00' })
    })

    it('carries status changes and refunds over to the multi-tier parent share', async () => {
      const { program } = await context.program({ settings: { multiTier: { enabled: true, tier2Rate: 10 } } })
      const parent = await program.affiliates.create({ email: 'tier-parent@example.com' })
      const child = await program.affiliates.create({ email: 'tier-child@example.com', parentAffiliateId: parent.id })
      const { conversion, tier2 } = await program.conversions.create({ type: 'purchase', affiliateId: child.id, baseValue: 100 })
      expect(tier2).toMatchObject({ value: '3.00', parentConversionId: conversion.id })
      await program.conversions.update(conversion.id, { refundAmount: 50 })
      expect(await program.conversions.get(tier2!.id)).toMatchObject({ value: '1.50', refundedBaseValue: '50.00', status: 'active' })
      await program.conversions.update(conversion.id, { status: 'review' })
      expect((await program.affiliates.get(parent.id)).earnings.total).toBe('0.00')
      await program.conversions.update(conversion.id, { status: 'active' })
      expect((await program.affiliates.get(parent.id)).earnings.total).toBe('1.50')
      await program.conversions.update(conversion.id, { status: 'refunded', reason: 'chargeback' })
      expect(await program.conversions.get(tier2!.id)).toMatchObject({ status: 'refunded', refundReason: 'chargeback' })
      expect(await program.affiliates.get(parent.id)).toMatchObject({ purchases: 0, earnings: { total: '0.00', unpaid: '0.00' } })
      expect(await program.affiliates.get(child.id)).toMatchObject({ earnings: { total: '0.00' } })
    })

    it('updates plain fields and changes the purchases count with the type', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'fields@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })
      const updated = await program.conversions.update(conversion.id, { type: 'signup', couponCodeUsed: 'X1', baseValue: 12, baseValueCurrency: 'USD' })
      expect(updated).toMatchObject({ type: 'signup', couponCodeUsed: 'X1', baseValue: '12.00', value: '3.00' })
      expect((await program.affiliates.get(affiliate.id)).purchases).toBe(0)
      await expectError(program.conversions.update(424_242, { paid: true }), 'not_found')
    })
  })
}
