// Stats over time after an upgrade show the history stored before the per-day counters existed.
// Each database is written as an earlier release wrote it: its migrations only, its rows by SQL,
// and the counters it kept (none before migration 7; since then, each event counted as written).
// Then this release opens it, and GET /stats and GET /affiliates/{email}/stats read, day by day,
// what the stored rows say, counted once. On PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest'
import { createHandler } from '../../../src/http/index.js'
import { createAffiliateProgram, type StoragePort } from '../../../src/index.js'
import { migrateTo, places, type Exec } from '../../support/sql/earlier-release.js'

/** Rows as the earlier release inserted them. */
function writer(exec: Exec, s: string, projectId: string) {
  const id = async (text: string, params: unknown[]) => Number((await exec(`${text} RETURNING id`, params))[0]!.id)
  return {
    affiliate: (email: string, code: string, parentId: number | null = null) =>
      id(`INSERT INTO ${s}.affiliates (project_id, email, referral_code, status, parent_id, created_at) VALUES ($1, $2, $3, 'active', $4, '2026-01-01T00:00:00Z')`, [
        projectId,
        email,
        code,
        parentId,
      ]),
    click: (affiliateId: number, at: string) =>
      id(`INSERT INTO ${s}.clicks (project_id, affiliate_id, created_at) VALUES ($1, $2, $3)`, [projectId, affiliateId, at]),
    referral: (affiliateId: number | null, email: string, at: string) =>
      id(`INSERT INTO ${s}.referrals (project_id, email, affiliate_id, conversion_status, created_at) VALUES ($1, $2, $3, 'pending', $4)`, [
        projectId,
        email,
        affiliateId,
        at,
      ]),
    conversion: (affiliateId: number, at: string, row: { value: string; base?: string; refunded?: string; currency?: string; status?: string; tier?: number; parent?: number; type?: string }) =>
      id(
        `INSERT INTO ${s}.conversions (project_id, affiliate_id, type, value_minor, base_value_minor, base_currency, refunded_base_value_minor, status, hold_until,
           basis, commission_type, commission_rate, tier, parent_conversion_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'percentage', '30', $11, $12, $9)`,
        [
          projectId,
          affiliateId,
          row.type ?? 'purchase',
          row.value,
          row.base ?? null,
          row.base === undefined ? null : (row.currency ?? 'USD'),
          row.refunded ?? '0',
          row.status ?? 'active',
          at,
          row.tier === 2 ? 'tier2' : 'purchase',
          row.tier ?? 1,
          row.parent ?? null,
        ],
      ),
    /** What a release with the counters added on the event's day, to the affiliate's row and one of the project's. */
    counted: (affiliateId: number, day: string, counts: { clicks?: number; purchases?: number; revenue?: string; commission?: string }) =>
      exec(
        `INSERT INTO ${s}.tracking_daily (project_id, affiliate_id, day, clicks, purchases, revenue_minor, commission_minor)
         SELECT $1, counted.id, $3, $4, $5, $6, $7 FROM (VALUES ($2::bigint), (-1 - $2::bigint % 16)) AS counted (id)
         ON CONFLICT (project_id, affiliate_id, day) DO UPDATE SET clicks = ${s}.tracking_daily.clicks + excluded.clicks,
           purchases = ${s}.tracking_daily.purchases + excluded.purchases, revenue_minor = ${s}.tracking_daily.revenue_minor + excluded.revenue_minor,
           commission_minor = ${s}.tracking_daily.commission_minor + excluded.commission_minor`,
        [projectId, affiliateId, day, counts.clicks ?? 0, counts.purchases ?? 0, counts.revenue ?? '0', counts.commission ?? '0'],
      ),
  }
}

/** The non-empty days of GET /stats (the whole program, or one affiliate) from `from` for 10 days. */
async function statsDays(storage: StoragePort, from: string, email?: string) {
  const program = await createAffiliateProgram({ storage })
  const { key } = await program.keys.create()
  const api = createHandler(program)
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + 10 * 86_400_000).toISOString().slice(0, 10)
  const path = email ? `/affiliates/${encodeURIComponent(email)}/stats` : '/stats'
  const response = await api(new Request(`http://api.example/api/v1${path}?from=${from}&to=${to}`, { headers: { authorization: `Bearer ${key}` } }))
  expect(response.status).toBe(200)
  const { data } = (await response.json()) as { data: { buckets: Array<Record<string, unknown> & { start: string; clicks: number; signups: number; purchases: number; commission: string }> } }
  return data.buckets.filter((bucket) => bucket.clicks + bucket.signups + bucket.purchases > 0 || bucket.commission !== '0.00')
}

const day = (start: string, counts: { clicks?: number; signups?: number; purchases?: number; revenue?: string; commission?: string }) => ({
  start,
  clicks: counts.clicks ?? 0,
  unique_visitors: 0,
  signups: counts.signups ?? 0,
  purchases: counts.purchases ?? 0,
  revenue: counts.revenue ?? '0.00',
  commission: counts.commission ?? '0.00',
})

describe.each(places)('stats over time after an upgrade: $name', ({ skip, make }) => {
  it.skipIf(skip !== undefined)(
    `from the release before the counters (schema 6): every stored day is counted${skip ? ` (skipped: ${skip})` : ''}`,
    async () => {
      const { schema, exec, open, cleanup } = await make()
      const s = `"${schema}"`
      try {
        await migrateTo(exec, s, 6)
        const settings = { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 } }, multiTier: { enabled: true, tier2Rate: 10 } }
        await exec(`INSERT INTO ${s}.projects (id, name, settings, created_at) VALUES ('proj_old', 'default', $1, '2026-01-01T00:00:00Z')`, [JSON.stringify(settings)])
        const write = writer(exec, s, 'proj_old')
        const parent = await write.affiliate('pat@example.com', 'PAT')
        const ann = await write.affiliate('ann@example.com', 'ANN', parent)
        await write.click(ann, '2026-01-03T10:00:00Z')
        await write.click(ann, '2026-01-03T10:05:00Z')
        await write.click(ann, '2026-01-04T10:00:00Z')
        await write.click(parent, '2026-01-04T11:00:00Z')
        await write.referral(ann, 'c1@example.com', '2026-01-03T11:00:00Z')
        await write.referral(ann, 'c2@example.com', '2026-01-04T12:00:00Z')
        await write.referral(null, 'nobody@example.com', '2026-01-04T12:00:00Z')
        const first = await write.conversion(ann, '2026-01-03T11:00:00Z', { value: '3000', base: '10000' })
        await write.conversion(parent, '2026-01-03T11:00:00Z', { value: '1000', base: '10000', tier: 2, parent: first })
        // Refunded after it counted: its day keeps the sale as it was.
        await write.conversion(ann, '2026-01-04T12:00:00Z', { value: '1200', base: '0', refunded: '4000', status: 'refunded' })
        // Held for review: never counted.
        await write.conversion(ann, '2026-01-04T13:00:00Z', { value: '2100', base: '7000', status: 'review' })
        await write.conversion(ann, '2026-01-04T14:00:00Z', { value: '500', type: 'signup' })
        // In another currency: a purchase, whose revenue in USD is not known.
        await write.conversion(ann, '2026-01-04T15:00:00Z', { value: '1500', base: '5000', currency: 'EUR' })
        // More rows than one batch counts (each batch is a transaction of its own).
        await exec(`INSERT INTO ${s}.clicks (project_id, affiliate_id, created_at) SELECT 'proj_old', $1, '2026-01-05T09:00:00Z' FROM generate_series(1, 12000)`, [parent])

        // Two starts at once (two processes on PostgreSQL): the history is counted once.
        const [storage, other] = [open(), open()]
        await Promise.all([storage.ping(), other.ping()])
        await other.close()
        try {
          expect(await statsDays(storage, '2026-01-01')).toEqual([
            day('2026-01-03', { clicks: 2, signups: 1, purchases: 1, revenue: '100.00', commission: '40.00' }),
            day('2026-01-04', { clicks: 2, signups: 1, purchases: 2, revenue: '40.00', commission: '32.00' }),
            day('2026-01-05', { clicks: 12000 }),
          ])
          expect(await statsDays(storage, '2026-01-01', 'ann@example.com')).toEqual([
            day('2026-01-03', { clicks: 2, signups: 1, purchases: 1, revenue: '100.00', commission: '30.00' }),
            day('2026-01-04', { clicks: 1, signups: 1, purchases: 2, revenue: '40.00', commission: '32.00' }),
          ])
          expect(await statsDays(storage, '2026-01-01', 'pat@example.com')).toEqual([
            day('2026-01-03', { commission: '10.00' }),
            day('2026-01-04', { clicks: 1 }),
            day('2026-01-05', { clicks: 12000 }),
          ])
        } finally {
          await storage.close()
        }
        // Counted once: another start finds the work done.
        const again = open()
        try {
          expect((await statsDays(again, '2026-01-01')).map((bucket) => bucket.clicks)).toEqual([2, 2, 12000])
        } finally {
          await again.close()
        }
      } finally {
        await cleanup()
      }
    },
    120_000,
  )

  it.skipIf(skip !== undefined)(
    `from a release with the counters (schema 11): the days before they began are added, the counted ones stay${skip ? ` (skipped: ${skip})` : ''}`,
    async () => {
      const { schema, exec, open, cleanup } = await make()
      const s = `"${schema}"`
      try {
        await migrateTo(exec, s, 11)
        // The counters began at noon, New York time, on 10 February.
        await exec(`UPDATE ${s}.schema_migrations SET applied_at = '2026-02-10T17:00:00Z' WHERE version = 7`)
        const settings = { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 } }, timeZone: 'America/New_York' }
        await exec(`INSERT INTO ${s}.projects (id, name, settings, created_at) VALUES ('proj_old', 'default', $1, '2026-01-01T00:00:00Z')`, [JSON.stringify(settings)])
        const write = writer(exec, s, 'proj_old')
        const ann = await write.affiliate('ann@example.com', 'ANN')
        // Before the counters: never counted. 03:00 UTC is still the 4th in New York.
        await write.click(ann, '2026-02-05T03:00:00Z')
        await write.click(ann, '2026-02-05T15:00:00Z')
        await write.referral(ann, 'c1@example.com', '2026-02-05T15:00:00Z')
        await write.conversion(ann, '2026-02-05T15:00:00Z', { value: '3000', base: '10000' })
        await write.click(ann, '2026-02-10T14:00:00Z')
        // Since then: counted as written, a conversion dated back to the 5th (its occurredAt) too.
        await write.click(ann, '2026-02-10T18:00:00Z')
        await write.counted(ann, '2026-02-10', { clicks: 1 })
        await write.conversion(ann, '2026-02-11T15:00:00Z', { value: '1500', base: '5000' })
        await write.counted(ann, '2026-02-11', { purchases: 1, revenue: '5000', commission: '1500' })
        await write.conversion(ann, '2026-02-05T16:00:00Z', { value: '600', base: '2000' })
        await write.counted(ann, '2026-02-05', { purchases: 1, revenue: '2000', commission: '600' })

        const storage = open()
        try {
          const expected = [
            day('2026-02-04', { clicks: 1 }),
            day('2026-02-05', { clicks: 1, signups: 1, purchases: 2, revenue: '120.00', commission: '36.00' }),
            day('2026-02-10', { clicks: 2 }),
            day('2026-02-11', { purchases: 1, revenue: '50.00', commission: '15.00' }),
          ]
          expect(await statsDays(storage, '2026-02-03')).toEqual(expected)
          expect(await statsDays(storage, '2026-02-03', 'ann@example.com')).toEqual(expected)
        } finally {
          await storage.close()
        }
      } finally {
        await cleanup()
      }
    },
    120_000,
  )
})
