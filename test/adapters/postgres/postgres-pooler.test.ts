// postgresStorage's `pooler` and `preparedStatements` options: which statements go named, and
// what a transaction-mode pooler answers without the option (docs/pooler.md).
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { postgresStorage, type PostgresStorageOptions } from '../../../src/adapters/postgres/index.js'
import { createAffiliateProgram } from '../../../src/index.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'
import { pgBouncerRoute } from '../../support/sql/pgbouncer.js'

const suite = DATABASE_URL ? describe : describe.skip
const schemas: string[] = []
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema)
})
const schemaName = () => {
  const schema = freshSchemaName('affiliate_kit_pooler')
  schemas.push(schema)
  return schema
}

suite(`postgres: statements by name or not${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it.each([
    ['by default, statements are prepared by name on the connection', {}, true],
    ["with pooler: 'transaction', none is", { pooler: 'transaction' }, false],
    ["with pooler: 'transaction' and preparedStatements: true, they are again", { pooler: 'transaction', preparedStatements: true }, true],
  ] as const)('%s', async (_title, options: Partial<PostgresStorageOptions>, named) => {
    // One connection, so the statements the storage prepared are the ones this pool sees.
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 })
    const schema = schemaName()
    const storage = postgresStorage({ pool, schema, ...options } as PostgresStorageOptions)
    const program = await createAffiliateProgram({ storage })
    await program.affiliates.create({ email: 'named@example.com' })
    const prepared = await pool.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'affiliate_kit_%' AND statement LIKE $1`, [
      `%"${schema}"%`,
    ])
    expect(prepared.rows[0].n > 0).toBe(named)
    await storage.close()
    await pool.end()
  })
})

suite(`postgres through PgBouncer with one server connection${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  const route = pgBouncerRoute({ poolSize: 1 })

  /** Four creates at once: four clients of the storage's pool, taking turns on the one server connection. */
  async function creates(options: Partial<PostgresStorageOptions>) {
    const storage = postgresStorage({ connectionString: route.url(), schema: schemaName(), max: 4, ...options })
    try {
      const program = await createAffiliateProgram({ storage })
      return await Promise.allSettled(Array.from({ length: 4 }, (_, index) => program.affiliates.create({ email: `turn${index}@example.com` })))
    } finally {
      await storage.close()
    }
  }

  it("without pooler: 'transaction', a named statement meets another client's: the error says what to set", async () => {
    const failures = (await creates({})).filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason)
    expect(failures.length).toBeGreaterThan(0)
    for (const error of failures) {
      expect(['26000', '42P05']).toContain(error.code)
      expect(error.message).toMatch(/prepared statement "affiliate_kit_\w+" (already exists|does not exist): is the connection through a pooler in transaction mode\? Then set pooler: 'transaction'/)
    }
  })

  it("with pooler: 'transaction', every create succeeds", async () => {
    const outcomes = await creates({ pooler: 'transaction' })
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'])
  })
})
