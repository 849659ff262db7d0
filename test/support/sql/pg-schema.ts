// Test helpers for PostgreSQL: a fresh schema per test file, dropped afterwards, reached straight
// or through a pooler (a route; the schema is dropped and checked over DATABASE_URL itself).
import pg from 'pg'
import { postgresStorage, type PostgresStorageOptions } from '../../../src/adapters/postgres/index.js'

export const DATABASE_URL = process.env.DATABASE_URL

export const NO_DATABASE_REASON = 'DATABASE_URL is not set (CI sets it; export it to run the PostgreSQL tests)'

export function freshSchemaName(prefix = 'affiliate_kit_test'): string {
  return `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  } finally {
    await client.end()
  }
}

/** How the storages under test reach PostgreSQL: DIRECT, or pgBouncerRoute() (pgbouncer.ts). */
export interface PostgresRoute {
  /** Appended to suite titles. */
  title: string
  /** The URL to connect to (a pooler's is known once it has started, in beforeAll). */
  url(): string
  /** The storage options this route needs. */
  options: Pick<PostgresStorageOptions, 'pooler'>
}

export const DIRECT: PostgresRoute = { title: '', url: () => DATABASE_URL!, options: {} }

/** The connection options of a storage on this route (a child process gets them as JSON). */
export function routeConnection(route: PostgresRoute): { connectionString: string } & PostgresRoute['options'] {
  return { connectionString: route.url(), ...route.options }
}

/** A postgres storage on a fresh schema, with a cleanup that closes it and drops the schema. */
export function freshPostgresStorage(options: { max?: number } = {}, route: PostgresRoute = DIRECT) {
  const schema = freshSchemaName()
  const storage = postgresStorage({ ...routeConnection(route), schema, ...options })
  return {
    schema,
    storage,
    cleanup: async () => {
      await storage.close()
      await dropSchema(schema)
    },
  }
}
