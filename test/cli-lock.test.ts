// One data directory, several processes: the running server holds its PGlite directory, so a
// second server or a keys command is refused with one line naming the server's pid; after a
// kill -9 the next opener takes the stale lock over and finds the data intact. On PostgreSQL,
// keys commands work while the server runs and a revocation counts from the next request.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, run, runToEnd } from './cli/process.js'
import { freshDatabase } from './cli/postgres-database.js'
import { tempDirs } from './cli/temp-dirs.js'
import { DATABASE_URL, NO_DATABASE_REASON } from './sql/pg-schema.js'

const tempDir = tempDirs('affiliate-kit-cli-lock')
/** Runs the command to its end in a temp dir, so a stray default database would land there. */
const finished = (args: string[], env: NodeJS.ProcessEnv = {}) => runToEnd(args, { env, cwd: tempDir() })

describe('affiliate-kit on one PGlite directory', () => {
  it('refuses a second server and keys commands while the server runs, and takes over after kill -9 with the data intact', async () => {
    const dir = tempDir()
    const database = `pglite:${join(dir, 'data')}`
    const server = run(['serve', '--port', '0', '--database', database], { cwd: dir })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    const [, key] = await server.waitFor(/shown once, keep it\): (rgk_\w+)/)
    expect((await api(url!, key!, 'POST', '/affiliates', { email: 'kept@example.com', referral_code: 'KEPT' })).status).toBe(201)
    const pid = server.child.pid!

    const create = await finished(['keys', 'create', '--database', database])
    expect(create).toEqual({
      code: 1,
      output: `affiliate-kit: ${join(dir, 'data')} is in use by process ${pid} (a running server?): stop it, run this command, then start it again; with PostgreSQL (--database postgres://...) keys and migrate work while the server runs`,
    })
    const revoke = await finished(['keys', 'revoke', '1', '--database', database])
    expect(revoke.code).toBe(1)
    expect(revoke.output).toContain(`in use by process ${pid}`)
    const second = await finished(['serve', '--port', '0', '--database', database])
    expect(second).toEqual({
      code: 1,
      output: `affiliate-kit: data directory ${join(dir, 'data')} is in use by process ${pid}; only one process may open it at a time; stop that process first, or choose another --database`,
    })
    expect((await api(url!, key!, 'GET', '/affiliates/kept%40example.com')).status).toBe(200)

    server.child.kill('SIGKILL')
    await server.exited
    expect(existsSync(join(dir, 'data', 'affiliate-kit.lock'))).toBe(true)

    const list = await finished(['keys', 'list', '--database', database])
    expect(list.code).toBe(0)
    expect(list.output).toMatch(/^1\trgk_\w{4}…\t\*\tfirst start\tactive$/)
    const restarted = run(['serve', '--port', '0', '--database', database], { cwd: dir })
    const [, url2] = await restarted.waitFor(/listening on (http:\/\/\S+)/)
    const kept = await api(url2!, key!, 'GET', '/affiliates/kept%40example.com')
    expect(kept).toMatchObject({ status: 200, body: { data: { referral_code: 'KEPT' } } })
    expect(await restarted.stop()).toBe(0)
    expect(existsSync(join(dir, 'data', 'affiliate-kit.lock'))).toBe(false)
  }, 180_000)
})

const onPostgres = DATABASE_URL ? describe : describe.skip

onPostgres(`affiliate-kit keys while the server runs on PostgreSQL${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('a key created while the server runs works at once, a revoked one is refused at once, also after kill -9 and a restart', async () => {
    const db = await freshDatabase()
    try {
      const env = { DATABASE_URL: db.url }
      const server = run(['serve', '--port', '0'], { env, cwd: tempDir() })
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)

      const create = await finished(['keys', 'create', '--name', 'live', '--scopes', 'affiliates:read'], env)
      expect(create.code).toBe(0)
      const [key] = create.output.match(/rgk_\w+/)!
      const id = create.output.match(/\(id (\d+)/)![1]!
      expect((await api(url!, key!, 'GET', '/affiliates')).status).toBe(200)

      expect(await finished(['keys', 'revoke', id], env)).toEqual({ code: 0, output: `revoked key ${id}` })
      expect((await api(url!, key!, 'GET', '/affiliates')).status).toBe(401)

      server.child.kill('SIGKILL')
      await server.exited
      const restarted = run(['serve', '--port', '0'], { env, cwd: tempDir() })
      const [, url2] = await restarted.waitFor(/listening on (http:\/\/\S+)/)
      expect((await api(url2!, key!, 'GET', '/affiliates')).status).toBe(401)
      expect(await restarted.stop()).toBe(0)
    } finally {
      await db.drop()
    }
  }, 120_000)
})
