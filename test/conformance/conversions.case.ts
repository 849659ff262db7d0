// Conversions (docs/api.md "POST /conversions"): attribution, hold, renewals, idempotency, events.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError, recordAllEvents, recordedEvents, snapshot } from './helpers.js'

export function conversionCases(context: CaseContext): void {
  describe('conversions: attribution (rules 1 and 2)', () => {
    it('credits affiliate_id first, then referral_code, then the email referral, then the coupon', async () => {
      const { program } = await context.program()
      const byId = await program.affiliates.create({ email: 'id@example.com' })
      const byCode = await program.affiliates.create({ email: 'code@example.com', referralCode: 'CODE1' })
      const byEmail = await program.affiliates.create({ email: 'mail@example.com' })
      const byCoupon = await program.affiliates.create({ email: 'coupon@example.com' })
      await program.referrals.create({ email: 'customer@example.com', affiliateId: byEmail.id })
      await program.coupons.create({ affiliateId: byCoupon.id, code: 'TENOFF' })
      // Purchases: a customer's signup earns once (docs/commissions.md "Leads and trials"), a purchase each time.
      const all = { type: 'purchase' as const, baseValue: 10, email: 'customer@example.com', couponCodeUsed: 'TENOFF' }

      const first = await program.conversions.create({ affiliateId: byId.id, referralCode: 'code1', ...all })
      expect(first.attribution).toEqual({ affiliateId: byId.id, matchedBy: 'affiliate_id' })
      const second = await program.conversions.create({ referralCode: 'code1', ...all })
      expect(second.attribution).toEqual({ affiliateId: byCode.id, matchedBy: 'referral_code' })
      const third = await program.conversions.create(all)
      expect(third.attribution).toEqual({ affiliateId: byEmail.id, matchedBy: 'email' })
      const fourth = await program.conversions.create({ type: 'signup', couponCodeUsed: 'tenoff' })
      expect(fourth.attribution).toEqual({ affiliateId: byCoupon.id, matchedBy: 'coupon' })
      expect(fourth.conversion).toMatchObject({ affiliateId: byCoupon.id, couponCodeUsed: 'tenoff' })
    })

    it('answers not found when nothing matches, and for unknown ids or codes', async () => {
      const { program } = await context.program()
      await expectError(program.conversions.create({ type: 'signup', email: 'nobody@example.com' }), 'not_found')
      await expectError(program.conversions.create({ type: 'signup', affiliateId: 987_654 }), 'not_found', 'affiliateId')
      await expectError(program.conversions.create({ type: 'signup', referralCode: 'missing' }), 'not_found', 'referralCode')
      await expectError(program.conversions.create({ type: 'signup', couponCodeUsed: 'NOPE' }), 'not_found')
      expect((await program.conversions.list()).total).toBe(0)
    })

    it('creates a referred user for a new email so later charges attribute by email alone', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'aff@example.com', referralCode: 'AFF' })
      const first = await program.conversions.create({ type: 'purchase', referralCode: 'AFF', email: 'buyer@example.com', baseValue: 50 })
      const referral = await program.referrals.get('buyer@example.com')
      expect(referral).toMatchObject({ affiliateId: affiliate.id, conversionStatus: 'converted' })
      expect(referral.conversionDate).toEqual(first.conversion.createdAt)
      expect(first.conversion.referredUserId).toBe(referral.id)
      const renewal = await program.conversions.create({ type: 'purchase', email: 'BUYER@example.com', baseValue: 50 })
      expect(renewal.attribution).toEqual({ affiliateId: affiliate.id, matchedBy: 'email' })
      expect(renewal.conversion.referredUserId).toBe(referral.id)
    })

    it('marks self-referrals for review: they earn nothing until approved', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'self@example.com' })
      const result = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, email: 'self@example.com', baseValue: 100 })
      expect(result.conversion.status).toBe('review')
      expect(await program.affiliates.get(affiliate.id)).toMatchObject({ earnings: { total: '0.00' }, purchases: 0 })
    })

    it('requires base_value for purchases', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'p@example.com' })
      await expectError(program.conversions.create({ type: 'purchase', affiliateId: affiliate.id }), 'invalid_request', 'baseValue')
    })
  })

  describe('conversions: hold period (rule 3)', () => {
    it('is pending inside the hold and active after it, on every read', async () => {
      const { program, clock } = await context.program({ settings: { holdPeriodDays: 30 } })
      const affiliate = await program.affiliates.create({ email: 'hold@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 })
      expect(conversion.status).toBe('pending')
      expect(await program.affiliates.get(affiliate.id)).toMatchObject({
        holdPeriod: true,
        earnings: { total: '30.00', held: '30.00', eligible: '0.00', unpaid: '30.00', nextReleaseDate: '2026-01-31' },
      })
      clock.advance({ days: 30 })
      expect((await program.conversions.get(conversion.id)).status).toBe('active')
      expect(await program.affiliates.get(affiliate.id)).toMatchObject({
        earnings: { held: '0.00', eligible: '30.00', nextReleaseDate: null },
      })
    })

    it('is active at once without a hold period', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'nohold@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })
      expect(conversion.status).toBe('active')
      expect((await program.affiliates.get(affiliate.id)).holdPeriod).toBe(false)
    })
  })

  describe('conversions: idempotency by reference (rule 5)', () => {
    it('returns the original with duplicate: true and creates nothing', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'idem@example.com' })
      const input = { type: 'purchase' as const, affiliateId: affiliate.id, baseValue: 19.99, reference: 'ch_1', email: 'c@example.com' }
      const first = await program.conversions.create(input)
      const before = await snapshot(program)
      const again = await program.conversions.create(input)
      expect(again.duplicate).toBe(true)
      expect(again.conversion).toEqual(first.conversion)
      expect(await snapshot(program)).toBe(before)
    })

    it('answers conflict for the same reference with a different payload', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'idem2@example.com' })
      const other = await program.affiliates.create({ email: 'other@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10, reference: 'ch_2' })
      const before = await snapshot(program)
      await expectError(program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 11, reference: 'ch_2' }), 'conflict', 'reference')
      await expectError(program.conversions.create({ type: 'signup', affiliateId: affiliate.id, baseValue: 10, reference: 'ch_2' }), 'conflict')
      await expectError(program.conversions.create({ type: 'purchase', affiliateId: other.id, baseValue: 10, reference: 'ch_2' }), 'conflict')
      await expectError(
        program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10, baseValueCurrency: 'EUR', reference: 'ch_2' }),
        'invalid_request',
      )
      expect(await snapshot(program)).toBe(before)
    })

    it('creates exactly one conversion for concurrent requests with one reference', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'race@example.com' })
      const input = { type: 'purchase' as const, affiliateId: affiliate.id, baseValue: 5, reference: 'ch_race', email: 'r@example.com' }
      const results = await Promise.all(Array.from({ length: 20 }, () => program.conversions.create(input)))
      expect(results.filter((result) => !result.duplicate)).toHaveLength(1)
      expect((await program.conversions.list()).total).toBe(1)
      expect(await program.affiliates.get(affiliate.id)).toMatchObject({ earnings: { total: '1.50' }, signups: 1, purchases: 1 })
    })

    it('lets a request that failed validation claim nothing, and scopes references per project', async () => {
      const { program } = await context.program()
      const { program: otherProgram } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'v@example.com' })
      const otherAffiliate = await otherProgram.affiliates.create({ email: 'v@example.com' })
      await expectError(program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: -1, reference: 'ch_v' }), 'invalid_request')
      const created = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 1, reference: 'ch_v' })
      expect(created.duplicate).toBe(false)
      const elsewhere = await otherProgram.conversions.create({ type: 'purchase', affiliateId: otherAffiliate.id, baseValue: 1, reference: 'ch_v' })
      expect(elsewhere.duplicate).toBe(false)
    })

    it('refuses to move a reference onto one already used', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'ref@example.com' })
      await program.conversions.create({ type: 'signup', affiliateId: affiliate.id, reference: 'taken' })
      const { conversion } = await program.conversions.create({ type: 'signup', affiliateId: affiliate.id, reference: 'mine' })
      await expectError(program.conversions.update(conversion.id, { reference: 'taken' }), 'conflict', 'reference')
      expect(await program.conversions.update(conversion.id, { reference: 'renamed' })).toMatchObject({ reference: 'renamed' })
    })
  })

  describe('conversions: work in the conversion\'s transaction (inTransaction)', () => {
    const link = (projectId: string, externalId: string, conversionId: number) => ({ projectId, provider: 'stripe', kind: 'payment', externalId, data: { conversionId: String(conversionId) } })

    it('commits what the work writes with the conversion, and gives it the created conversion', async () => {
      const { program, storage } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'tx@example.com' })
      const seen: number[] = []
      const created = await program.conversions.create(
        { type: 'purchase', affiliateId: affiliate.id, baseValue: '10.00', reference: 'in_tx_1' },
        {
          inTransaction: async (tx, result) => {
            seen.push(result.conversion.id)
            await tx.providerEvents.saveLinks([link(program.projectId, 'in_tx_1', result.conversion.id)])
          },
        },
      )
      expect(seen).toEqual([created.conversion.id])
      expect((await storage.providerEvents.getLink(program.projectId, 'stripe', 'payment', 'in_tx_1'))?.data).toEqual({ conversionId: String(created.conversion.id) })
    })

    it('rolls the conversion back when the work throws, and skips the work for a duplicate reference', async () => {
      const { program, storage } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'tx2@example.com' })
      const input = { type: 'purchase' as const, affiliateId: affiliate.id, baseValue: '10.00', reference: 'in_tx_2', email: 'buyer@example.com' }
      const before = await snapshot(program)
      const failing = program.conversions.create(input, {
        inTransaction: async (tx, result) => {
          await tx.providerEvents.saveLinks([link(program.projectId, 'in_tx_2', result.conversion.id)])
          throw new Error('bookkeeping failed')
        },
      })
      await expect(failing).rejects.toThrow('bookkeeping failed')
      expect(await snapshot(program)).toBe(before)
      expect(await storage.providerEvents.getLink(program.projectId, 'stripe', 'payment', 'in_tx_2')).toBeNull()

      const first = await program.conversions.create(input)
      let calls = 0
      const again = await program.conversions.create(input, { inTransaction: async () => void (calls += 1) })
      expect(again).toMatchObject({ duplicate: true, conversion: { id: first.conversion.id } })
      expect(calls).toBe(0)
    })
  })

  describe('conversions: events (rule 6)', () => {
    it('records referral_converted and referral_updated with the members docs/webhooks.md lists', async () => {
      const { program, storage } = await context.program({ exchangeRates: (from, to) => (from === 'EUR' && to === 'USD' ? '1.1' : null) })
      await recordAllEvents(program)
      const affiliate = await program.affiliates.create({ email: 'ev@example.com', paypalEmail: 'pp@example.com' })
      const { conversion } = await program.conversions.create({
        type: 'purchase',
        affiliateId: affiliate.id,
        baseValue: 100,
        baseValueCurrency: 'EUR',
        email: 'cust@example.com',
        reference: 'ch_ev',
        paymentProcessor: 'stripe',
        productId: 'pro',
      })
      await program.conversions.update(conversion.id, { paid: true })
      const events = await recordedEvents(storage, program)
      expect(events.map((event) => event.type)).toEqual(['referral_converted', 'referral_updated', 'referral_updated'])
      const [converted, updated] = events
      expect(converted!.body).toMatchObject({
        event: 'referral_converted',
        project_id: program.projectId,
        timestamp: Math.floor(conversion.createdAt.getTime() / 1000),
        affiliate: { id: String(affiliate.id), email: 'ev@example.com', payout_preferences: { paypal_email: 'pp@example.com' } },
        referred: { email: 'cust@example.com' },
        conversion: {
          id: String(conversion.id),
          amount: 100,
          currency: 'EUR',
          commission_amount: 33,
          commission_type: 'percentage',
          commission_rate: 30,
          payment_processor: 'stripe',
          product_id: 'pro',
          order_id: 'ch_ev',
          conversion_date: conversion.createdAt.toISOString(),
        },
      })
      expect(updated!.body).toMatchObject({
        event: 'referral_updated',
        conversion: { id: String(conversion.id), amount: 100, amount_usd: 110, commission_amount: 33, base_value: 100, reference: 'ch_ev' },
      })
    })

    it('omits payout_preferences when the affiliate has none', async () => {
      const { program, storage } = await context.program()
      await recordAllEvents(program)
      const affiliate = await program.affiliates.create({ email: 'plain@example.com' })
      await program.conversions.create({ type: 'signup', affiliateId: affiliate.id })
      const [event] = await recordedEvents(storage, program)
      expect(event!.body.affiliate).toEqual({ id: String(affiliate.id), email: 'plain@example.com' })
      expect(event!.body.referred).toBeNull()
    })
  })

  describe('conversions: lists', () => {
    it('filters by type, affiliate, referred user, paid and a [from, to) window, newest first', async () => {
      const { program, clock } = await context.program()
      const one = await program.affiliates.create({ email: 'l1@example.com' })
      const two = await program.affiliates.create({ email: 'l2@example.com' })
      const a = await program.conversions.create({ type: 'signup', affiliateId: one.id })
      clock.advance({ hours: 1 })
      const b = await program.conversions.create({ type: 'purchase', affiliateId: two.id, baseValue: 10, email: 'lb@example.com' })
      clock.advance({ hours: 1 })
      const c = await program.conversions.create({ type: 'purchase', affiliateId: one.id, baseValue: 10, paid: true })
      const ids = (items: Array<{ id: number }>) => items.map((item) => item.id)
      expect(ids((await program.conversions.list()).items)).toEqual([c.conversion.id, b.conversion.id, a.conversion.id])
      expect(ids((await program.conversions.list({ type: 'purchase' })).items)).toEqual([c.conversion.id, b.conversion.id])
      expect(ids((await program.conversions.list({ affiliateId: one.id })).items)).toEqual([c.conversion.id, a.conversion.id])
      expect(ids((await program.conversions.list({ referredUserId: b.conversion.referredUserId! })).items)).toEqual([b.conversion.id])
      expect(ids((await program.conversions.list({ paid: true })).items)).toEqual([c.conversion.id])
      const window = await program.conversions.list({ from: b.conversion.createdAt, to: c.conversion.createdAt })
      expect(ids(window.items)).toEqual([b.conversion.id])
      expect((await program.conversions.list({ limit: 500 })).limit).toBe(100)
      expect((await program.conversions.list()).limit).toBe(50)
    })

    it('deletes a conversion and its earnings', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'del@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })
      await program.conversions.delete(conversion.id)
      await expectError(program.conversions.get(conversion.id), 'not_found')
      expect(await program.affiliates.get(affiliate.id)).toMatchObject({ earnings: { total: '0.00' }, purchases: 0 })
    })
  })
}
