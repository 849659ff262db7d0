// `affiliate-kit serve` with DATABASE_URL leading to a PgBouncer in transaction mode (started
// here): AFFILIATE_KIT_POOLER=transaction makes it work there; a value it does not know stops the
// start with what to set.
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { api, run } from '../support/cli/process.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'
import { pgBouncerRoute } from '../support/sql/pgbouncer.js'

const tempDir = tempDirs('affiliate-kit-cli-pooler')
const onPostgres = DATABASE_URL ? describe : describe.skip

onPostgres(`affiliate-kit through PgBouncer in transaction mode${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  const route = pgBouncerRoute()

  it('serve and keys work through it with AFFILIATE_KIT_POOLER=transaction, and say so', async () => {
    const db = await freshDatabase()
    const pooled = new URL(route.url())
    pooled.pathname = `/${db.name}`
    const env = { DATABASE_URL: pooled.toString(), AFFILIATE_KIT_POOLER: 'transaction' }
    const cwd = tempDir()
    try {
      const server = run(['serve', '--port', '0'], { cwd, env })
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      const [, key] = await server.waitFor(/shown once, keep it\): (rgk_\w+)/)
      expect(server.output()).toContain(`storage: PostgreSQL at ${pooled.host} through a transaction-mode pooler (from DATABASE_URL)`)
      // Several requests at once, so the pooler hands their transactions different server connections.
      const created = await Promise.all(
        Array.from({ length: 8 }, (_, index) => api(url!, key!, 'POST', '/affiliates', { email: `pooled${index}@example.com` })),
      )
      expect(created.map((response) => response.status)).toEqual(Array.from({ length: 8 }, () => 201))
      const list = run(['keys', 'list'], { cwd, env })
      expect(await list.exited).toBe(0)
      expect(await server.stop()).toBe(0)

      const client = new pg.Client({ connectionString: db.url })
      await client.connect()
      const rows = await client.query('SELECT count(*)::int AS n FROM affiliate_kit.affiliates').finally(() => client.end())
      expect(rows.rows).toEqual([{ n: 8 }])
    } finally {
      await db.drop()
    }
  }, 60_000)

  it('refuses an AFFILIATE_KIT_POOLER value it does not know, naming the one it takes', async () => {
    const migrate = run(['migrate'], { cwd: tempDir(), env: { DATABASE_URL: route.url(), AFFILIATE_KIT_POOLER: 'statement' } })
    expect(await migrate.exited).toBe(1)
    expect(migrate.output()).toContain('AFFILIATE_KIT_POOLER must be "transaction"')
  })
})
