// The worked examples of docs/commissions.md, figure for figure: per-product rules, excluded
// products, renewals by count and in stages, per-affiliate rules, the rule each conversion
// records, settings changes and grandfathering, the lines of one payment.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError, snapshot } from './helpers.js'

const pct = (rate: number) => ({ type: 'percentage' as const, rate })

export function commissionRuleCases(context: CaseContext): void {
  describe('commission rules (docs/commissions.md worked examples)', () => {
    it('Products: Starter earns 20 %, Pro 15 %, another product the project 30 %, a setup fee nothing', async () => {
      const { program } = await context.program({
        settings: {
          commission: {
            purchase: pct(30),
            products: { prod_starter: { purchase: pct(20) }, prod_pro: { purchase: pct(15) }, prod_setup: { excluded: true } },
          },
        },
      })
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const buy = async (productId: string | undefined, baseValue: string) =>
        (await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue, ...(productId ? { productId } : {}) })).conversion
      expect(await buy('prod_starter', '49.00')).toMatchObject({ value: '9.80', basis: 'purchase', ruleSource: 'product', productId: 'prod_starter', commissionRate: '20' })
      expect(await buy('prod_pro', '99.00')).toMatchObject({ value: '14.85', basis: 'purchase', ruleSource: 'product', commissionRate: '15' })
      expect(await buy('prod_other', '10.00')).toMatchObject({ value: '3.00', ruleSource: 'project' })
      expect(await buy(undefined, '10.00')).toMatchObject({ value: '3.00', ruleSource: 'project', productId: null })
      const setup = await buy('prod_setup', '50.00')
      expect(setup).toMatchObject({ value: '0.00', basis: 'excluded', ruleSource: 'product', status: 'active' })
      expect((await program.affiliates.get(ann.id)).earnings.total).toBe('30.65')
    })

    it('Products: a sub-program product rule beats the project one, and any product rule beats the sub-program default', async () => {
      const { program } = await context.program({
        settings: {
          commission: { purchase: pct(30), products: { prod_pro: { purchase: pct(15) } } },
          subPrograms: { agency: { commission: { purchase: pct(40), products: { prod_starter: { purchase: { type: 'fixed', amount: '12.00' } } } } } },
        },
      })
      const agency = await program.affiliates.create({ email: 'agency@example.com', partnerSlug: 'agency' })
      const buy = async (productId: string) => (await program.conversions.create({ type: 'purchase', affiliateId: agency.id, baseValue: '100.00', productId })).conversion
      expect(await buy('prod_starter')).toMatchObject({ value: '12.00', ruleSource: 'product', commissionType: 'fixed', commissionRate: null })
      expect(await buy('prod_pro')).toMatchObject({ value: '15.00', ruleSource: 'product' })
      expect(await buy('prod_other')).toMatchObject({ value: '40.00', ruleSource: 'sub_program' })
    })

    it('Renewals by count: maxPayments 3 pays the first purchase and two renewals, then 0 (recurring_expired)', async () => {
      const { program, clock } = await context.program({ settings: { commission: { purchase: pct(30), recurring: { rate: 10, maxPayments: 3 } } } })
      const ann = await program.affiliates.create({ email: 'count@example.com' })
      const values: string[] = []
      for (let month = 0; month < 4; month += 1) {
        const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'sub@example.com', baseValue: '100.00' })
        values.push(`${conversion.value} ${conversion.basis}`)
        clock.advance({ days: 30 })
      }
      expect(values).toEqual(['30.00 purchase', '10.00 recurring', '10.00 recurring', '0.00 recurring_expired'])
    })

    it('Renewals: whichever of durationMonths and maxPayments ends first', async () => {
      const { program, clock } = await context.program({ settings: { commission: { purchase: pct(30), recurring: { rate: 10, durationMonths: 2, maxPayments: 12 } } } })
      const ann = await program.affiliates.create({ email: 'first-end@example.com' })
      const charge = async () => (await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'months@example.com', baseValue: '100.00' })).conversion.basis
      const bases = [await charge()]
      clock.advance({ days: 31 })
      bases.push(await charge())
      clock.advance({ days: 31 })
      bases.push(await charge())
      expect(bases).toEqual(['purchase', 'recurring', 'recurring_expired'])
    })

    it('Stages: renewals 1-2 at 40 %, later ones 5.00 each', async () => {
      const { program } = await context.program({
        settings: { commission: { purchase: pct(30), recurring: { stages: [{ payments: 2, rate: 40 }, { amount: '5.00' }] } } },
      })
      const ann = await program.affiliates.create({ email: 'stages@example.com' })
      const values: string[] = []
      for (let payment = 1; payment <= 5; payment += 1) {
        values.push((await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'staged@example.com', baseValue: '100.00' })).conversion.value)
      }
      expect(values).toEqual(['30.00', '40.00', '40.00', '5.00', '5.00'])
      expect((await program.affiliates.get(ann.id)).earnings.total).toBe('120.00')
    })

    it('Stages: past a last stage that counts its payments, renewals earn 0', async () => {
      const { program } = await context.program({ settings: { commission: { purchase: pct(30), recurring: { stages: [{ payments: 1, rate: 50 }] } } } })
      const ann = await program.affiliates.create({ email: 'stage-end@example.com' })
      const bases: string[] = []
      for (let payment = 1; payment <= 3; payment += 1) {
        const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'once@example.com', baseValue: '10.00' })
        bases.push(`${conversion.value} ${conversion.basis}`)
      }
      expect(bases).toEqual(['3.00 purchase', '5.00 recurring', '0.00 recurring_expired'])
    })

    it('Per-affiliate rules: 50 % wins over the product and project rules, never over an excluded product', async () => {
      const { program } = await context.program({
        settings: { commission: { purchase: pct(30), products: { prod_pro: { purchase: pct(15) }, prod_setup: { excluded: true } } } },
      })
      const max = await program.affiliates.create({ email: 'max@example.com', commission: { purchase: pct(50) } })
      expect(max.commission).toEqual({ purchase: pct(50) })
      const buy = async (productId: string) => (await program.conversions.create({ type: 'purchase', affiliateId: max.id, baseValue: '100.00', productId })).conversion
      expect(await buy('prod_pro')).toMatchObject({ value: '50.00', ruleSource: 'affiliate' })
      expect(await buy('prod_setup')).toMatchObject({ value: '0.00', basis: 'excluded', ruleSource: 'product' })
      // Removed: the product rule applies again.
      await program.affiliates.update(max.id, { commission: null })
      expect(await buy('prod_pro')).toMatchObject({ value: '15.00', ruleSource: 'product' })
    })

    it('Per-affiliate rules: bad rules are refused naming the field, and change nothing', async () => {
      const { program } = await context.program({ settings: { currency: 'JPY' } })
      const ann = await program.affiliates.create({ email: 'bad-rules@example.com' })
      const before = await snapshot(program)
      await expectError(program.affiliates.update(ann.id, { commission: { purchase: { type: 'fixed', amount: '1.50' } } }), 'invalid_request', 'commission.purchase.amount')
      await expectError(program.affiliates.update(ann.id, { commission: { purchase: pct(200) } as never }), 'invalid_request', 'commission.purchase.rate')
      await expectError(program.affiliates.update(ann.id, { commission: { purchase: pct(10), recurring: { rate: 5, amount: '5' } } }), 'invalid_request', 'commission.recurring')
      expect(await snapshot(program)).toBe(before)
    })

    it('Provenance: an explicit value records source explicit, even for an excluded product', async () => {
      const { program } = await context.program({ settings: { commission: { purchase: pct(30), products: { prod_setup: { excluded: true } } } } })
      const ann = await program.affiliates.create({ email: 'explicit-rule@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: '50.00', value: '7.00', productId: 'prod_setup' })
      expect(conversion).toMatchObject({ value: '7.00', basis: 'explicit', ruleSource: 'explicit', productId: 'prod_setup' })
      const signup = await program.conversions.create({ type: 'signup', affiliateId: ann.id })
      expect(signup.conversion).toMatchObject({ value: '0.00', basis: 'signup', ruleSource: 'project' })
    })

    it('Precedence: explicit, excluded product, affiliate, product, tier, sub-program, project, each to the cent', async () => {
      const { program } = await context.program({
        settings: {
          commission: { purchase: pct(30), products: { prod_pro: { purchase: pct(15) }, prod_setup: { excluded: true } } },
          subPrograms: { agency: { commission: { purchase: pct(35), tiers: [{ name: 'Gold', minCustomers: 1, purchase: pct(40) }] } } },
        },
      })
      const ann = await program.affiliates.create({ email: 'precedence@example.com', partnerSlug: 'agency' })
      const project = await program.affiliates.create({ email: 'project-rules@example.com' })
      let customer = 0
      const buy = async (productId: string, extra: { value?: string; affiliateId?: number } = {}) => {
        customer += 1
        const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: `p${customer}@example.com`, baseValue: '100.00', productId, ...extra })
        return `${conversion.value} ${conversion.basis} ${conversion.ruleSource}`
      }
      expect(await buy('prod_other', { affiliateId: project.id })).toBe('30.00 purchase project')
      expect(await buy('prod_other')).toBe('35.00 purchase sub_program')
      // Ann's first customer took it to Gold.
      expect(await buy('prod_other')).toBe('40.00 purchase tier')
      expect(await buy('prod_pro')).toBe('15.00 purchase product')
      expect(await buy('prod_setup')).toBe('0.00 excluded product')
      expect(await buy('prod_setup', { value: '7.00' })).toBe('7.00 explicit explicit')
      await program.affiliates.update(ann.id, { commission: { purchase: pct(50), products: { prod_pro: { purchase: pct(45) }, prod_trial: { excluded: true } } } })
      expect(await buy('prod_other')).toBe('50.00 purchase affiliate')
      expect(await buy('prod_pro')).toBe('45.00 purchase affiliate')
      expect(await buy('prod_setup')).toBe('0.00 excluded product')
      expect(await buy('prod_trial')).toBe('0.00 excluded affiliate')
      expect((await program.affiliates.get(ann.id)).earnings.total).toBe('192.00')
    })

    it('Settings changes apply to later conversions only; grandfather keeps the first purchase rules for renewals', async () => {
      const settings = (rate: number, grandfather: boolean) => ({ commission: { purchase: pct(rate), recurring: { rate: rate / 2 }, grandfather } })
      const { program } = await context.program({ settings: settings(30, true) })
      const ann = await program.affiliates.create({ email: 'gf@example.com' })
      const charge = (email: string) => program.conversions.create({ type: 'purchase', affiliateId: ann.id, email, baseValue: '100.00' })
      const first = (await charge('old@example.com')).conversion
      await program.projects.updateSettings(program.projectId, settings(20, true))
      // The earlier conversion keeps its value; the old customer renews at the old recurring rate (15 %), a new one at the new rates.
      expect((await program.conversions.get(first.id)).value).toBe('30.00')
      expect((await charge('old@example.com')).conversion.value).toBe('15.00')
      expect((await charge('new@example.com')).conversion.value).toBe('20.00')
      expect((await charge('new@example.com')).conversion.value).toBe('10.00')
      await program.projects.updateSettings(program.projectId, settings(20, false))
      expect((await charge('old@example.com')).conversion.value).toBe('10.00')
    })

    it('Lines of one payment (paymentId) are one payment: both lines of the first invoice earn the purchase rule', async () => {
      const { program } = await context.program({
        settings: { commission: { purchase: pct(30), recurring: { stages: [{ payments: 1, rate: 40 }, { rate: 20 }] }, products: { prod_addon: { purchase: pct(10) } } } },
      })
      const ann = await program.affiliates.create({ email: 'lines@example.com' })
      const line = async (invoice: string, line: string, productId: string, baseValue: string) =>
        (await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'two@example.com', baseValue, productId, paymentId: invoice, reference: `${invoice}:${line}` })).conversion
      expect(await line('in_1', 'il_a', 'prod_plan', '100.00')).toMatchObject({ value: '30.00', basis: 'purchase' })
      expect(await line('in_1', 'il_b', 'prod_addon', '20.00')).toMatchObject({ value: '2.00', basis: 'purchase' })
      // The next invoice is renewal 1 (40 %) for both its lines, the one after renewal 2 (20 %).
      expect(await line('in_2', 'il_a', 'prod_plan', '100.00')).toMatchObject({ value: '40.00', basis: 'recurring' })
      expect(await line('in_2', 'il_b', 'prod_addon', '20.00')).toMatchObject({ value: '8.00', basis: 'recurring' })
      expect(await line('in_3', 'il_a', 'prod_plan', '100.00')).toMatchObject({ value: '20.00', basis: 'recurring' })
    })

    it('An excluded product is not the customer\'s first purchase: the subscription bought with it is', async () => {
      const { program } = await context.program({
        settings: { commission: { purchase: pct(15), recurring: { rate: 40 }, products: { prod_setup: { excluded: true } } } },
      })
      const ann = await program.affiliates.create({ email: 'setup-first@example.com' })
      const buy = async (productId: string, baseValue: string) => (await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'fee@example.com', baseValue, productId })).conversion
      expect(await buy('prod_setup', '50.00')).toMatchObject({ value: '0.00', basis: 'excluded' })
      expect(await buy('prod_pro', '100.00')).toMatchObject({ value: '15.00', basis: 'purchase' })
      expect(await buy('prod_pro', '100.00')).toMatchObject({ value: '40.00', basis: 'recurring' })
    })

    it('renewals of one customer at the same moment each take their own payment number (stage)', async () => {
      const { program } = await context.program({
        settings: { commission: { purchase: pct(30), recurring: { maxPayments: 5, stages: [{ payments: 2, rate: 40 }, { rate: 20 }] } } },
      })
      const ann = await program.affiliates.create({ email: 'race@example.com' })
      const charge = (n: number) => program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'racer@example.com', baseValue: '100.00', reference: `race-${n}` })
      await charge(0)
      const values = (await Promise.all([1, 2, 3, 4, 5].map(charge))).map((result) => result.conversion.value).sort()
      // Payments 2-3 at 40 %, 4-5 at 20 %, payment 6 past maxPayments.
      expect(values).toEqual(['0.00', '20.00', '20.00', '40.00', '40.00'])
      expect((await program.affiliates.get(ann.id)).earnings.total).toBe('150.00')
    })

    it('refuses malformed rules in settings with 400, naming the field', async () => {
      const { program } = await context.program()
      const bad = async (commission: unknown, field: string) => expectError(program.projects.updateSettings(program.projectId, { commission } as never), 'invalid_request', field)
      await bad({ purchase: pct(10), products: { p: { excluded: false } } }, 'commission.products.p')
      await bad({ purchase: pct(10), products: { p: { purchase: pct(10), bonus: 1 } } }, 'commission.products.p')
      await bad({ purchase: pct(10), recurring: { stages: [{ rate: 40 }, { rate: 20 }] } }, 'commission.recurring.stages')
      await bad({ purchase: pct(10), recurring: { stages: [{ payments: 3, rate: 40, amount: '1.00' }] } }, 'commission.recurring.stages.0')
      await bad({ purchase: pct(10), recurring: { maxPayments: 0 } }, 'commission.recurring.maxPayments')
      await bad({ purchase: pct(10), products: { p: { purchase: { type: 'fixed', amount: '1.001' } } } }, 'commission.products.p.purchase.amount')
    })
  })
}
