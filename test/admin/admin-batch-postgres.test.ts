// Marking a payout batch paid (payouts.createBatch, the admin console's "Mark selected paid")
// while a conversion of that batch is being refunded through another connection: whichever
// wins, the batch is all or nothing and the ledger identities hold (docs/ledger.md):
// total = eligible + held + paid, unpaid = total - paid, total = the earning conversions' sum.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const cents = (amount: string): bigint => {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount)
  if (!match) throw new Error(`not an amount: ${amount}`)
  const value = BigInt(match[2]!) * 100n + BigInt(match[3]!)
  return match[1] ? -value : value
}

describe.skipIf(!DATABASE_URL)(`batch payout racing a refund on PostgreSQL${DATABASE_URL ? '' : ` (${NO_DATABASE_REASON})`}`, () => {
  const schema = freshSchemaName('admin_batch')
  const clock = testClock('2026-02-01T00:00:00Z')
  let payer: AffiliateProgram
  let refunder: AffiliateProgram

  beforeAll(async () => {
    const settings = { currency: 'USD', holdPeriodDays: 30, commission: { purchase: { type: 'percentage' as const, rate: 30 } } }
    payer = await createAffiliateProgram({ storage: postgresStorage({ connectionString: DATABASE_URL!, schema, max: 2 }), clock, settings })
    refunder = await createAffiliateProgram({ storage: postgresStorage({ connectionString: DATABASE_URL!, schema, max: 2 }), clock })
  }, 60_000)

  afterAll(async () => {
    await payer?.close()
    await refunder?.close()
    if (DATABASE_URL) await dropSchema(schema)
  })

  async function identitiesHold(affiliateId: number) {
    const view = await payer.affiliates.get(affiliateId)
    const { total, eligible, held, paid, unpaid } = view.earnings
    expect(cents(total)).toBe(cents(eligible) + cents(held) + cents(paid))
    expect(cents(unpaid)).toBe(cents(total) - cents(paid))
    const conversions = await payer.conversions.list({ affiliateId, limit: 100 })
    const earning = conversions.items.filter((conversion) => conversion.status === 'active' || conversion.status === 'pending')
    expect(cents(total)).toBe(earning.reduce((sum, conversion) => sum + cents(conversion.value), 0n))
  }

  it('keeps the batch all-or-nothing and the identities intact, round after round', async () => {
    const outcomes = new Set<string>()
    for (let round = 0; round < 12; round += 1) {
      const members: Array<{ id: number; refundable: number }> = []
      for (const name of ['ann', 'bob', 'cy']) {
        const affiliate = await payer.affiliates.create({ email: `${name}-${round}@example.com` })
        const first = await payer.conversions.create({ type: 'purchase', affiliateId: affiliate.id, email: `a-${name}-${round}@example.com`, baseValue: 49, reference: `${name}-${round}-1` })
        await payer.conversions.create({ type: 'purchase', affiliateId: affiliate.id, email: `b-${name}-${round}@example.com`, baseValue: 100.1, reference: `${name}-${round}-2` })
        members.push({ id: affiliate.id, refundable: first.conversion.id })
      }
      clock.advance({ days: 31 })
      const batch: Array<{ affiliateId: number; amount: string; method: 'paypal' }> = []
      for (const member of members) batch.push({ affiliateId: member.id, amount: (await payer.affiliates.get(member.id)).earnings.eligible, method: 'paypal' as const })
      const refunded = members[round % 3]!.refundable
      // Alternate which side starts first, so both orders and their overlaps happen.
      const pay = () => payer.payouts.createBatch(batch).then(() => 'paid', (error: Error) => `refused: ${error.message.split(' of ')[0]}`)
      const refund = () => refunder.conversions.update(refunded, { status: 'refunded', reason: 'chargeback' }).then(() => 'refunded')
      const [paidOutcome] = round % 2 === 0 ? await Promise.all([pay(), refund()]) : await Promise.all([refund(), pay()]).then(([a, b]) => [b, a])
      outcomes.add(paidOutcome!)
      const payouts = (await payer.payouts.list({ limit: 200 })).items.filter((payout) => members.some((member) => member.id === payout.affiliateId))
      expect(payouts.length === 0 || payouts.length === 3, `round ${round}: ${payouts.length} payouts`).toBe(true)
      expect(payouts.length === 3).toBe(paidOutcome === 'paid')
      expect((await payer.conversions.get(refunded)).status).toBe('refunded')
      for (const member of members) await identitiesHold(member.id)
    }
    expect([...outcomes].every((outcome) => outcome === 'paid' || outcome.startsWith("refused: amount exceeds the affiliate's unpaid earnings"))).toBe(true)
  }, 120_000)
})
