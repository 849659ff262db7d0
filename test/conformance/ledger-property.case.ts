// Property: random sequences of create / refund / review / mark-paid / payout / delete /
// advance-clock keep the balance identities of docs/ledger.md after every step.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram } from '../../src/index.js'
import type { CaseContext } from './harness.js'

type Op =
  | { kind: 'create'; affiliate: number; type: 'purchase' | 'signup'; cents: number; paid: boolean }
  | { kind: 'refund'; pick: number; partialCents: number | null }
  | { kind: 'status'; pick: number; to: 'review' | 'active' | 'rejected' }
  | { kind: 'paid'; pick: number; paid: boolean }
  | { kind: 'payout'; affiliate: number; permille: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'advance'; days: number }

const affiliateIndex = fc.integer({ min: 0, max: 1 })
const pick = fc.nat()
export const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), affiliate: affiliateIndex, type: fc.constantFrom('purchase' as const, 'signup' as const), cents: fc.integer({ min: 0, max: 50_000 }), paid: fc.integer({ min: 0, max: 4 }).map((roll) => roll === 0) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick, partialCents: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('status' as const), pick, to: fc.constantFrom('review' as const, 'active' as const, 'rejected' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('paid' as const), pick, paid: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('payout' as const), affiliate: affiliateIndex, permille: fc.integer({ min: 1, max: 1200 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 20 }) }) },
)

const cents = (text: string): bigint => BigInt(text.replace('.', ''))
const money = (minor: bigint): string => {
  const negative = minor < 0n
  const digits = (negative ? -minor : minor).toString().padStart(3, '0')
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`
}

/**
 * An independent oracle: money handed to each affiliate (payouts, plus conversions marked paid by
 * hand while counted, minus hand marks undone). Clawbacks keep it in credit, so `paid` equals it.
 */
export type PaidModel = Map<number, bigint>

async function checkIdentities(program: AffiliateProgram, affiliateId: number, model: PaidModel, at: Date): Promise<bigint> {
  const view = await program.affiliates.get(affiliateId)
  const { items } = await program.conversions.list({ affiliateId, limit: 100 })
  const counted = items.filter((item) => item.status === 'pending' || item.status === 'active')
  const sum = (list: typeof items) => list.reduce((total, item) => total + cents(item.value), 0n)
  const e = view.earnings
  const credit = cents(e.credit)
  const unpaidEligible = sum(counted.filter((item) => !item.paid && item.status === 'active'))
  const unpaidHeld = sum(counted.filter((item) => !item.paid && item.status === 'pending'))
  expect(cents(e.total)).toBe(sum(counted))
  expect(cents(e.paid)).toBe(sum(counted.filter((item) => item.paid)) + credit)
  expect(cents(e.unpaid)).toBe(cents(e.total) - cents(e.paid))
  expect(cents(e.eligible) + cents(e.held)).toBe(cents(e.unpaid))
  expect(credit >= 0n).toBe(true)
  expect(cents(e.paid)).toBe(model.get(affiliateId) ?? 0n)
  expect(cents(e.eligible)).toBe(unpaidEligible > credit ? unpaidEligible - credit : 0n)
  expect(cents(e.held)).toBe(unpaidHeld - (credit > unpaidEligible ? credit - unpaidEligible : 0n))
  // payable <= eligible (docs/payouts.md), read as of now; it is what GET /payouts/due lists (no minimum here).
  const asOf = await program.ledger.balances(affiliateId, at)
  expect(cents(asOf.payable) <= cents(asOf.eligible)).toBe(true)
  const due = (await program.payouts.due()).find((entry) => entry.affiliateId === affiliateId)
  expect([asOf.eligible, asOf.payable]).toEqual([e.eligible, due?.amount ?? '0.00'])
  return cents(e.unpaid)
}

export async function apply(
  program: AffiliateProgram,
  affiliates: number[],
  conversions: number[],
  step: Op,
  advance: (days: number) => void,
  model: PaidModel,
) {
  const target = (index: number) => conversions[index % Math.max(conversions.length, 1)]
  const credit = (affiliateId: number, amount: bigint) => model.set(affiliateId, (model.get(affiliateId) ?? 0n) + amount)
  switch (step.kind) {
    case 'create': {
      const { conversion } = await program.conversions.create({
        type: step.type,
        affiliateId: affiliates[step.affiliate]!,
        baseValue: money(BigInt(step.cents)),
        paid: step.paid,
      })
      conversions.push(conversion.id)
      if (conversion.paid) credit(conversion.affiliateId, cents(conversion.value))
      return
    }
    case 'refund': {
      const id = target(step.pick)
      if (id === undefined) return
      await program.conversions.update(id, step.partialCents === null ? { status: 'refunded' } : { refundAmount: money(BigInt(step.partialCents)) })
      return
    }
    case 'status': {
      const id = target(step.pick)
      if (id === undefined) return
      await program.conversions.update(id, { status: step.to })
      return
    }
    case 'paid': {
      const id = target(step.pick)
      if (id === undefined) return
      const before = await program.conversions.get(id)
      await program.conversions.update(id, { paid: step.paid })
      const counted = before.status === 'pending' || before.status === 'active'
      if (counted && step.paid && !before.paid) credit(before.affiliateId, cents(before.value))
      if (counted && !step.paid && before.paid && before.paidByPayoutId === null) credit(before.affiliateId, -cents(before.value))
      return
    }
    case 'payout': {
      const affiliateId = affiliates[step.affiliate]!
      const unpaid = cents((await program.affiliates.get(affiliateId)).earnings.unpaid)
      const amount = (unpaid * BigInt(step.permille)) / 1000n
      if (amount <= 0n) return
      const attempt = program.payouts.create({ affiliateId, amount: money(amount) })
      if (amount > unpaid) {
        await expect(attempt).rejects.toMatchObject({ code: 'invalid_request', field: 'amount' })
      } else {
        expect((await attempt).unpaidAfter).toBe(money(unpaid - amount))
        credit(affiliateId, amount)
      }
      return
    }
    case 'delete': {
      const id = target(step.pick)
      if (id === undefined) return
      await program.conversions.delete(id)
      conversions.splice(conversions.indexOf(id), 1)
      return
    }
    case 'advance':
      advance(step.days)
  }
}

export function ledgerPropertyCases(context: CaseContext): void {
  describe('ledger identities (property)', () => {
    const commission = { purchase: { type: 'percentage' as const, rate: 33.3 }, signup: { amount: '0.50' } }
    // Without a hold, payouts settle conversions at once (fast-check's small clock moves rarely end a hold).
    it.each([
      ['a 14-day hold', { holdPeriodDays: 14, commission }],
      ['no hold', { holdPeriodDays: 0, commission }],
    ])('hold after every step of random operation sequences (%s)', async (_name, settings) => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (steps) => {
          const { program, clock } = await context.program({ settings })
          const affiliates = [
            (await program.affiliates.create({ email: 'p1@example.com' })).id,
            (await program.affiliates.create({ email: 'p2@example.com' })).id,
          ]
          const conversions: number[] = []
          const model: PaidModel = new Map()
          for (const step of steps) {
            try {
              await apply(program, affiliates, conversions, step, (days) => clock.advance({ days }), model)
            } catch (error) {
              // Refused changes (final statuses, paid values, refunds beyond the base) are expected.
              const code = (error as { code?: string }).code
              if (code !== 'conflict' && code !== 'invalid_request') throw error
            }
            for (const affiliateId of affiliates) await checkIdentities(program, affiliateId, model, clock.now())
          }
        }),
        { numRuns: 30 },
      )
    })
  })
}
