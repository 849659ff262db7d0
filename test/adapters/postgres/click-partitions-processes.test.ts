// Two processes, each with its own pool on one PostgreSQL schema, opening their storages (which
// make this month's partitions and the next ones) and then making the same 25 months at once:
// both succeed, and each month is one partition (docs/analytics.md "Retention and partitions").
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASE_URL, DIRECT, freshSchemaName, dropSchema, NO_DATABASE_REASON, routeConnection } from '../../support/sql/pg-schema.js'
import { runTogether, startChild } from '../../support/sql/processes.js'

const suite = DATABASE_URL ? describe : describe.skip

suite(`postgres: two processes making click partitions at once${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  const schema = freshSchemaName()
  let oracle: pg.Client
  beforeAll(async () => {
    oracle = new pg.Client({ connectionString: DATABASE_URL })
    await oracle.connect()
  })
  afterAll(async () => {
    await oracle?.end()
    await dropSchema(schema)
  })

  it('both succeed, opening the storage and making the same months, and each month is made once', async () => {
    const args = { connection: routeConnection(DIRECT), schema, project: 'partitions', affiliateId: 0, from: '2040-01-01T00:00:00Z', months: 24 }
    const results = await runTogether<{ made?: boolean; error?: string; message?: string }>([startChild('partitions', args), startChild('partitions', args)])
    expect(results).toEqual([{ made: true }, { made: true }])
    const { rows } = await oracle.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace WHERE n.nspname = $1 AND p.relname = 'link_clicks' AND c.relname ~ '^link_clicks_204[0-2]_' ORDER BY 1`,
      [schema],
    )
    const expected = Array.from({ length: 25 }, (_, index) => `link_clicks_${2040 + Math.floor(index / 12)}_${String((index % 12) + 1).padStart(2, '0')}`)
    expect(rows.map((row: { name: string }) => row.name)).toEqual(expected)
  })
})
