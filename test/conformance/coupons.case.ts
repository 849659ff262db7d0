// Coupon status: coupons are active unless made inactive; only active coupons attribute
// conversions; the status is kept, filtered on and changed like any other coupon field.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError, snapshot } from './helpers.js'

export function couponCases(context: CaseContext): void {
  describe('coupon status', () => {
    it('creates active coupons unless told otherwise and keeps the status and processor id', async () => {
      const { program } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const active = await program.coupons.create({ affiliateId: ann.id, code: 'ANN10', processorCouponId: 'promo_1' })
      expect(active).toMatchObject({ status: 'active', processorCouponId: 'promo_1' })
      const inactive = await program.coupons.create({ affiliateId: ann.id, code: 'ANN20', status: 'inactive' })
      expect(await program.coupons.get(inactive.id)).toMatchObject({ code: 'ANN20', status: 'inactive', processorCouponId: null })
      const listed = await program.coupons.list({ status: 'inactive' })
      expect(listed.items.map((coupon) => coupon.code)).toEqual(['ANN20'])
      expect(listed.total).toBe(1)
      expect((await program.coupons.list({ status: 'active' })).items.map((coupon) => coupon.code)).toEqual(['ANN10'])
      expect((await program.coupons.list()).total).toBe(2)
    })

    it('lists coupons by their processor id, exactly (provider ids are case-sensitive), with the other filters', async () => {
      const { program } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const bob = await program.affiliates.create({ email: 'bob@example.com' })
      await program.coupons.create({ affiliateId: ann.id, code: 'ANN20', processorCouponId: 'Z4OV52SU' })
      await program.coupons.create({ affiliateId: bob.id, code: 'BOB20', processorCouponId: 'z4ov52su', status: 'inactive' })
      await program.coupons.create({ affiliateId: bob.id, code: 'Z4OV52SU' })
      const codes = async (filter: Parameters<typeof program.coupons.list>[0]) => (await program.coupons.list(filter)).items.map((coupon) => coupon.code)
      expect(await codes({ processorCouponId: 'Z4OV52SU' })).toEqual(['ANN20'])
      expect(await codes({ processorCouponId: 'z4ov52su' })).toEqual(['BOB20'])
      expect(await codes({ processorCouponId: 'z4ov52su', status: 'active' })).toEqual([])
      expect(await codes({ processorCouponId: 'promo_none' })).toEqual([])
      await expectError(program.coupons.list({ processorCouponId: 'x'.repeat(256) }), 'invalid_request', 'processorCouponId')
    })

    it('attributes a conversion to an active coupon only', async () => {
      const { program } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const coupon = await program.coupons.create({ affiliateId: ann.id, code: 'SAVE10', status: 'inactive' })
      const before = await snapshot(program)
      await expectError(program.conversions.create({ type: 'purchase', couponCodeUsed: 'save10', baseValue: 10, reference: 'ch_1' }), 'not_found')
      expect(await snapshot(program)).toBe(before)

      expect(await program.coupons.update(coupon.id, { status: 'active' })).toMatchObject({ status: 'active', code: 'SAVE10' })
      const { conversion, attribution } = await program.conversions.create({ type: 'purchase', couponCodeUsed: 'save10', baseValue: 10, reference: 'ch_1' })
      expect(attribution).toMatchObject({ affiliateId: ann.id, matchedBy: 'coupon' })
      expect(conversion.couponCodeUsed).toBe('save10')

      await program.coupons.update(coupon.id, { status: 'inactive' })
      await expectError(program.conversions.create({ type: 'purchase', couponCodeUsed: 'SAVE10', baseValue: 10, reference: 'ch_2' }), 'not_found')
      // A coupon only fills in when nothing earlier in the order matches: by id it still credits.
      const direct = await program.conversions.create({ type: 'purchase', affiliateId: ann.id, couponCodeUsed: 'SAVE10', baseValue: 10, reference: 'ch_3' })
      expect(direct.attribution.matchedBy).toBe('affiliate_id')
    })

    it('refuses an unknown status, naming the field, and changes nothing', async () => {
      const { program } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const coupon = await program.coupons.create({ affiliateId: ann.id, code: 'KEEP' })
      const before = await snapshot(program)
      await expectError(program.coupons.create({ affiliateId: ann.id, code: 'NEW', status: 'paused' as never }), 'invalid_request', 'status')
      await expectError(program.coupons.update(coupon.id, { status: 'archived' as never }), 'invalid_request', 'status')
      await expectError(program.coupons.list({ status: 'on' as never }), 'invalid_request', 'status')
      expect(await snapshot(program)).toBe(before)
    })
  })
}
