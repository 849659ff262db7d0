// The performance tier and bonus examples of docs/commissions.md, figure for figure: a Gold tier
// reached mid-month (the next conversion earns Gold's rate, earlier ones keep theirs), held through
// the next month and dropped after a quiet one; a customers bonus paid once per period and kept
// through a refund.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError, recordAllEvents, recordedEvents } from './helpers.js'

const pct = (rate: number) => ({ type: 'percentage' as const, rate })

export function tiersBonusesCases(context: CaseContext): void {
  describe('performance tiers and bonuses (docs/commissions.md worked examples)', () => {
    it('Tiers: Gold reached mid-month, the next conversion earns 40 %, earlier ones keep 30 %, dropped after a quiet month', async () => {
      const { program, clock, storage } = await context.program({
        settings: { commission: { purchase: pct(30), tiers: [{ name: 'Gold', minRevenue: '1000.00', purchase: pct(40) }], tierPeriod: 'month' } },
      })
      await recordAllEvents(program)
      const ann = await program.affiliates.create({ email: 'tiers@example.com' })
      const buy = async (at: string, email: string, baseValue: string) => {
        clock.set(at)
        return (await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email, baseValue })).conversion
      }
      const first = await buy('2026-01-05T12:00:00Z', 'a@example.com', '600.00')
      expect(first).toMatchObject({ value: '180.00', ruleSource: 'project' })
      expect((await program.affiliates.get(ann.id)).tier).toBeNull()
      const crossing = await buy('2026-01-15T12:00:00Z', 'b@example.com', '500.00')
      expect(crossing).toMatchObject({ value: '150.00', ruleSource: 'project' })
      expect((await program.affiliates.get(ann.id)).tier).toBe('Gold')
      expect(await buy('2026-01-20T12:00:00Z', 'c@example.com', '100.00')).toMatchObject({ value: '40.00', ruleSource: 'tier', commissionRate: '40' })
      // February: January closed at 1,100.00, Gold holds.
      clock.set('2026-02-10T12:00:00Z')
      expect(await program.conversions.preview({ type: 'purchase', affiliateId: ann.id, baseValue: '100.00' })).toMatchObject({ value: '40.00', ruleSource: 'tier' })
      // March: February closed with nothing, Gold is gone.
      expect(await buy('2026-03-03T12:00:00Z', 'd@example.com', '100.00')).toMatchObject({ value: '30.00', ruleSource: 'project' })
      const values = (await program.conversions.list({ affiliateId: ann.id })).items.map((conversion) => conversion.value).sort()
      expect(values).toEqual(['150.00', '180.00', '30.00', '40.00'])
      const after = await program.affiliates.get(ann.id)
      expect(after.tier).toBeNull()
      expect(after.earnings.total).toBe('400.00')
      const changes = (await recordedEvents(storage, program)).filter((event) => event.type === 'affiliate.tier_changed')
      expect(changes.map((event) => event.body.tier)).toEqual([
        { from: null, to: 'Gold', period: 'month', changed_at: '2026-01-15T12:00:00.000Z' },
        { from: 'Gold', to: null, period: 'month', changed_at: '2026-03-03T12:00:00.000Z' },
      ])
    })

    it('Tiers: a lifetime period counts every month since the first, and the tier never drops', async () => {
      const { program, clock } = await context.program({
        settings: { commission: { purchase: pct(30), tiers: [{ name: 'Gold', minRevenue: '1000.00', purchase: pct(40) }], tierPeriod: 'lifetime' } },
      })
      const cy = await program.affiliates.create({ email: 'lifetime@example.com' })
      const buy = async (at: string, email: string, baseValue: string) => {
        clock.set(at)
        return (await program.conversions.create({ type: 'purchase', affiliateId: cy.id, email, baseValue })).conversion.value
      }
      // 600.00 in 2025 and 500.00 in 2026 reach Gold together; a quiet year later it holds.
      expect(await buy('2025-03-01T12:00:00Z', 'a@example.com', '600.00')).toBe('180.00')
      expect(await buy('2026-02-01T12:00:00Z', 'b@example.com', '500.00')).toBe('150.00')
      expect((await program.affiliates.get(cy.id)).tier).toBe('Gold')
      expect(await buy('2027-06-01T12:00:00Z', 'c@example.com', '100.00')).toBe('40.00')
    })

    it('Tiers: the tier with more customers wins; a quarter period holds it through the quarter', async () => {
      const { program, clock } = await context.program({
        settings: {
          commission: {
            purchase: pct(30),
            tiers: [{ name: 'Silver', minCustomers: 2, purchase: pct(35) }, { name: 'Platinum', minCustomers: 3, purchase: { type: 'fixed', amount: '20.00' } }],
            tierPeriod: 'quarter',
          },
        },
      })
      const bob = await program.affiliates.create({ email: 'quarter@example.com' })
      const buy = async (at: string, email: string) => {
        clock.set(at)
        return (await program.conversions.create({ type: 'purchase', affiliateId: bob.id, email, baseValue: '100.00' })).conversion.value
      }
      // A renewal is not a new customer: 2 customers after 3 payments.
      expect([await buy('2026-01-02T00:00:00Z', 'x@example.com'), await buy('2026-01-03T00:00:00Z', 'x@example.com'), await buy('2026-02-01T00:00:00Z', 'y@example.com')]).toEqual(['30.00', '30.00', '30.00'])
      expect(await buy('2026-03-01T00:00:00Z', 'z@example.com')).toBe('35.00')
      expect(await buy('2026-03-31T00:00:00Z', 'w@example.com')).toBe('20.00')
      expect((await program.affiliates.get(bob.id)).tier).toBe('Platinum')
    })

    it('Bonuses: 50.00 once at the third customer of a month, kept through a refund, again the next month', async () => {
      const { program, clock, storage } = await context.program({
        settings: { commission: { purchase: pct(30), bonuses: [{ name: 'Three customers', customers: 3, amount: '50.00', period: 'month' }] } },
      })
      await recordAllEvents(program)
      const cat = await program.affiliates.create({ email: 'bonus@example.com' })
      const buy = async (at: string, email: string) => {
        clock.set(at)
        return (await program.conversions.create({ type: 'purchase', affiliateId: cat.id, email, baseValue: '10.00' })).conversion
      }
      const refunded = await buy('2026-01-02T00:00:00Z', 'c1@example.com')
      await buy('2026-01-03T00:00:00Z', 'c1@example.com')
      await buy('2026-01-04T00:00:00Z', 'c2@example.com')
      expect((await program.conversions.list({ affiliateId: cat.id, type: 'bonus' })).total).toBe(0)
      await buy('2026-01-05T00:00:00Z', 'c3@example.com')
      await buy('2026-01-06T00:00:00Z', 'c4@example.com')
      const january = (await program.conversions.list({ affiliateId: cat.id, type: 'bonus' })).items
      expect(january).toHaveLength(1)
      expect(january[0]).toMatchObject({ type: 'bonus', value: '50.00', basis: 'bonus', ruleSource: 'project', status: 'active', reference: `bonus:${cat.id}:Three customers:2026-01-01` })
      expect((await program.affiliates.get(cat.id)).earnings.total).toBe('65.00')
      await program.conversions.update(refunded.id, { status: 'refunded' })
      expect((await program.affiliates.get(cat.id)).earnings.total).toBe('62.00')
      expect((await program.conversions.get(january[0]!.id)).status).toBe('active')
      for (const [day, email] of [['02', 'd1'], ['03', 'd2'], ['04', 'd3']] as const) await buy(`2026-02-${day}T00:00:00Z`, `${email}@example.com`)
      expect((await program.conversions.list({ affiliateId: cat.id, type: 'bonus' })).total).toBe(2)
      expect((await program.affiliates.get(cat.id)).earnings.total).toBe('121.00')
      const converted = (await recordedEvents(storage, program)).filter((event) => event.type === 'referral_converted')
      expect(converted.filter((event) => (event.body.conversion as { order_id: string }).order_id.startsWith('bonus:'))).toHaveLength(2)
    })

    it('Bonuses: a revenue milestone; settings refuse a bonus with both or neither milestone', async () => {
      const { program } = await context.program({
        settings: { commission: { purchase: pct(10), bonuses: [{ name: 'Big month', revenue: '1000.00', amount: '25.00', period: 'month' }] } },
      })
      const dan = await program.affiliates.create({ email: 'revenue@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: dan.id, baseValue: '999.99' })
      expect((await program.affiliates.get(dan.id)).earnings.total).toBe('100.00')
      await program.conversions.create({ type: 'purchase', affiliateId: dan.id, baseValue: '0.01' })
      expect((await program.affiliates.get(dan.id)).earnings.total).toBe('125.00')
      await expectError(program.projects.updateSettings(program.projectId, { commission: { purchase: pct(10), bonuses: [{ name: 'x', amount: '1.00', period: 'month' }] } }), 'invalid_request', 'commission.bonuses.0')
      await expectError(program.projects.updateSettings(program.projectId, { commission: { purchase: pct(10), tiers: [{ name: 'Gold' }] } }), 'invalid_request', 'commission.tiers.0')
      await expectError(program.projects.updateSettings(program.projectId, { commission: { purchase: pct(10), tiers: [{ name: 'Gold', minRevenue: '1.001' }] } }), 'invalid_request', 'commission.tiers.0.minRevenue')
    })

    it('Bonuses: 20 concurrent conversions crossing the milestone pay one bonus and announce one tier change (several connections on PostgreSQL)', async () => {
      const { program, clock, storage } = await context.program({
        settings: {
          commission: {
            purchase: pct(10),
            tiers: [{ name: 'Gold', minCustomers: 10, purchase: pct(20) }],
            bonuses: [{ name: 'Ten customers', customers: 10, amount: '100.00', period: 'month' }],
          },
        },
      })
      await recordAllEvents(program)
      clock.set('2026-04-10T00:00:00Z')
      const eve = await program.affiliates.create({ email: 'concurrent@example.com' })
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, index) => program.conversions.create({ type: 'purchase', affiliateId: eve.id, email: `buyer${index}@example.com`, baseValue: '100.00' })),
      )
      expect(created.every((result) => !result.duplicate)).toBe(true)
      const bonuses = (await program.conversions.list({ affiliateId: eve.id, type: 'bonus' })).items
      expect(bonuses.map((bonus) => bonus.value)).toEqual(['100.00'])
      const events = await recordedEvents(storage, program)
      expect(events.filter((event) => event.type === 'affiliate.tier_changed')).toHaveLength(1)
      const purchases = created.map((result) => result.conversion.value)
      const total = purchases.reduce((sum, value) => sum + Math.round(Number(value) * 100), 0) + 10_000
      expect((await program.affiliates.get(eve.id)).earnings.total).toBe((total / 100).toFixed(2))
      // Ten purchases at least came before Gold: at most ten earned its 20 %.
      expect(purchases.filter((value) => value === '20.00').length).toBeLessThanOrEqual(10)
    })
  })
}
