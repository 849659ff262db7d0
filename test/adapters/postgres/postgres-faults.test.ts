// PostgreSQL faults as the library meets them (issue 51): a checked-out connection terminated
// mid-transaction (pg_terminate_backend on this test's own backends, found by application_name),
// on the storage's own pool and on the host's; a table locked by someone else (lock_timeout); a
// pool with no free connection (checkout timeout). Each is a StorageUnavailableError, never an
// unhandled 'error' event; nothing of the failed transaction is stored and the next one succeeds.
import { admin } from '../../support/cli/postgres-database.js'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createAffiliateProgram, StorageUnavailableError } from '../../../src/index.js'
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'

const title = `postgres faults${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`

/** A promise and the function that resolves it. */
function signal() {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

/** Terminates the backends of this application name only (never another session's). */
const terminate = (applicationName: string) =>
  admin(async (client) => (await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [applicationName])).rowCount)

const appName = () => `ak_faults_${process.pid}_${Math.random().toString(36).slice(2, 8)}`

describe.skipIf(!DATABASE_URL)(title, () => {
  const schemas: string[] = []
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema)
  })

  /** Runs a transaction that counts a signup, and kills its connection while it is open. */
  async function killedMidTransaction(storage: ReturnType<typeof postgresStorage>, applicationName: string) {
    const program = await createAffiliateProgram({ storage })
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    const projectId = (await storage.projects.getByName('default'))!.id
    const inside = signal()
    const killed = signal()
    const outcome = storage
      .transaction(async (tx) => {
        await tx.affiliates.adjustTotals(projectId, ann.id, { signups: 1 })
        inside.resolve()
        await killed.promise
        return tx.affiliates.get(projectId, ann.id)
      })
      .then(
        () => 'committed',
        (error: unknown) => error,
      )
    await inside.promise
    expect(await terminate(applicationName)).toBeGreaterThanOrEqual(1)
    // Let the termination reach the client (its 'error' event) before the transaction goes on.
    await new Promise((resolve) => setTimeout(resolve, 300))
    killed.resolve()
    const error = await outcome
    expect(error).toBeInstanceOf(StorageUnavailableError)
    expect((error as Error).message).toMatch(/connection|server ended/)
    // Nothing of the killed transaction is stored; the next one succeeds on a new connection.
    expect((await program.affiliates.get(ann.id)).signups).toBe(0)
    await storage.transaction((tx) => tx.affiliates.adjustTotals(projectId, ann.id, { signups: 1 }))
    expect((await program.affiliates.get(ann.id)).signups).toBe(1)
    return program
  }

  it('answers a connection terminated mid-transaction with StorageUnavailableError on its own pool, and recovers', async () => {
    const applicationName = appName()
    const schema = freshSchemaName()
    schemas.push(schema)
    const url = new URL(DATABASE_URL!)
    url.searchParams.set('application_name', applicationName)
    const storage = postgresStorage({ connectionString: url.toString(), schema, max: 3 })
    const program = await killedMidTransaction(storage, applicationName)
    await program.close()
  }, 20_000)

  it("never lets an error on a checked-out client of the host's pool reach the host as an unhandled event", async () => {
    const applicationName = appName()
    const schema = freshSchemaName()
    schemas.push(schema)
    const pool = new pg.Pool({ connectionString: DATABASE_URL, application_name: applicationName, max: 3 })
    // The host's own listener for idle clients, as pg asks of every pool owner.
    pool.on('error', () => {})
    const unhandled: unknown[] = []
    const record = (error: unknown) => unhandled.push(error)
    process.on('uncaughtException', record)
    try {
      const storage = postgresStorage({ pool, schema })
      const program = await killedMidTransaction(storage, applicationName)
      await program.close()
      // The host's pool is still the host's, and works.
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    } finally {
      process.off('uncaughtException', record)
      await pool.end()
    }
    expect(unhandled).toEqual([])
  }, 20_000)

  it('answers a write to a table locked elsewhere within the lock timeout, and writes once the lock is gone', async () => {
    const schema = freshSchemaName()
    schemas.push(schema)
    const storage = postgresStorage({ connectionString: DATABASE_URL!, schema, max: 3, lockTimeoutMs: 300 })
    const program = await createAffiliateProgram({ storage })
    await program.affiliates.create({ email: 'before@example.com' })
    const locker = new pg.Client({ connectionString: DATABASE_URL })
    await locker.connect()
    try {
      await locker.query('BEGIN')
      await locker.query(`LOCK TABLE "${schema}".affiliates IN ACCESS EXCLUSIVE MODE`)
      const started = performance.now()
      const error = await program.affiliates.create({ email: 'during@example.com' }).catch((caught: unknown) => caught)
      const ms = performance.now() - started
      expect(error).toBeInstanceOf(StorageUnavailableError)
      expect((error as Error).message).toMatch(/lock timeout/)
      expect(ms).toBeLessThan(3000)
      await locker.query('ROLLBACK')
    } finally {
      await locker.end()
    }
    await program.affiliates.create({ email: 'after@example.com' })
    const emails = (await program.affiliates.list({ limit: 10 })).items.map((affiliate) => affiliate.email).sort()
    expect(emails).toEqual(['after@example.com', 'before@example.com'])
    await program.close()
  }, 20_000)

  it('answers within the checkout timeout when every pooled connection is taken', async () => {
    const schema = freshSchemaName()
    schemas.push(schema)
    const storage = postgresStorage({ connectionString: DATABASE_URL!, schema, max: 1, connectionTimeoutMs: 300 })
    const program = await createAffiliateProgram({ storage })
    const release = signal()
    const held = storage.transaction(async (tx) => {
      await tx.projects.getByName('default')
      await release.promise
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const started = performance.now()
    const error = await program.affiliates.create({ email: 'waiting@example.com' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StorageUnavailableError)
    expect((error as Error).message).toMatch(/checkout timeout/)
    expect(performance.now() - started).toBeLessThan(2000)
    release.resolve()
    await held
    await program.affiliates.create({ email: 'waiting@example.com' })
    await program.close()
  }, 20_000)
})
