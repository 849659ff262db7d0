// The migration runner: applies the versioned schema migrations (one file each in migrations/,
// listed in migrations/index.ts) on first use under an advisory lock so several processes
// starting at once apply each version exactly once; a no-op when everything is applied. A schema
// migrated past the newest version this release knows is refused (SchemaTooNewError).
import type { SqlClient, SqlExecutor } from './executor.js'
import { MIGRATIONS, type Migration } from './migrations/index.js'

export { MIGRATIONS } from './migrations/index.js'

/** The newest schema version this release knows. */
export const KNOWN_SCHEMA_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.version))

/**
 * The database was migrated by a newer release: this one would ignore what the newer migrations
 * added (a column it never reads, a table it never writes) and corrupt the newer release's data.
 */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError'
  constructor(
    readonly schemaVersion: number,
    readonly knownVersion: number,
  ) {
    super(
      `database schema version ${schemaVersion}, this release knows up to ${knownVersion}: a newer affiliate-kit migrated it; ` +
        'run that release or a newer one (docs/operations.md, "Upgrades and rollbacks")',
    )
  }
}

function refuseNewer(recorded: Set<number>): void {
  const newest = Math.max(0, ...recorded)
  if (newest > KNOWN_SCHEMA_VERSION) throw new SchemaTooNewError(newest, KNOWN_SCHEMA_VERSION)
}

export interface AppliedMigration {
  version: number
  name: string
}

/** Validates a schema name and returns it quoted for SQL text. */
export function quoteSchema(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`affiliate-kit: invalid schema name ${JSON.stringify(schema)} (letters, digits and _ only)`)
  }
  return `"${schema}"`
}

/** Errors of a schema or table that does not exist (yet). */
const UNDEFINED_OBJECT = new Set(['3F000', '42P01'])

/** The versions recorded in `{s}.schema_migrations`; none when it does not exist yet. */
async function recordedVersions(client: SqlClient, s: string): Promise<Set<number>> {
  try {
    const rows = await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`)
    return new Set(rows.map((row) => Number(row.version)))
  } catch (error) {
    if (UNDEFINED_OBJECT.has((error as { code?: string }).code ?? '')) return new Set()
    throw error
  }
}

/** Applies every migration not yet recorded in `{schema}.schema_migrations`; resolves with those it applied, oldest first. */
export async function migrate(executor: SqlExecutor, schema: string, onMigration?: (migration: AppliedMigration & { ms: number }) => void): Promise<AppliedMigration[]> {
  const s = quoteSchema(schema)
  // Usually all is applied already: one read, without the lock and the DDL, tells.
  const recorded = await recordedVersions(executor, s)
  refuseNewer(recorded)
  if (MIGRATIONS.every((migration) => recorded.has(migration.version))) return []
  // One lock per schema: concurrent starters wait here, then see the versions already applied.
  // Unbounded waits here: starters queue behind the one migrating, and a long migration may run
  // past the requests' statement timeout (docs/operations.md#faults).
  const lock = async (tx: SqlClient) => {
    await tx.query('SET LOCAL statement_timeout = 0')
    await tx.query('SET LOCAL lock_timeout = 0')
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`affiliate-kit:${schema}`])
  }
  const record = (tx: SqlClient, migration: Migration) =>
    tx.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
  const applied = await executor.transaction(async (tx) => {
    await lock(tx)
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${s}`)
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    )
    const present = await recordedVersions(tx, s)
    refuseNewer(present)
    const applied: AppliedMigration[] = []
    for (const migration of MIGRATIONS) {
      if (present.has(migration.version)) continue
      const started = performance.now()
      for (const statement of migration.statements) await tx.query(statement.replaceAll('{s}', s))
      if (migration.batch) continue
      await record(tx, migration)
      applied.push({ version: migration.version, name: migration.name })
      onMigration?.({ version: migration.version, name: migration.name, ms: Math.round(performance.now() - started) })
    }
    return applied
  })
  for (const migration of MIGRATIONS) {
    if (!migration.batch || recorded.has(migration.version)) continue
    const started = performance.now()
    for (let done: boolean | 'by another' = false; !done; ) {
      done = await executor.transaction(async (tx) => {
        await lock(tx)
        if ((await recordedVersions(tx, s)).has(migration.version)) return 'by another'
        if (!(await migration.batch!(tx, s))) return false
        await record(tx, migration)
        return true
      })
      if (done !== true) continue
      applied.push({ version: migration.version, name: migration.name })
      onMigration?.({ version: migration.version, name: migration.name, ms: Math.round(performance.now() - started) })
    }
  }
  return applied.sort((a, b) => a.version - b.version)
}
