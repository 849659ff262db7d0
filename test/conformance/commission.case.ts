// Commission engine (docs/money.md, docs/commissions.md): exact money, rules, renewals, sub-programs, tiers, FX.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError, snapshot } from './helpers.js'

export function commissionCases(context: CaseContext): void {
  describe('commission', () => {
    it('computes percentages exactly, rounding half up once', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'pct@example.com' })
      const value = async (baseValue: number | string) =>
        (await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue })).conversion.value
      expect(await value(19.99)).toBe('6.00') // 5.997
      expect(await value(0.05)).toBe('0.02') // 0.015 rounds half up
      expect(await value('0.01')).toBe('0.00') // 0.003
      expect(await value(1.15)).toBe('0.35') // 0.345, where floats give 0.34499999
      expect(await value(999_999_999_999.99)).toBe('300000000000.00') // 299999999999.997
      expect((await program.affiliates.get(affiliate.id)).earnings.total).toBe('300000000006.37')
    })

    it('applies fixed purchase amounts and signup amounts', async () => {
      const { program } = await context.program({
        settings: { commission: { purchase: { type: 'fixed', amount: '10.00' }, signup: { amount: '1.50' } } },
      })
      const affiliate = await program.affiliates.create({ email: 'fixed@example.com' })
      const purchase = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 999 })
      const signup = await program.conversions.create({ type: 'signup', affiliateId: affiliate.id })
      expect(purchase.conversion).toMatchObject({ value: '10.00', commissionType: 'fixed', basis: 'purchase' })
      expect(signup.conversion).toMatchObject({ value: '1.50', basis: 'signup' })
    })

    it('earns nothing for signups by default', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'signup@example.com' })
      expect((await program.conversions.create({ type: 'signup', affiliateId: affiliate.id })).conversion.value).toBe('0.00')
    })

    it('uses the currency minor unit: JPY has none, KWD has three', async () => {
      const yen = await context.program({ settings: { currency: 'JPY', commission: { purchase: { type: 'percentage', rate: 12.5 } } } })
      const a = await yen.program.affiliates.create({ email: 'jp@example.com' })
      expect((await yen.program.conversions.create({ type: 'purchase', affiliateId: a.id, baseValue: 1001 })).conversion.value).toBe('125')
      await expectError(yen.program.conversions.create({ type: 'purchase', affiliateId: a.id, baseValue: 10.5 }), 'invalid_request', 'baseValue')
      const dinar = await context.program({ settings: { currency: 'KWD' } })
      const b = await dinar.program.affiliates.create({ email: 'kw@example.com' })
      expect((await dinar.program.conversions.create({ type: 'purchase', affiliateId: b.id, baseValue: '1.235' })).conversion.value).toBe('0.371')
    })

    it('pays the recurring rate on renewals inside the duration, and nothing after', async () => {
      const { program, clock } = await context.program({
        settings: { commission: { purchase: { type: 'percentage', rate: 30 }, recurring: { rate: 20, durationMonths: 12 } } },
      })
      const affiliate = await program.affiliates.create({ email: 'rec@example.com' })
      const charge = () => program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, email: 'sub@example.com', baseValue: 100 })
      expect((await charge()).conversion).toMatchObject({ value: '30.00', basis: 'purchase' })
      clock.advance({ days: 31 })
      expect((await charge()).conversion).toMatchObject({ value: '20.00', basis: 'recurring' })
      clock.set('2027-01-01T00:00:00.000Z')
      expect((await charge()).conversion).toMatchObject({ value: '0.00', basis: 'recurring_expired' })
      expect((await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, email: 'new@example.com', baseValue: 100 })).conversion.value).toBe('30.00')
    })

    it('two purchases of one customer at the same moment: one earns the purchase rule, the other the recurring one', async () => {
      const { program } = await context.program({
        settings: { commission: { purchase: { type: 'percentage', rate: 30 }, recurring: { rate: 20, durationMonths: 12 } } },
      })
      const affiliate = await program.affiliates.create({ email: 'twice@example.com' })
      const customers = ['c1', 'c2', 'c3', 'c4', 'c5'].map((name) => `${name}@example.com`)
      for (const email of customers) await program.referrals.create({ email, affiliateId: affiliate.id })
      const bases = await Promise.all(
        customers.map(async (email) => {
          const charge = (n: number) => program.conversions.create({ type: 'purchase', email, baseValue: 100, reference: `${email}-${n}` })
          const created = await Promise.all([charge(1), charge(2)])
          return created.map((result) => result.conversion.basis).sort()
        }),
      )
      expect(bases).toEqual(customers.map(() => ['purchase', 'recurring']))
      expect((await program.affiliates.get(affiliate.id)).earnings.total).toBe('250.00')
    })

    it('keeps the first rate for life when no recurring rule is set', async () => {
      const { program, clock } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'life@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, email: 's@example.com', baseValue: 10 })
      clock.advance({ days: 3650 })
      const renewal = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, email: 's@example.com', baseValue: 10 })
      expect(renewal.conversion).toMatchObject({ value: '3.00', basis: 'recurring' })
    })

    it('applies the sub-program of the affiliate partner_slug', async () => {
      const { program } = await context.program({
        settings: { subPrograms: { vip: { commission: { purchase: { type: 'percentage', rate: 50 } } } } },
      })
      const vip = await program.affiliates.create({ email: 'vip@example.com', partnerSlug: 'vip' })
      const normal = await program.affiliates.create({ email: 'normal@example.com' })
      expect((await program.conversions.create({ type: 'purchase', affiliateId: vip.id, baseValue: 10 })).conversion.value).toBe('5.00')
      expect((await program.conversions.create({ type: 'purchase', affiliateId: normal.id, baseValue: 10 })).conversion.value).toBe('3.00')
      await expectError(program.affiliates.create({ email: 'x@example.com', partnerSlug: 'gold' }), 'invalid_request', 'partnerSlug')
    })

    it('credits the parent tier2Rate percent of the commission in multi-tier programs', async () => {
      const { program } = await context.program({ settings: { multiTier: { enabled: true, tier2Rate: 10 } } })
      const parent = await program.affiliates.create({ email: 'parent@example.com', referralCode: 'PARENT' })
      const child = await program.affiliates.create({ email: 'child@example.com', parentReferralCode: 'parent' })
      expect(child.parentId).toBe(parent.id)
      const result = await program.conversions.create({ type: 'purchase', affiliateId: child.id, baseValue: 100, reference: 'ch_t' })
      expect(result.conversion.value).toBe('30.00')
      expect(result.tier2).toMatchObject({ affiliateId: parent.id, value: '3.00', reference: 'ch_t:tier2', tier: 2, type: 'purchase' })
      expect((await program.affiliates.get(parent.id)).earnings.total).toBe('3.00')
      const single = await context.program()
      await expectError(single.program.affiliates.create({ email: 'c@example.com', parentAffiliateId: 1 }), 'invalid_request')
    })

    it('lets an explicit value override the calculation', async () => {
      const { program } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'explicit@example.com' })
      const result = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100, value: 14.99 })
      expect(result.conversion).toMatchObject({ value: '14.99', basis: 'explicit' })
    })

    it('converts other currencies with exchangeRates, rounding after FX, and names a missing pair', async () => {
      const { program } = await context.program({ exchangeRates: (from, to) => (from === 'EUR' && to === 'USD' ? 1.0849 : null) })
      const affiliate = await program.affiliates.create({ email: 'fx@example.com' })
      const result = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 1, baseValueCurrency: 'eur' })
      // 1 EUR = 1.0849 USD, x 30% = 0.32547 -> 0.33. Rounding the converted base first would give 0.32.
      expect(result.conversion).toMatchObject({ value: '0.33', baseValue: '1.00', baseValueCurrency: 'EUR', currency: 'USD' })
      const error = await program.conversions
        .create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10, baseValueCurrency: 'GBP' })
        .catch((caught: Error) => caught)
      expect(error).toMatchObject({ code: 'invalid_request', field: 'baseValueCurrency' })
      expect((error as Error).message).toContain('GBP->USD')
    })

    it('previews the calculation without writing anything', async () => {
      const { program, clock } = await context.program({
        settings: { holdPeriodDays: 14, commission: { purchase: { type: 'percentage', rate: 30 } } },
        exchangeRates: () => '0.5',
      })
      const affiliate = await program.affiliates.create({ email: 'preview@example.com', referralCode: 'PREV' })
      const before = await snapshot(program)
      const preview = await program.conversions.preview({ type: 'purchase', referralCode: 'PREV', baseValue: 99.9, baseValueCurrency: 'GBP', email: 'p@example.com' })
      expect(preview).toEqual({
        affiliateId: affiliate.id,
        matchedBy: 'referral_code',
        basis: 'purchase',
        ruleSource: 'project',
        productId: null,
        commissionType: 'percentage',
        rate: '30',
        amount: null,
        baseValue: '99.90',
        baseValueCurrency: 'GBP',
        fxRate: '0.5',
        value: '14.99', // 14.985
        currency: 'USD',
        status: 'pending',
        holdUntil: new Date(clock.now().getTime() + 14 * 86_400_000),
        subProgram: null,
        tier2: null,
      })
      expect(await snapshot(program)).toBe(before)
      const created = await program.conversions.create({ type: 'purchase', referralCode: 'PREV', baseValue: 99.9, baseValueCurrency: 'GBP' })
      expect(created.conversion.value).toBe(preview.value)
    })
  })
}
