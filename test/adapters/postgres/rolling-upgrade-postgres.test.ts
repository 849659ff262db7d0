// A rolling deploy on PostgreSQL (issue 43 item 20): a server of this release keeps serving while a
// newer release's migrations add columns to the tables under it. Its statements are prepared by
// name per connection, and one over `SELECT *` fails with "cached plan must not change result type"
// once a column is added; the storage then prepares them again and runs the work again, so no
// request fails and none loses its webhook event. (Servers of releases before this one do not
// survive it: docs/operations.md "Upgrades and rollbacks".)
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAffiliateProgram, type AffiliateProgram } from '../../../src/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'

const IN_FLIGHT = 16

describe.skipIf(!DATABASE_URL)(`postgres: a server survives a newer release's added columns${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  let schema: string
  let cleanup: () => Promise<void>
  let program: AffiliateProgram

  beforeAll(async () => {
    const fresh = freshPostgresStorage({ max: 8 })
    ;({ schema, cleanup } = fresh)
    program = await createAffiliateProgram({ storage: fresh.storage, settings: { holdPeriodDays: 0 } })
  })
  afterAll(() => cleanup?.())

  it('purchases, reads and webhook events under load while every table gains a column: no error, every event recorded', async () => {
    await program.webhooks.create({ url: 'https://hooks.example/affiliate-kit', events: ['referral_converted'] })
    const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    let sent = 0
    const errors: string[] = []
    const purchase = async () => {
      const n = (sent += 1)
      try {
        await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: `c${n}@example.com`, baseValue: '10.00', reference: `roll_${n}` })
        await program.affiliates.get(ann.id)
        await program.conversions.list({ limit: 5 })
      } catch (error) {
        errors.push(`${(error as Error).name}: ${(error as Error).message}`)
      }
    }
    const load = async (count: number) => {
      let next = 0
      await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < count) await purchase()
      }))
    }
    // Every connection of the pool has its statements prepared.
    await load(64)
    const admin = new pg.Client({ connectionString: DATABASE_URL })
    await admin.connect()
    try {
      // A partition takes its columns from its table (link_clicks): the table is altered, not each month.
      const tables = (
        await admin.query(`SELECT c.relname AS tablename FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition`, [schema])
      ).rows.map((row) => String(row.tablename))
      // The newer release migrates while this one is under load.
      const migrating = (async () => {
        for (const table of tables) await admin.query(`ALTER TABLE "${schema}"."${table}" ADD COLUMN added_by_a_newer_release text`)
      })()
      await Promise.all([load(128), migrating])
      await load(64)
      expect(errors).toEqual([])
      expect((await program.conversions.list({ limit: 1 })).total).toBe(256)
      // Each first purchase recorded its referral_converted event, with a delivery to the endpoint.
      const count = async (table: string) =>
        Number((await admin.query(`SELECT count(*) AS n FROM "${schema}".${table} WHERE project_id = $1 AND ${table === 'webhook_events' ? 'type' : 'event_type'} = 'referral_converted'`, [program.projectId])).rows[0].n)
      expect({ events: await count('webhook_events'), deliveries: await count('deliveries') }).toEqual({ events: 256, deliveries: 256 })
    } finally {
      await admin.end()
    }
  })
})
