// `affiliate-kit serve` reads PORT, HOST and DATABASE_URL when the flags are absent (flags win),
// and says where the data goes; keys commands use DATABASE_URL too.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { api, freePort, run } from '../support/cli/process.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const tempDir = tempDirs('affiliate-kit-cli-env')

describe('affiliate-kit serve environment variables', () => {
  it('listens on PORT and HOST when --port and --host are absent; the flags win over them', async () => {
    const port = await freePort('127.0.0.2')
    const fromEnv = run(['serve', '--database', 'memory'], { cwd: tempDir(), env: { PORT: String(port), HOST: '127.0.0.2' } })
    const [, url] = await fromEnv.waitFor(/listening on (http:\/\/\S+)/)
    expect(url).toBe(`http://127.0.0.2:${port}/api/v1`)
    expect(fromEnv.output()).toContain('storage: memory')
    expect(await fromEnv.stop()).toBe(0)

    const flags = run(['serve', '--database', 'memory', '--port', '0', '--host', '127.0.0.1'], { cwd: tempDir(), env: { PORT: String(port), HOST: '127.0.0.2' } })
    const [, flagUrl] = await flags.waitFor(/listening on (http:\/\/\S+)/)
    expect(flagUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
    expect(flagUrl).not.toBe(`http://127.0.0.1:${port}/api/v1`)
    expect(await flags.stop()).toBe(0)
  }, 60_000)
})

const onPostgres = DATABASE_URL ? describe : describe.skip

onPostgres(`affiliate-kit and DATABASE_URL${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('serve and keys use DATABASE_URL instead of starting PGlite, and say so', async () => {
    const db = await freshDatabase()
    const cwd = tempDir()
    try {
      const env = { DATABASE_URL: db.url }
      const server = run(['serve', '--port', '0'], { cwd, env })
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      const [, key] = await server.waitFor(/shown once, keep it\): (rgk_\w+)/)
      expect(server.output()).toContain(`storage: PostgreSQL at ${new URL(db.url).host} (from DATABASE_URL)`)
      expect((await api(url!, key!, 'POST', '/affiliates', { email: 'env@example.com' })).status).toBe(201)

      const client = new pg.Client({ connectionString: db.url })
      await client.connect()
      const rows = await client.query('SELECT email FROM affiliate_kit.affiliates').finally(() => client.end())
      expect(rows.rows).toEqual([{ email: 'env@example.com' }])

      const list = run(['keys', 'list'], { cwd, env })
      expect(await list.exited).toBe(0)
      expect(list.output()).toMatch(/^1\trgk_\w{4}…\t\*\tfirst start\tactive\n$/)
      expect(await server.stop()).toBe(0)
      expect(existsSync(join(cwd, 'affiliate-data'))).toBe(false)
    } finally {
      await db.drop()
    }
  }, 60_000)
})
