// A database as an earlier release left it, on PGlite and PostgreSQL: the migrations up to a version
// applied as that release applied them, then opened by this release (upgrade tests).
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { MIGRATIONS } from '../../../src/adapters/sql/migrations.js'
import type { StoragePort } from '../../../src/index.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from './pg-schema.js'

export type Exec = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>

export interface Place {
  name: string
  skip?: string
  make(): Promise<{ schema: string; exec: Exec; open: () => StoragePort; cleanup: () => Promise<void> }>
}

export const places: Place[] = [
  {
    name: 'PGlite',
    async make() {
      const db = new PGlite()
      return {
        schema: 'affiliate_kit',
        exec: async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows,
        open: () => pgliteStorage({ db }),
        cleanup: () => db.close(),
      }
    },
  },
  {
    name: 'PostgreSQL',
    ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
    async make() {
      const schema = freshSchemaName()
      const client = new pg.Client({ connectionString: DATABASE_URL })
      await client.connect()
      return {
        schema,
        exec: async (text, params) => (await client.query(text, params)).rows,
        open: () => postgresStorage({ connectionString: DATABASE_URL!, schema }),
        cleanup: async () => {
          await client.end()
          await dropSchema(schema)
        },
      }
    },
  },
]

/** The schema an earlier release left: its migrations, up to `version`, recorded as it recorded them. */
export async function migrateTo(exec: Exec, s: string, version: number): Promise<void> {
  await exec(`CREATE SCHEMA IF NOT EXISTS ${s}`)
  await exec(`CREATE TABLE ${s}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
  for (const migration of MIGRATIONS.filter((candidate) => candidate.version <= version)) {
    for (const statement of migration.statements) await exec(statement.replaceAll('{s}', s))
    await exec(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
  }
}
