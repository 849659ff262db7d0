// PGlite has no autovacuum and no checkpointer: the storage does their jobs (maintenance.ts).
// Without it the planner's figures stay those of empty tables and the WAL only grows, and each
// purchase costs more as conversions pile up (docs/scaling.md "PGlite").
import { PGlite } from '@electric-sql/pglite'
import { afterEach, describe, expect, it } from 'vitest'
import { maintainOnce } from '../../../src/adapters/pglite/maintenance.js'
import { pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { createAffiliateProgram, type AffiliateProgram } from '../../../src/index.js'

async function withPurchases(db: PGlite, count: number, maintenanceIntervalMs: number): Promise<AffiliateProgram> {
  const program = await createAffiliateProgram({ storage: pgliteStorage({ db, maintenanceIntervalMs }) })
  const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  for (let n = 0; n < count; n += 1) await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: `c${n}@example.com`, baseValue: 10, reference: `p${n}` })
  return program
}

const plannerRows = async (db: PGlite, table: string) =>
  Number((await db.query<{ n: number }>(`SELECT reltuples AS n FROM pg_class WHERE oid = 'affiliate_kit.${table}'::regclass`)).rows[0]!.n)

describe('PGlite maintenance', () => {
  const open: { program: AffiliateProgram; db: PGlite }[] = []
  afterEach(async () => {
    for (const { program, db } of open.splice(0)) {
      await program.close()
      await db.close()
    }
  })

  it('vacuums and analyzes the tables that grew by a tenth, and only those; checkpoints once enough WAL was written', async () => {
    const db = new PGlite()
    const program = await withPurchases(db, 400, 0)
    open.push({ program, db })
    expect(await plannerRows(db, 'conversions')).toBeLessThan(1)

    const first = await maintainOnce(db, 'affiliate_kit', Number.MAX_SAFE_INTEGER)
    expect(first.tables).toEqual(expect.arrayContaining(['affiliate_kit.conversions', 'affiliate_kit.referrals']))
    expect(first.checkpoint).toBe(false)
    expect(await plannerRows(db, 'conversions')).toBe(400)
    // Nothing grew since: nothing to do.
    expect((await maintainOnce(db, 'affiliate_kit', Number.MAX_SAFE_INTEGER)).tables).toEqual([])

    const redo = async () => (await db.query<{ lsn: string }>('SELECT redo_lsn::text AS lsn FROM pg_control_checkpoint()')).rows[0]!.lsn
    const before = await redo()
    expect((await maintainOnce(db, 'affiliate_kit', 1)).checkpoint).toBe(true)
    expect(await redo()).not.toBe(before)
  })

  it('runs by itself in a storage every maintenanceIntervalMs', async () => {
    const db = new PGlite()
    const program = await withPurchases(db, 400, 50)
    open.push({ program, db })
    await expect.poll(() => plannerRows(db, 'conversions'), { timeout: 10_000, interval: 50 }).toBe(400)
  })
})
