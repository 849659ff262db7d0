// Test helpers for PostgreSQL: a fresh schema per test file, dropped afterwards.
import pg from 'pg'
import { postgresStorage } from '../../src/adapters/postgres/index.js'

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

/** A postgres storage on a fresh schema, with a cleanup that closes it and drops the schema. */
export function freshPostgresStorage(options: { max?: number } = {}) {
  const schema = freshSchemaName()
  const storage = postgresStorage({ connectionString: DATABASE_URL!, schema, ...options })
  return {
    schema,
    storage,
    cleanup: async () => {
      await storage.close()
      await dropSchema(schema)
    },
  }
}
