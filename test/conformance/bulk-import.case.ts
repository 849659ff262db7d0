// program.imports: a chunk of affiliates or conversions written at once must leave exactly what
// the same creates one by one leave (rows, balances, per-day counters), and leave to them what it
// does not write itself.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'

type Program = Awaited<ReturnType<CaseContext['program']>>['program']

const affiliateInputs = [
  { email: 'Ann@Example.com', name: 'Ann', referralCode: 'ann-1', customFields: { importedFrom: 'tool:1' } },
  { email: 'bob@example.com', status: 'inactive' as const, referralCode: 'bob-1' },
  { email: 'cat@example.com', paypalEmail: 'cat.pay@example.com', payoutMethod: 'paypal' as const },
]

/** Sales of the affiliates by index: paid or not, over two days, one of them with a project hold. */
const sales = (ids: number[]) => [
  { i: 0, value: '10.00', base: '100.00', paid: true, at: '2026-02-01T10:00:00Z' },
  { i: 0, value: '2.50', base: '25.00', paid: false, at: '2026-02-01T23:30:00Z' },
  { i: 2, value: '7.01', base: '70.10', paid: false, at: '2026-02-02T08:00:00Z' },
  { i: 2, value: '0.99', base: '9.90', paid: true, at: '2026-02-20T08:00:00Z' },
].map(({ i, value, base, paid, at }, k) => ({ type: 'purchase' as const, affiliateId: ids[i]!, value, baseValue: base, baseValueCurrency: 'USD', paid, reference: `import:tool:${k}`, occurredAt: new Date(at) }))

async function state(program: Program, emails: string[]) {
  const affiliates = await Promise.all(emails.map((email) => program.affiliates.get(email)))
  const conversions = (await program.conversions.list({ limit: 100 })).items
  return {
    affiliates: affiliates.map(({ id: _id, createdAt: _at, referralCode: _code, ...rest }) => rest),
    conversions: conversions.map(({ id: _id, affiliateId, ...rest }) => ({ ...rest, affiliate: affiliates.findIndex((a) => a.id === affiliateId) })),
    stats: await program.stats.program({ from: '2026-01-31', to: '2026-02-22' }),
    ann: await program.stats.affiliate('ann@example.com', { from: '2026-01-31', to: '2026-02-03' }),
  }
}

export function bulkImportCases(context: CaseContext): void {
  describe('bulk import writes', () => {
    it('a chunk written at once leaves what creates one by one leave: rows, balances, per-day counters; a second write of it writes nothing', async () => {
      const settings = { currency: 'USD', holdPeriodDays: 10, timeZone: 'Europe/Paris' }
      const bulk = await context.program({ settings })
      const single = await context.program({ settings })
      for (const { clock } of [bulk, single]) clock.set('2026-02-25T00:00:00Z')

      const created = await bulk.program.imports.createAffiliates(affiliateInputs)
      expect(created.map((affiliate) => affiliate && !(affiliate instanceof Error) && affiliate.email)).toEqual(['ann@example.com', 'bob@example.com', 'cat@example.com'])
      const bulkIds = created.map((affiliate) => (affiliate as { id: number }).id)
      const singleIds: number[] = []
      for (const input of affiliateInputs) singleIds.push((await single.program.affiliates.create(input)).id)

      const inputs = sales(bulkIds)
      const conversions = await bulk.program.imports.createConversions(inputs)
      expect(conversions.every((conversion) => conversion !== null && !(conversion instanceof Error))).toBe(true)
      for (const input of sales(singleIds)) await single.program.conversions.create(input)

      const emails = affiliateInputs.map(({ email }) => email.toLowerCase())
      const written = await state(bulk.program, emails)
      expect(written).toEqual(await state(single.program, emails))
      expect(written.affiliates[0]!.earnings).toMatchObject({ total: '12.50', paid: '10.00', unpaid: '2.50' })

      // Again: references and emails are taken, nothing is written twice; create answers them as duplicates.
      expect(await bulk.program.imports.createConversions(inputs)).toEqual(inputs.map(() => null))
      expect(await bulk.program.imports.createAffiliates(affiliateInputs)).toEqual(affiliateInputs.map(() => null))
      expect((await bulk.program.conversions.create(inputs[0]!)).duplicate).toBe(true)
      expect(await state(bulk.program, emails)).toEqual(written)
      const earnings = await bulk.program.imports.earnings(bulkIds)
      expect(earnings.get(bulkIds[0]!)).toEqual({ email: 'ann@example.com', total: '12.50', unpaid: '2.50' })
    })

    it('leaves to create what it does not write: a taken email or code (an alias too), a repeat in the chunk, an affiliate not active or of another project, a customer, webhooks', async () => {
      const { program } = await context.program({ settings: { currency: 'USD', holdPeriodDays: 0 } })
      const other = (await context.program()).program
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      await program.affiliates.addAlias(ann.id, 'ann-old')
      const stranger = await other.affiliates.create({ email: 'x@example.com' })

      const affiliates = await program.imports.createAffiliates([
        { email: 'ann@example.com' },
        { email: 'bob@example.com', referralCode: 'ANN-OLD' },
        { email: 'cat@example.com', referralCode: 'cat' },
        { email: 'cat@example.com', referralCode: 'cat-2' },
        { email: 'dan@example.com', referralCode: 'CAT' },
        { email: 'eve@example.com', status: 'inactive' },
        { email: 'not an email' },
      ])
      expect(affiliates.slice(0, 5).map((affiliate) => affiliate && !(affiliate instanceof Error) && affiliate.email)).toEqual([null, null, 'cat@example.com', null, null])
      expect(affiliates[6]).toMatchObject({ code: 'invalid_request', field: 'email' })
      const eve = affiliates[5] as { id: number }
      expect((await program.affiliates.list()).total).toBe(3)

      const sale = (affiliateId: number, reference: string, extra = {}) => ({ type: 'purchase' as const, affiliateId, value: '1.00', baseValue: '10.00', reference, ...extra })
      const results = await program.imports.createConversions([
        sale(ann.id, 'r1'),
        sale(ann.id, 'r1'),
        sale(eve.id, 'r2'),
        sale(stranger.id, 'r3'),
        sale(ann.id, 'r4', { email: 'customer@example.com' }),
        sale(ann.id, 'r5', { baseValueCurrency: 'EUR' }),
        { type: 'purchase' as const, affiliateId: ann.id, value: 'ten', baseValue: '10.00', reference: 'r6' },
      ])
      expect(results.slice(0, 6).map((result) => result && !(result instanceof Error) && result.reference)).toEqual(['r1', null, null, null, null, null])
      expect(results[6]).toMatchObject({ code: 'invalid_request', field: 'value' })
      expect((await program.conversions.list()).total).toBe(1)
      expect((await program.affiliates.get(ann.id)).earnings).toMatchObject({ total: '1.00', unpaid: '1.00' })

      await program.webhooks.create({ url: 'https://hooks.example.com/a', events: ['payout.created'] })
      expect(await program.imports.createConversions([sale(ann.id, 'r7')])).toEqual([null])
    })
  })
}
