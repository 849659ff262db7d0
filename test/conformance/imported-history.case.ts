// What an import records besides plain creates: a payout made before over conversions already
// paid, a referred user's earlier first purchase, a provider customer id linked to a referred user.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError } from './helpers.js'

export function importedHistoryCases(context: CaseContext): void {
  describe('imported history', () => {
    it('records a payout made before over paid conversions: balances unchanged, once, refused for unpaid or foreign ones', async () => {
      const { program, clock } = await context.program({ settings: { currency: 'USD', holdPeriodDays: 0 } })
      clock.set('2026-03-01T00:00:00Z')
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const bob = await program.affiliates.create({ email: 'bob@example.com' })
      const sale = (reference: string, affiliateId: number, value: string, paid: boolean) =>
        program.conversions.create({ type: 'purchase', affiliateId, value, baseValue: '100.00', paid, reference, occurredAt: '2026-01-10T00:00:00Z' })
      await sale('old-1', ann.id, '10.00', true)
      await sale('old-2', ann.id, '5.50', true)
      await sale('open', ann.id, '7.00', false)
      await sale('bobs', bob.id, '3.00', true)
      const before = (await program.affiliates.get(ann.id)).earnings

      const first = await program.payouts.recordPaid({ affiliateId: ann.id, references: ['old-1', 'old-2'], paymentDate: '2026-02-01T00:00:00Z', method: 'paypal' })
      expect(first.duplicate).toBe(false)
      expect(first.payout).toMatchObject({ affiliateId: ann.id, amount: '15.50', method: 'paypal', conversionsSettled: 2, paymentDate: new Date('2026-02-01T00:00:00Z') })
      expect((await program.affiliates.get(ann.id)).earnings).toEqual(before)
      const again = await program.payouts.recordPaid({ affiliateId: ann.id, references: ['old-2', 'old-1'], paymentDate: '2026-02-01T00:00:00Z' })
      expect(again).toMatchObject({ duplicate: true, payout: { id: first.payout.id } })

      await expectError(program.payouts.recordPaid({ affiliateId: ann.id, references: ['open'], paymentDate: '2026-02-01T00:00:00Z' }), 'invalid_request', 'references')
      await expectError(program.payouts.recordPaid({ affiliateId: ann.id, references: ['bobs'], paymentDate: '2026-02-01T00:00:00Z' }), 'not_found', 'references')
      await expectError(program.payouts.recordPaid({ affiliateId: ann.id, references: ['old-1', 'missing'], paymentDate: '2026-02-01T00:00:00Z' }), 'not_found', 'references')
      await expectError(program.payouts.recordPaid({ affiliateId: ann.id, references: [], paymentDate: '2026-02-01T00:00:00Z' }), 'invalid_request', 'references')
      expect((await program.payouts.list()).total).toBe(1)
      expect((await program.affiliates.get(ann.id)).earnings).toEqual(before)
    })

    it("a referred user's earlier first purchase: the next purchase is a renewal, within the recurring duration from then", async () => {
      const { program, clock } = await context.program({
        settings: { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 }, recurring: { rate: 10, durationMonths: 2 } } },
      })
      clock.set('2026-03-01T00:00:00Z')
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      await program.referrals.create({ email: 'recent@example.com', affiliateId: ann.id, firstPurchaseAt: '2026-02-01T00:00:00Z' })
      await program.referrals.create({ email: 'early@example.com', affiliateId: ann.id, firstPurchaseAt: '2025-11-01T00:00:00Z' })
      expect(await program.referrals.get('recent@example.com')).toMatchObject({ conversionStatus: 'converted', conversionDate: new Date('2026-02-01T00:00:00Z') })
      await expectError(program.referrals.create({ email: 'later@example.com', affiliateId: ann.id, firstPurchaseAt: '2026-04-01T00:00:00Z' }), 'invalid_request', 'firstPurchaseAt')

      const recent = await program.conversions.create({ type: 'purchase', email: 'recent@example.com', baseValue: '100.00' })
      const early = await program.conversions.create({ type: 'purchase', email: 'early@example.com', baseValue: '100.00' })
      expect(recent.conversion).toMatchObject({ basis: 'recurring', value: '10.00' })
      expect(early.conversion).toMatchObject({ basis: 'recurring_expired', value: '0.00' })
    })

    it("links a provider's customer id to a referred user once: a payment naming only the id credits its affiliate", async () => {
      const { program } = await context.program()
      expect(await program.providerEvents.linkCustomer('stripe', 'cus_A1', 'Ann.Customer@example.com')).toEqual({ created: true, email: 'ann.customer@example.com' })
      expect(await program.providerEvents.linkCustomer('stripe', 'cus_A1', 'other@example.com')).toEqual({ created: false, email: 'ann.customer@example.com' })
      await expectError(program.providerEvents.linkCustomer('nope', 'cus_A1', 'a@example.com'), 'invalid_request', 'provider')
      await expectError(program.providerEvents.linkCustomer('stripe', 'has space', 'a@example.com'), 'invalid_request', 'customerId')
      // Another project does not know it.
      const other = (await context.program()).program
      expect(await other.providerEvents.linkCustomer('stripe', 'cus_A1', 'b@example.com')).toEqual({ created: true, email: 'b@example.com' })
    })
  })
}
