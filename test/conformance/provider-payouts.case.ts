// Payouts sent through a provider (docs/payouts.md "Automatic payouts"): processing holds the
// amount, success settles oldest first, failure releases it; repeated reports change nothing.
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram } from '../../src/index.js'
import type { CaseContext } from './harness.js'
import { expectError, recordAllEvents, recordedEvents } from './helpers.js'

/** The balances, with the identities of docs/ledger.md "Balances" checked on the way. */
async function balances(program: AffiliateProgram, id: number) {
  const { earnings } = await program.affiliates.get(id)
  const cents = (value: string | null | undefined) => Math.round(Number(value ?? 0) * 100)
  expect(cents(earnings.total) - cents(earnings.paid)).toBe(cents(earnings.unpaid))
  expect(cents(earnings.eligible) + cents(earnings.held)).toBe(cents(earnings.unpaid))
  return { total: earnings.total, paid: earnings.paid, unpaid: earnings.unpaid, eligible: earnings.eligible, held: earnings.held, credit: earnings.credit }
}

export function providerPayoutCases(context: CaseContext): void {
  describe('provider payouts', () => {
    async function threeConversions() {
      const { program, clock, storage } = await context.program({ settings: { holdPeriodDays: 30, payouts: { automatic: { paypal: true, stripe: true } } } })
      const affiliate = await program.affiliates.create({ email: 'auto@example.com' })
      for (const baseValue of [100, 50, 10]) {
        await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue })
        clock.advance({ minutes: 1 })
      }
      clock.advance({ days: 31 })
      // One still held: 33.33 (30% of 111.10).
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 111.1 })
      return { program, clock, storage, affiliate }
    }

    it('processing holds the amount, and success settles the conversions oldest first', async () => {
      const { program, affiliate, storage } = await threeConversions()
      await recordAllEvents(program)
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '0.00', unpaid: '81.33', eligible: '48.00', held: '33.33', credit: '0.00' })
      const sent = await program.providerPayouts.start({ affiliate: 'auto@example.com', amount: '45.00', provider: 'paypal' })
      expect(sent).toMatchObject({ state: 'processing', provider: 'paypal', payout: { status: 'processing', amount: 4500n, unpaidAfter: 3633n } })
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '45.00', unpaid: '36.33', eligible: '3.00', held: '33.33', credit: '45.00' })
      expect(await program.payouts.get(sent.payoutId)).toMatchObject({ status: 'Processing', amount: '45.00', conversionsSettled: 0 })
      // Not payable again while it is with the provider.
      await expectError(program.payouts.create({ affiliateId: affiliate.id, amount: 1 }), 'conflict', 'affiliateId')
      await expectError(program.providerPayouts.start({ affiliate: affiliate.id, amount: '1.00', provider: 'stripe' }), 'conflict', 'affiliateId')
      expect((await program.conversions.list({ paid: true })).items).toEqual([])
      expect((await recordedEvents(storage, program)).map((event) => event.type)).toEqual([])

      const paid = await program.providerPayouts.settle(sent.payoutId, { itemStatus: 'SUCCESS' })
      expect(paid).toMatchObject({ state: 'paid', itemStatus: 'SUCCESS', payout: { status: 'paid', conversionsSettled: 2 } })
      expect(await program.payouts.get(sent.payoutId)).toMatchObject({ status: 'Paid', conversionsSettled: 2 })
      expect((await program.conversions.list({ paid: true })).items.map((item) => item.value).sort()).toEqual(['15.00', '30.00'])
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '45.00', unpaid: '36.33', eligible: '3.00', held: '33.33', credit: '0.00' })
      // A repeated report (a retried run, a replayed webhook) changes nothing.
      expect(await program.providerPayouts.settle(sent.payoutId, { itemStatus: 'SUCCESS' })).toMatchObject({ state: 'paid' })
      expect(await program.providerPayouts.release(sent.payoutId, { itemStatus: 'RETURNED' })).toMatchObject({ state: 'paid', itemStatus: 'SUCCESS' })
      expect(await balances(program, affiliate.id)).toMatchObject({ paid: '45.00', unpaid: '36.33', credit: '0.00' })
      const events = await recordedEvents(storage, program)
      expect(events.map((event) => [event.type, (event.body.payout as { conversions_settled: number }).conversions_settled])).toEqual([['payout.created', 2]])
      expect(await program.providerPayouts.listProcessing()).toEqual([])
      // The next payout is allowed again.
      expect(await program.payouts.create({ affiliateId: affiliate.id, amount: 3 })).toMatchObject({ conversionsSettled: 1, unpaidAfter: '33.33' })
    })

    it('failure releases the amount back to the balance, to the cent, and settles nothing', async () => {
      const { program, affiliate } = await threeConversions()
      const sent = await program.providerPayouts.start({ affiliate: affiliate.id, amount: '81.33', provider: 'stripe' })
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '81.33', unpaid: '0.00', eligible: '0.00', held: '0.00', credit: '81.33' })
      await expectError(program.providerPayouts.start({ affiliate: affiliate.id, amount: '0.01', provider: 'paypal' }), 'conflict')
      await program.providerPayouts.note(sent.payoutId, { itemStatus: 'UNCLAIMED', reference: 'BATCH1' })
      expect(await program.providerPayouts.get(sent.payoutId)).toMatchObject({ state: 'processing', itemStatus: 'UNCLAIMED', reference: 'BATCH1' })

      const failed = await program.providerPayouts.release(sent.payoutId, { itemStatus: 'RETURNED', reply: 'unclaimed for 30 days' })
      expect(failed).toMatchObject({ state: 'failed', itemStatus: 'RETURNED', reference: 'BATCH1', reply: 'unclaimed for 30 days', payout: { status: 'failed' } })
      expect(await program.payouts.get(sent.payoutId)).toMatchObject({ status: 'Failed', conversionsSettled: 0 })
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '0.00', unpaid: '81.33', eligible: '48.00', held: '33.33', credit: '0.00' })
      expect(await program.providerPayouts.settle(sent.payoutId, { itemStatus: 'SUCCESS' })).toMatchObject({ state: 'failed' })
      await program.providerPayouts.release(sent.payoutId)
      expect(await balances(program, affiliate.id)).toMatchObject({ unpaid: '81.33', credit: '0.00' })
      expect((await program.conversions.list({ paid: true })).items).toEqual([])
      // The released money is payable again, in full.
      expect(await program.payouts.create({ affiliateId: affiliate.id, amount: 81.33 })).toMatchObject({ conversionsSettled: 3, unpaidAfter: '0.00' })
    })

    it('a paid payout reversed (a Stripe transfer taken back) is failed: what it settled is unpaid again, its credit taken back, as of then too', async () => {
      const { program, clock, affiliate, storage } = await threeConversions()
      // 40.00 settles the 30.00 conversion and leaves 10.00 as credit.
      const sent = await program.providerPayouts.start({ affiliate: affiliate.id, amount: '40.00', provider: 'stripe', destination: 'acct_Auto' })
      await program.providerPayouts.settle(sent.payoutId, { itemStatus: 'created', reference: 'tr_1' })
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '40.00', unpaid: '41.33', eligible: '8.00', held: '33.33', credit: '10.00' })
      await recordAllEvents(program)
      clock.advance({ hours: 1 })
      const paidAt = new Date(clock.now().getTime() - 1000)

      const reversed = await program.providerPayouts.reverse(sent.payoutId, { itemStatus: 'reversed', reply: 'the transfer was reversed' })
      expect(reversed).toMatchObject({ state: 'failed', itemStatus: 'reversed', reference: 'tr_1', payout: { status: 'failed' } })
      expect((await program.conversions.list({ paid: true })).items).toEqual([])
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '0.00', unpaid: '81.33', eligible: '48.00', held: '33.33', credit: '0.00' })
      const events = await recordedEvents(storage, program)
      expect(events.map((event) => [event.type, event.body.payout])).toEqual([
        ['payout.failed', { id: String(sent.payoutId), amount: '40.00', currency: 'USD', method: 'bank', provider: 'stripe', provider_status: 'reversed', reason: 'the transfer was reversed' }],
      ])
      // Again, or released or settled after: nothing changes.
      await program.providerPayouts.reverse(sent.payoutId)
      await program.providerPayouts.settle(sent.payoutId)
      expect(await balances(program, affiliate.id)).toMatchObject({ paid: '0.00', unpaid: '81.33', credit: '0.00' })
      expect(await recordedEvents(storage, program)).toEqual([])
      // As of before the reversal the payout stood paid; the period's movements explain the change.
      expect((await program.ledger.affiliate(affiliate.id, paidAt)).earnings).toMatchObject({ paid: '40.00', credit: '10.00' })
      const movements = await program.ledger.movements({ from: paidAt.toISOString(), to: clock.now().toISOString() })
      expect(movements.map((movement) => [movement.type, movement.amount])).toEqual([
        ['unpaid_outside', '30.00'],
        ['payout', '10.00'],
      ])
      // The money is payable again, once.
      expect(await program.payouts.create({ affiliateId: affiliate.id, amount: 48 })).toMatchObject({ conversionsSettled: 3, unpaidAfter: '33.33' })
    })

    it('a reversal whose credit a later payout spent unpays what that credit settled: paid falls by the amount, credit stays >= 0', async () => {
      const { program, affiliate } = await threeConversions()
      // 40.00 settles the 30.00 conversion and leaves 10.00 credit; a manual 8.00 then spends it on the 15.00 and 3.00 ones.
      const sent = await program.providerPayouts.start({ affiliate: affiliate.id, amount: '40.00', provider: 'stripe', destination: 'acct_Auto' })
      await program.providerPayouts.settle(sent.payoutId, { itemStatus: 'created', reference: 'tr_1' })
      expect(await program.payouts.create({ affiliateId: affiliate.id, amount: 8 })).toMatchObject({ conversionsSettled: 2, unpaidAfter: '33.33' })
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '48.00', unpaid: '33.33', eligible: '0.00', held: '33.33', credit: '0.00' })

      await program.providerPayouts.reverse(sent.payoutId, { itemStatus: 'reversed' })
      // Only the manual 8.00 reached the affiliate: both conversions are unpaid again and 8.00 is credit.
      expect((await program.conversions.list({ paid: true })).items).toEqual([])
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '8.00', unpaid: '73.33', eligible: '40.00', held: '33.33', credit: '8.00' })
    })

    it('reversing a payout still processing releases it', async () => {
      const { program, affiliate } = await threeConversions()
      const sent = await program.providerPayouts.start({ affiliate: affiliate.id, amount: '45.00', provider: 'stripe', destination: 'acct_Auto' })
      expect(await program.providerPayouts.reverse(sent.payoutId, { itemStatus: 'reversed' })).toMatchObject({ state: 'failed', payout: { status: 'failed' } })
      expect(await balances(program, affiliate.id)).toMatchObject({ paid: '0.00', unpaid: '81.33', credit: '0.00' })
    })

    it('is off unless the program turns the provider on', async () => {
      const { program } = await context.program({ settings: { payouts: { automatic: { paypal: true } } } })
      const affiliate = await program.affiliates.create({ email: 'off@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 })
      await expectError(program.providerPayouts.start({ affiliate: affiliate.id, amount: '1.00', provider: 'stripe' }), 'conflict', 'provider')
      expect(await program.providerPayouts.listProcessing()).toEqual([])
      expect(await balances(program, affiliate.id)).toMatchObject({ unpaid: '30.00', credit: '0.00' })
    })

    it('refuses more than the unpaid balance and changes nothing', async () => {
      const { program, affiliate } = await threeConversions()
      await expectError(program.providerPayouts.start({ affiliate: affiliate.id, amount: '81.34', provider: 'paypal' }), 'invalid_request', 'amount')
      await expectError(program.providerPayouts.start({ affiliate: affiliate.id, amount: '-1', provider: 'paypal' }), 'invalid_request', 'amount')
      expect(await program.providerPayouts.listProcessing()).toEqual([])
      expect(await balances(program, affiliate.id)).toMatchObject({ unpaid: '81.33', credit: '0.00' })
    })

    it('a payout run holds the payable balance once per affiliate and period, even when several start at once (docs/payouts.md "Payout runs")', async () => {
      const { program, affiliate } = await threeConversions()
      const starts = await Promise.all(Array.from({ length: 4 }, () => program.providerPayouts.startRun({ affiliateId: affiliate.id, provider: 'stripe', destination: 'acct_1', period: '2026-02' })))
      const made = starts.filter((start) => 'sent' in start && start.created)
      expect(made).toHaveLength(1)
      const sent = (made[0] as { sent: { payoutId: number } }).sent
      for (const start of starts) expect(start).toMatchObject({ sent: { payoutId: sent.payoutId, runPeriod: '2026-02', destination: 'acct_1', payout: { amount: 4800n } } })
      // All of the payable 48.00 is held; the held 33.33 is not.
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '48.00', unpaid: '33.33', eligible: '0.00', held: '33.33', credit: '48.00' })
      expect((await program.providerPayouts.listRun('2026-02')).map((row) => row.payoutId)).toEqual([sent.payoutId])
      await program.providerPayouts.settle(sent.payoutId, { itemStatus: 'created' })
      // Settled, the period still has its payout: a later start of the same period finds it.
      expect(await program.providerPayouts.startRun({ affiliateId: affiliate.id, provider: 'stripe', destination: 'acct_1', period: '2026-02' })).toMatchObject({ created: false, sent: { payoutId: sent.payoutId, state: 'paid' } })
      // Another period: nothing payable is left, so nothing is held.
      expect(await program.providerPayouts.startRun({ affiliateId: affiliate.id, provider: 'stripe', destination: 'acct_1', period: '2026-03' })).toEqual({ skipped: 'no longer due: 0.00 payable' })
      expect(await balances(program, affiliate.id)).toEqual({ total: '81.33', paid: '48.00', unpaid: '33.33', eligible: '0.00', held: '33.33', credit: '0.00' })
    })
  })
}
