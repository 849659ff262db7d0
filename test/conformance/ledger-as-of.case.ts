// Property (docs/payouts.md "The ledger as of a date"): random histories replayed, the balances
// read after each step are what an as-of read of that moment answers later, and the ledger export
// of any period explains the change of each affiliate's unpaid balance over it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram } from '../../src/index.js'
import type { CaseContext } from './harness.js'
import { apply, op, type PaidModel } from './ledger-property.case.js'

const cents = (text: string): bigint => BigInt(text.replace('.', ''))

const zeroBalances = { total: '0.00', held: '0.00', eligible: '0.00', payable: '0.00', paid: '0.00', credit: '0.00', unpaid: '0.00' }

interface Recorded {
  at: Date
  affiliateId: number
  balances: { total: string; held: string; eligible: string; payable: string; paid: string; credit: string; unpaid: string }
}

/** The balances the program shows now; payable is what GET /payouts/due lists (no minimum here). */
async function liveBalances(program: AffiliateProgram, affiliateId: number, at: Date): Promise<Recorded> {
  const { earnings } = await program.affiliates.get(affiliateId)
  const due = (await program.payouts.due()).find((entry) => entry.affiliateId === affiliateId)
  return {
    at,
    affiliateId,
    balances: { total: earnings.total, held: earnings.held, eligible: earnings.eligible, payable: due?.amount ?? '0.00', paid: earnings.paid, credit: earnings.credit, unpaid: earnings.unpaid },
  }
}

export function ledgerAsOfCases(context: CaseContext): void {
  describe('ledger as of a date: money paid out is not payable', () => {
    it('a payout of the whole balance leaves nothing payable, for the affiliate and in the program totals', async () => {
      const { program, clock } = await context.program({ settings: { holdPeriodDays: 30 } })
      clock.set('2026-01-05T10:00:00Z')
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 500 }) // 150.00
      clock.advance({ days: 70 })
      await program.payouts.create({ affiliateId: ann.id, amount: '150.00' })
      const now = clock.now()
      expect(await program.ledger.balances('ann@example.com', now)).toMatchObject({ total: '150.00', eligible: '0.00', payable: '0.00', paid: '150.00', unpaid: '0.00' })
      expect((await program.ledger.programBalances(now)).totals).toMatchObject({ eligible: '0.00', payable: '0.00', paid: '150.00' })
    })

    it('under payout terms, a paid conversion leaves payable the unpaid ones past their payable day only', async () => {
      const { program, clock } = await context.program({ settings: { holdPeriodDays: 0, payouts: { termsDays: 0 } } })
      clock.set('2026-01-05T10:00:00Z')
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 100 }) // 30.00, payable Feb 1
      clock.set('2026-02-10T10:00:00Z')
      await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 200 }) // 60.00, payable Mar 1
      clock.set('2026-02-11T10:00:00Z')
      await program.payouts.create({ affiliateId: ann.id, amount: '30.00' }) // settles the first
      const now = clock.now()
      expect(await program.ledger.balances(ann.id, now)).toMatchObject({ eligible: '60.00', payable: '0.00', paid: '30.00' })
      expect(await program.payouts.due()).toEqual([])
      expect(await program.ledger.balances(ann.id, new Date('2026-03-01T00:00:00Z'))).toMatchObject({ eligible: '60.00', payable: '60.00' })
    })
  })

  describe('ledger as of a date (property)', () => {
    it('every as-of read equals the balances recorded at that moment, and the ledger export sums to them', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 18 }), async (steps) => {
          const { program, clock } = await context.program({
            settings: { holdPeriodDays: 14, payouts: { termsDays: 3 }, commission: { purchase: { type: 'percentage', rate: 33.3 }, signup: { amount: '0.50' } } },
          })
          clock.set('2026-01-20T12:00:00Z')
          const start = clock.now()
          clock.advance({ seconds: 1 })
          const affiliates = [(await program.affiliates.create({ email: 'p1@example.com' })).id, (await program.affiliates.create({ email: 'p2@example.com' })).id]
          const conversions: number[] = []
          const model: PaidModel = new Map()
          const recorded: Recorded[] = []
          for (const step of steps) {
            clock.advance({ seconds: 1 })
            try {
              await apply(program, affiliates, conversions, step, (days) => clock.advance({ days }), model)
            } catch (error) {
              const code = (error as { code?: string }).code
              if (code !== 'conflict' && code !== 'invalid_request') throw error
            }
            for (const affiliateId of affiliates) recorded.push(await liveBalances(program, affiliateId, clock.now()))
          }
          clock.advance({ days: 400 })
          for (const entry of recorded) {
            const { asOf: _asOf, currency: _currency, ...asOf } = await program.ledger.balances(entry.affiliateId, entry.at)
            expect(asOf, `as of ${entry.at.toISOString()}`).toEqual(entry.balances)
          }
          await expect(program.ledger.balances(affiliates[0]!, start)).rejects.toMatchObject({ code: 'not_found' })
          // The program's balances at a moment: each affiliate's as recorded, and their sum.
          for (const at of [...new Set(recorded.map((entry) => entry.at.getTime()))].slice(-3)) {
            const program_ = await program.ledger.programBalances(new Date(at))
            const then = recorded.filter((entry) => entry.at.getTime() === at)
            for (const entry of then) {
              const row = program_.affiliates.find((candidate) => candidate.affiliateId === entry.affiliateId)
              // An affiliate whose ledger never moved by then has no row: all its balances are 0.
              const { asOf: _asOf, currency: _currency, affiliateId: _id, affiliateEmail: _email, ...shown } = row ?? { asOf: null, currency: null, affiliateId: null, affiliateEmail: null, ...zeroBalances }
              expect(shown).toEqual(entry.balances)
            }
            const sum = (key: 'unpaid' | 'payable') => then.reduce((total, entry) => total + cents(entry.balances[key]), 0n)
            expect([cents(program_.totals.unpaid), cents(program_.totals.payable)]).toEqual([sum('unpaid'), sum('payable')])
          }
          // Period by period, and the whole history: unpaid(from) + movements(from, to] = unpaid(to).
          const moments = [...new Set(recorded.map((entry) => entry.at.getTime()))].map((time) => new Date(time))
          const periods: Array<[Date, Date]> = moments.slice(1).map((to, index) => [moments[index]!, to])
          if (moments.length > 1) periods.push([moments[0]!, moments.at(-1)!])
          const unpaidAt = (affiliateId: number, at: Date) => cents(recorded.find((entry) => entry.affiliateId === affiliateId && entry.at.getTime() === at.getTime())!.balances.unpaid)
          for (const [from, to] of periods) {
            const movements = await program.ledger.movements({ from: from.toISOString(), to: to.toISOString() })
            for (const movement of movements) expect(movement.at > from && movement.at <= to).toBe(true)
            // A hold ending moves money from held to eligible: what is owed does not change.
            for (const release of movements.filter((movement) => movement.type === 'release')) expect(release.amount).toBe('0.00')
            for (const affiliateId of affiliates) {
              const moved = movements.filter((movement) => movement.affiliateId === affiliateId).reduce((sum, movement) => sum + cents(movement.amount), 0n)
              expect(unpaidAt(affiliateId, from) + moved).toBe(unpaidAt(affiliateId, to))
            }
          }
        }),
        { numRuns: 12 },
      )
    }, 120_000)
  })
}
