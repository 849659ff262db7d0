// Affiliates, referred users, coupons and clicks.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError } from './helpers.js'

export function affiliateCases(context: CaseContext): void {
  describe('affiliates', () => {
    it('creates with a generated referral code, normalizing the email', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: '  Ann@Example.COM ' })
      expect(affiliate.email).toBe('ann@example.com')
      expect(affiliate.referralCode).toMatch(/^[a-z0-9]{8}$/)
      expect(affiliate.status).toBe('active')
      expect(affiliate.earnings).toMatchObject({ total: '0.00', unpaid: '0.00', paid: '0.00' })
      expect(await program.affiliates.get('ANN@example.com')).toMatchObject({ id: affiliate.id })
      expect(await program.affiliates.get(affiliate.id)).toMatchObject({ email: 'ann@example.com' })
    })

    it('rejects a second affiliate with the same email or referral code (case-insensitive)', async () => {
      const { program } = await context.program()
      await program.affiliates.create({ email: 'a@example.com', referralCode: 'SUMMER' })
      await expectError(program.affiliates.create({ email: 'A@example.com' }), 'conflict', 'email')
      await expectError(program.affiliates.create({ email: 'b@example.com', referralCode: 'summer' }), 'conflict', 'referralCode')
      expect((await program.affiliates.list()).total).toBe(1)
    })

    it('updates only the supplied fields and keeps uniqueness', async () => {
      const { program } = await context.program()
      await program.affiliates.create({ email: 'taken@example.com', referralCode: 'taken' })
      const affiliate = await program.affiliates.create({ email: 'x@example.com', paymentDetails: 'IBAN 1' })
      const updated = await program.affiliates.update('x@example.com', { status: 'inactive', paypalEmail: 'pp@example.com' })
      expect(updated).toMatchObject({ status: 'inactive', paypalEmail: 'pp@example.com', paymentDetails: 'IBAN 1' })
      await expectError(program.affiliates.update(affiliate.id, { email: 'taken@example.com' }), 'conflict', 'email')
      await expectError(program.affiliates.update(affiliate.id, { referralCode: 'TAKEN' }), 'conflict', 'referralCode')
      const renamed = await program.affiliates.update(affiliate.id, { email: 'new@example.com', referralCode: 'fresh' })
      expect(renamed).toMatchObject({ email: 'new@example.com', referralCode: 'fresh' })
      await expectError(program.affiliates.get('x@example.com'), 'not_found')
    })

    it('lists newest first with status filter, pagination and clamped limit', async () => {
      const { program, clock } = await context.program()
      for (const name of ['a', 'b', 'c']) {
        await program.affiliates.create({ email: `${name}@example.com`, status: name === 'b' ? 'inactive' : 'active' })
        clock.advance({ seconds: 1 })
      }
      const all = await program.affiliates.list({ limit: 1000 })
      expect(all.limit).toBe(100)
      expect(all.items.map((item) => item.email)).toEqual(['c@example.com', 'b@example.com', 'a@example.com'])
      const page = await program.affiliates.list({ limit: 1, offset: 1 })
      expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 })
      expect(page.items.map((item) => item.email)).toEqual(['b@example.com'])
      const inactive = await program.affiliates.list({ status: 'inactive' })
      expect(inactive.items.map((item) => item.email)).toEqual(['b@example.com'])
      await program.affiliates.update('a@example.com', { status: 'blocked' })
      const notActive = await program.affiliates.list({ status: ['inactive', 'pending', 'blocked'] })
      expect(notActive.items.map((item) => item.email)).toEqual(['b@example.com', 'a@example.com'])
    })

    it('deletes the affiliate with its conversions, coupons and payouts; its referred users stay', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'gone@example.com' })
      const other = await program.affiliates.create({ email: 'stays@example.com' })
      await program.coupons.create({ affiliateId: affiliate.id, code: 'GONE10' })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100, email: 'buyer@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: other.id, baseValue: 100 })
      await program.payouts.create({ affiliateId: affiliate.id, amount: 10 })
      await program.affiliates.delete('gone@example.com')
      await expectError(program.affiliates.get(affiliate.id), 'not_found')
      expect((await program.conversions.list()).items.map((item) => item.affiliateId)).toEqual([other.id])
      expect((await program.coupons.list()).total).toBe(0)
      expect((await program.payouts.list()).total).toBe(0)
      expect(await program.referrals.get('buyer@example.com')).toMatchObject({ affiliateId: null })
      expect(await program.affiliates.get(other.id)).toMatchObject({ earnings: { total: '30.00' } })
    })

    it('counts clicks, signups and purchases', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'stats@example.com', referralCode: 'stats' })
      await program.trackClick({ referralCode: 'STATS', ip: '203.0.113.9' })
      await program.trackClick({ referralCode: 'stats' })
      await program.referrals.create({ email: 'r1@example.com', affiliateId: affiliate.id })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10, email: 'r2@example.com' })
      await program.conversions.create({ type: 'signup', affiliateId: affiliate.id })
      expect(await program.affiliates.get(affiliate.id)).toMatchObject({ clicks: 2, signups: 2, purchases: 1 })
      await expectError(program.trackClick({ referralCode: 'nobody' }), 'not_found', 'referralCode')
    })
  })

  describe('referred users', () => {
    it('creates pending by default, re-links, disassociates and stamps conversion dates', async () => {
      const { program, clock } = await context.program()
      const first = await program.affiliates.create({ email: 'one@example.com' })
      const second = await program.affiliates.create({ email: 'two@example.com' })
      const referral = await program.referrals.create({ email: 'User@Example.com', affiliateId: first.id })
      expect(referral).toMatchObject({ email: 'user@example.com', affiliateId: first.id, conversionStatus: 'pending', conversionDate: null })
      await expectError(program.referrals.create({ email: 'user@example.com' }), 'conflict', 'email')
      await expectError(program.referrals.create({ email: 'x@example.com', affiliateId: 999_999 }), 'not_found', 'affiliateId')

      clock.advance({ days: 1 })
      const moved = await program.referrals.update('user@example.com', { affiliateId: second.id, status: 'converted' })
      expect(moved).toMatchObject({ affiliateId: second.id, conversionStatus: 'converted', affiliateCode: second.referralCode })
      expect(moved.conversionDate).toEqual(clock.now())
      expect(await program.affiliates.get(first.id)).toMatchObject({ signups: 0 })
      expect(await program.affiliates.get(second.id)).toMatchObject({ signups: 1 })

      const direct = await program.referrals.update(referral.id, { affiliateId: null })
      expect(direct).toMatchObject({ affiliateId: null, conversionStatus: 'converted' })
      expect(await program.affiliates.get(second.id)).toMatchObject({ signups: 0 })
      const solo = await program.referrals.create({ email: 'solo@example.com' })
      expect(solo).toMatchObject({ affiliateId: null, conversionStatus: 'pending' })
    })

    it('lists newest first, filtered by affiliate and status', async () => {
      const { program, clock } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'aff@example.com' })
      await program.referrals.create({ email: 'a@example.com', affiliateId: affiliate.id })
      clock.advance({ seconds: 1 })
      await program.referrals.create({ email: 'b@example.com', status: 'direct_signup' })
      clock.advance({ seconds: 1 })
      await program.referrals.create({ email: 'c@example.com', affiliateId: affiliate.id, status: 'converted' })
      const all = await program.referrals.list()
      expect(all.items.map((item) => item.email)).toEqual(['c@example.com', 'b@example.com', 'a@example.com'])
      const mine = await program.referrals.list({ affiliateId: affiliate.id })
      expect(mine.items.map((item) => item.email)).toEqual(['c@example.com', 'a@example.com'])
      const converted = await program.referrals.list({ status: 'converted' })
      expect(converted.items.map((item) => item.email)).toEqual(['c@example.com'])
    })
  })

  describe('coupons', () => {
    it('creates, reads, updates, lists and deletes with unique codes per project', async () => {
      const { program } = await context.program()
      const first = await program.affiliates.create({ email: 'c1@example.com' })
      const second = await program.affiliates.create({ email: 'c2@example.com' })
      const coupon = await program.coupons.create({ affiliateId: first.id, code: 'SAVE10', processorCouponId: 'co_1' })
      expect(coupon).toMatchObject({ affiliateId: first.id, code: 'SAVE10', processorCouponId: 'co_1', affiliateEmail: 'c1@example.com' })
      await expectError(program.coupons.create({ affiliateId: second.id, code: 'save10' }), 'conflict', 'code')
      await expectError(program.coupons.create({ affiliateId: 424242, code: 'NOPE' }), 'not_found', 'affiliateId')
      await program.coupons.create({ affiliateId: second.id, code: 'OTHER' })
      expect((await program.coupons.list({ affiliateId: second.id })).items.map((item) => item.code)).toEqual(['OTHER'])
      expect((await program.coupons.list({ code: 'save10' })).items.map((item) => item.id)).toEqual([coupon.id])
      expect(await program.coupons.update(coupon.id, { affiliateId: second.id })).toMatchObject({ affiliateId: second.id })
      await program.coupons.delete(coupon.id)
      await expectError(program.coupons.get(coupon.id), 'not_found')
      await expectError(program.coupons.delete(coupon.id), 'not_found')
    })
  })
}
