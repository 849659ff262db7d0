// A release refuses a database migrated past the newest schema version it knows (a newer release
// upgraded it, then this one was started again: a rollback, or two releases side by side): the
// library's open fails with SchemaTooNewError, and `affiliate-kit serve` and `migrate` stop with
// one line naming both versions. Nothing is written: the refused start leaves no project behind.
import { PGlite } from '@electric-sql/pglite'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { pgliteStorage, SchemaTooNewError } from '../../src/adapters/pglite/index.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { KNOWN_SCHEMA_VERSION } from '../../src/adapters/sql/migrations.js'
import { createAffiliateProgram } from '../../src/index.js'
import { run } from '../support/cli/process.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'
import { migratedDataDir } from '../support/pglite-template.js'

const tempDir = tempDirs('affiliate-kit-schema-too-new')
const FUTURE = KNOWN_SCHEMA_VERSION + 1
const REFUSAL = `database schema version ${FUTURE}, this release knows up to ${KNOWN_SCHEMA_VERSION}`

/** What a newer release leaves: this release's schema, plus a migration it does not know. */
const markFuture = (schema: string) =>
  `INSERT INTO "${schema}".schema_migrations (version, name) VALUES (${FUTURE}, 'from a newer release')`

async function markPglite(dataDir: string): Promise<void> {
  await (await createAffiliateProgram({ storage: pgliteStorage({ dataDir }), project: 'before' })).close()
  const db = new PGlite(dataDir)
  await db.exec(markFuture('affiliate_kit'))
  await db.close()
}

async function onPostgres<T>(connectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

describe('a database migrated past what this release knows is refused', () => {
  it('by the library on PGlite, before anything is written', async () => {
    const dataDir = migratedDataDir(join(tempDir(), 'data'))
    await markPglite(dataDir)
    const storage = pgliteStorage({ dataDir })
    const opening = createAffiliateProgram({ storage, project: 'after' })
    await expect(opening).rejects.toThrow(SchemaTooNewError)
    await expect(opening).rejects.toThrow(REFUSAL)
    await storage.close()
    const db = new PGlite(dataDir)
    const projects = await db.query<{ name: string }>('SELECT name FROM affiliate_kit.projects ORDER BY name')
    expect(projects.rows.map((row) => row.name)).toEqual(['before'])
    await db.close()
  }, 120_000)

  it.skipIf(!DATABASE_URL)(`by the library on PostgreSQL${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, async () => {
    const schema = freshSchemaName()
    try {
      await (await createAffiliateProgram({ storage: postgresStorage({ connectionString: DATABASE_URL!, schema }) })).close()
      await onPostgres(DATABASE_URL!, (client) => client.query(markFuture(schema)))
      const storage = postgresStorage({ connectionString: DATABASE_URL!, schema })
      const error = await createAffiliateProgram({ storage, project: 'after' }).catch((caught: unknown) => caught)
      await storage.close()
      expect(error).toBeInstanceOf(SchemaTooNewError)
      expect(error).toMatchObject({ schemaVersion: FUTURE, knownVersion: KNOWN_SCHEMA_VERSION })
      const projects = await onPostgres(DATABASE_URL!, (client) => client.query(`SELECT name FROM "${schema}".projects`))
      expect(projects.rows.map((row: { name: string }) => row.name)).toEqual(['default'])
    } finally {
      await dropSchema(schema)
    }
  }, 60_000)

  it('by affiliate-kit serve and migrate on a PGlite directory: one line, exit 1', async () => {
    const dir = tempDir()
    const dataDir = migratedDataDir(join(dir, 'data'))
    await markPglite(dataDir)
    for (const args of [['serve', '--port', '0'], ['migrate']]) {
      const child = run([...args, '--database', `pglite:${dataDir}`], { cwd: dir })
      expect(await child.exited).toBe(1)
      expect(child.output()).toBe(`affiliate-kit: ${REFUSAL}: a newer affiliate-kit migrated it; run that release or a newer one (docs/operations.md, "Upgrades and rollbacks")\n`)
    }
  }, 120_000)

  it.skipIf(!DATABASE_URL)(`by affiliate-kit serve on PostgreSQL: one line, exit 1${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, async () => {
    const database = await freshDatabase()
    try {
      await (await createAffiliateProgram({ storage: postgresStorage({ connectionString: database.url }) })).close()
      await onPostgres(database.url, (client) => client.query(markFuture('affiliate_kit')))
      const child = run(['serve', '--port', '0', '--database', database.url], { cwd: tempDir() })
      expect(await child.exited).toBe(1)
      expect(child.output()).toMatch(new RegExp(`^affiliate-kit: ${REFUSAL}: [^\\n]+\\n$`))
    } finally {
      await database.drop()
    }
  }, 60_000)
})
