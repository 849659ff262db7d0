// A fresh PostgreSQL database for tests that run the CLI, which uses the default schema: each
// test gets its own database (dropped afterwards) instead of sharing `affiliate_kit` in `test`.
import pg from 'pg'
import { DATABASE_URL } from '../sql/pg-schema.js'

/** Runs fn on a connection of its own to DATABASE_URL's database, closed afterwards. */
export async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

export async function freshDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `affiliate_kit_cli_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  await admin((client) => client.query(`CREATE DATABASE "${name}"`))
  const url = new URL(DATABASE_URL!)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    name,
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  }
}
