// The ledger as of a date after an upgrade (docs/payouts.md "Upgrading"): a database written by a
// release before the movements existed opens with them backfilled, so that as-of reads of now
// equal the balances the program shows, and the export since the start sums to them. On PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest'
import { createAffiliateProgram, testClock } from '../../../src/index.js'
import { migrateTo, places } from '../../support/sql/earlier-release.js'

const cents = (text: string): bigint => BigInt(text.replace('.', ''))

describe.each(places)('ledger movements after an upgrade: $name', ({ skip, make }) => {
  it.skipIf(skip !== undefined)('backfills opening movements so as-of reads equal the balances', async () => {
    const { schema: s, exec, open, cleanup } = await make()
    try {
      await migrateTo(exec, s, 13)
      const projectId = 'upgraded'
      await exec(`INSERT INTO ${s}.projects (id, name, settings, created_at) VALUES ($1, $1, $2::jsonb, '2026-01-01T00:00:00Z')`, [projectId, JSON.stringify({ currency: 'USD', holdPeriodDays: 10, commission: { purchase: { type: 'percentage', rate: 30 } } })])
      // 30.00 paid by a payout of 35.00 (5.00 left as credit), 12.00 unpaid past its hold, 9.00 held, 6.00 refunded.
      const [affiliate] = await exec(
        `INSERT INTO ${s}.affiliates (project_id, email, referral_code, status, created_at, counted_value_minor, paid_value_minor, credit_minor)
         VALUES ($1, 'old@example.com', 'OLD', 'active', '2026-01-01T00:00:00Z', 5100, 3000, 500) RETURNING id`,
        [projectId],
      )
      const conversion = (value: number, status: string, paid: boolean, at: string, holdUntil: string) =>
        exec(
          `INSERT INTO ${s}.conversions (project_id, affiliate_id, type, value_minor, refunded_base_value_minor, paid, status, hold_until, basis, commission_type, tier, created_at)
           VALUES ($1, $2, 'purchase', $3, 0, $4, $5, $6, 'purchase', 'percentage', 1, $7)`,
          [projectId, affiliate!.id, value, paid, status, holdUntil, at],
        )
      await conversion(3000, 'active', true, '2026-01-02T00:00:00Z', '2026-01-12T00:00:00Z')
      await conversion(1200, 'active', false, '2026-01-03T00:00:00Z', '2026-01-13T00:00:00Z')
      await conversion(600, 'refunded', false, '2026-01-04T00:00:00Z', '2026-01-14T00:00:00Z')
      await conversion(900, 'active', false, '2026-01-20T00:00:00Z', '2026-01-30T00:00:00Z')
      const program = await createAffiliateProgram({ storage: open(), clock: testClock('2026-01-25T00:00:00Z'), project: projectId })
      const { earnings } = await program.affiliates.get('old@example.com')
      expect(earnings).toMatchObject({ total: '51.00', paid: '35.00', credit: '5.00', unpaid: '16.00', eligible: '7.00', held: '9.00' })
      // The upgrade is now (the credit opens then): read a moment after it.
      const now = new Date(Date.now() + 60_000)
      const asOf = await program.ledger.balances('old@example.com', now)
      expect(asOf).toMatchObject({ total: earnings.total, paid: earnings.paid, credit: earnings.credit, unpaid: earnings.unpaid, eligible: '16.00', held: '0.00' })
      const movements = await program.ledger.movements({ from: '2025-12-31T00:00:00Z', to: now.toISOString() })
      expect(movements.filter((movement) => movement.type === 'opening')).toHaveLength(4)
      expect(movements.reduce((sum, movement) => sum + cents(movement.amount), 0n)).toBe(cents(earnings.unpaid))
      await program.close()
    } finally {
      await cleanup()
    }
  }, 60_000)
})
