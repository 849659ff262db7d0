// Bad input: every core method answers a typed validation error naming the field and changes
// nothing; an operation failing halfway leaves nothing behind.
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram } from '../../src/index.js'
import type { CaseContext } from './harness.js'
import { expectError, snapshot } from './helpers.js'

type BadCall = [label: string, call: (program: AffiliateProgram, ids: { affiliate: number; conversion: number }) => Promise<unknown>, field: string]

const BAD_CALLS: BadCall[] = [
  ['affiliate email', (p) => p.affiliates.create({ email: 'not-an-email' }), 'email'],
  ['affiliate email type', (p) => p.affiliates.create({ email: 42 as never }), 'email'],
  ['affiliate unknown field', (p) => p.affiliates.create({ email: 'u@example.com', nickname: 'x' } as never), 'nickname'],
  ['affiliate referral code', (p) => p.affiliates.create({ email: 'c@example.com', referralCode: 'a b' }), 'referralCode'],
  ['affiliate status', (p) => p.affiliates.create({ email: 's@example.com', status: 'gone' as never }), 'status'],
  ['affiliate payout method', (p, ids) => p.affiliates.update(ids.affiliate, { payoutMethod: 'cash' as never }), 'payoutMethod'],
  ['affiliate ref', (p) => p.affiliates.get('%%%'), 'email'],
  ['affiliate list limit', (p) => p.affiliates.list({ limit: 0 }), 'limit'],
  ['affiliate list offset', (p) => p.affiliates.list({ offset: -1 }), 'offset'],
  ['affiliate list status', (p) => p.affiliates.list({ status: 'x' as never }), 'status'],
  ['referral email', (p) => p.referrals.create({ email: 'x' }), 'email'],
  ['referral status', (p) => p.referrals.create({ email: 'r@example.com', status: 'won' as never }), 'status'],
  ['referral affiliate id', (p) => p.referrals.create({ email: 'r@example.com', affiliateId: 1.5 }), 'affiliateId'],
  ['referral list', (p) => p.referrals.list({ limit: 2.5 }), 'limit'],
  ['conversion type', (p, ids) => p.conversions.create({ type: 'refund' as never, affiliateId: ids.affiliate }), 'type'],
  ['conversion base value', (p, ids) => p.conversions.create({ type: 'purchase', affiliateId: ids.affiliate, baseValue: 'ten' }), 'baseValue'],
  ['conversion negative', (p, ids) => p.conversions.create({ type: 'purchase', affiliateId: ids.affiliate, baseValue: -5 }), 'baseValue'],
  ['conversion NaN', (p, ids) => p.conversions.create({ type: 'purchase', affiliateId: ids.affiliate, baseValue: Number.NaN }), 'baseValue'],
  ['conversion huge', (p, ids) => p.conversions.create({ type: 'purchase', affiliateId: ids.affiliate, baseValue: 1e12 }), 'baseValue'],
  ['conversion decimals', (p, ids) => p.conversions.create({ type: 'purchase', affiliateId: ids.affiliate, baseValue: 1.234 }), 'baseValue'],
  ['conversion value', (p, ids) => p.conversions.create({ type: 'signup', affiliateId: ids.affiliate, value: '1e3' }), 'value'],
  ['conversion currency', (p, ids) => p.conversions.create({ type: 'purchase', affiliateId: ids.affiliate, baseValue: 1, baseValueCurrency: 'dollars' }), 'baseValueCurrency'],
  ['conversion paid', (p, ids) => p.conversions.create({ type: 'signup', affiliateId: ids.affiliate, paid: 'yes' as never }), 'paid'],
  ['conversion reference', (p, ids) => p.conversions.create({ type: 'signup', affiliateId: ids.affiliate, reference: '' }), 'reference'],
  ['conversion update status', (p, ids) => p.conversions.update(ids.conversion, { status: 'paid' as never }), 'status'],
  ['conversion update value', (p, ids) => p.conversions.update(ids.conversion, { value: -1 }), 'value'],
  ['conversion refund zero', (p, ids) => p.conversions.update(ids.conversion, { refundAmount: 0 }), 'refundAmount'],
  ['conversion list paid', (p) => p.conversions.list({ paid: 'true' as never }), 'paid'],
  ['conversion list from', (p) => p.conversions.list({ from: 'yesterday' }), 'from'],
  ['coupon code', (p, ids) => p.coupons.create({ affiliateId: ids.affiliate, code: 'has space' }), 'code'],
  ['coupon affiliate', (p) => p.coupons.create({ affiliateId: 0, code: 'OK' }), 'affiliateId'],
  ['payout amount', (p, ids) => p.payouts.create({ affiliateId: ids.affiliate, amount: 'lots' }), 'amount'],
  ['payout method', (p, ids) => p.payouts.create({ affiliateId: ids.affiliate, amount: 1, method: 'cash' as never }), 'method'],
  ['payout date', (p, ids) => p.payouts.create({ affiliateId: ids.affiliate, amount: 1, paymentDate: 'soon' }), 'paymentDate'],
  ['payout date past 9999', (p, ids) => p.payouts.create({ affiliateId: ids.affiliate, amount: 1, paymentDate: '+275760-09-13' }), 'paymentDate'],
  ['payout date before 1000', (p, ids) => p.payouts.create({ affiliateId: ids.affiliate, amount: 1, paymentDate: new Date('0000-01-01T00:00:00Z') }), 'paymentDate'],
  ['payout date past the month end', (p, ids) => p.payouts.create({ affiliateId: ids.affiliate, amount: 1, paymentDate: '2026-02-30' }), 'paymentDate'],
  ['payout date past the month end, with a time', (p, ids) => p.payouts.create({ affiliateId: ids.affiliate, amount: 1, paymentDate: '2026-04-31T10:00:00+02:00' }), 'paymentDate'],
  ['conversion list to before 1000', (p) => p.conversions.list({ to: '-100000-01-01' }), 'to'],
  ['list offset past 2^31 - 1', (p) => p.coupons.list({ offset: 2 ** 32 }), 'offset'],
  ['coupon unknown field', (p, ids) => p.coupons.create({ affiliateId: ids.affiliate, code: 'OK', stripeCouponId: 'x' } as never), 'stripeCouponId'],
  ['payout list limit', (p) => p.payouts.list({ limit: -3 }), 'limit'],
  ['click code', (p) => p.trackClick({ referralCode: '' }), 'referralCode'],
  ['key scopes', (p) => p.keys.create({ scopes: [] }), 'scopes'],
  ['webhook url', (p) => p.webhooks.create({ url: 'ftp://example.com', events: ['referral_converted'] }), 'url'],
  ['webhook events', (p) => p.webhooks.create({ url: 'https://example.com', events: ['everything' as never] }), 'events.0'],
  ['project settings', (p) => p.projects.updateSettings(p.projectId, { holdPeriodDays: -1 }), 'holdPeriodDays'],
  ['project commission', (p) => p.projects.updateSettings(p.projectId, { commission: { purchase: { type: 'fixed', amount: '1.234' } } }), 'commission.purchase.amount'],
]

export function validationCases(context: CaseContext): void {
  describe('bad input', () => {
    it('answers every bad call with a validation error naming the field, changing nothing', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'valid@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })
      const ids = { affiliate: affiliate.id, conversion: conversion.id }
      const before = await snapshot(program)
      const settings = await program.settings()
      for (const [label, call, field] of BAD_CALLS) {
        const error = await call(program, ids).then(
          () => null,
          (caught: unknown) => caught,
        )
        expect(error, label).toMatchObject({ code: 'invalid_request', field })
      }
      expect(await snapshot(program)).toBe(before)
      expect(await program.settings()).toEqual(settings)
    })

    it('says what is wrong with an input: a field missing, one it does not know, or no object at all', async () => {
      const { program } = await context.program()
      const failure = (call: Promise<unknown>) => call.then(() => null, (caught: unknown) => caught)
      expect(await failure(program.affiliates.create({} as never))).toMatchObject({ field: 'email', message: 'email: is required' })
      expect(await failure(program.affiliates.create({ email: 'u@example.com', nickname: 'x' } as never))).toMatchObject({ field: 'nickname', message: 'unknown field "nickname"' })
      expect(await failure(program.affiliates.create(null as never))).toMatchObject({ field: 'input', message: 'input: must be an object' })
      expect(await failure(program.webhooks.create({ events: ['referral_converted'] } as never))).toMatchObject({ field: 'url', message: 'url: is required' })
      expect((await program.affiliates.list()).total).toBe(0)
    })

    it('rolls back everything when a conversion fails halfway (tier-2 reference taken)', async () => {
      const { program } = await context.program({ settings: { multiTier: { enabled: true, tier2Rate: 10 } } })
      const parent = await program.affiliates.create({ email: 'parent@example.com' })
      const child = await program.affiliates.create({ email: 'child@example.com', parentAffiliateId: parent.id })
      await program.conversions.create({ type: 'signup', affiliateId: parent.id, reference: 'ch_x:tier2' })
      const before = await snapshot(program)
      await expectError(
        program.conversions.create({ type: 'purchase', affiliateId: child.id, baseValue: 10, reference: 'ch_x', email: 'new@example.com' }),
        'conflict',
      )
      expect(await snapshot(program)).toBe(before)
      await expectError(program.referrals.get('new@example.com'), 'not_found')
    })
  })
}
