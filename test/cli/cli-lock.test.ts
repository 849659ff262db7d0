// One data directory, several processes: the running server holds its PGlite directory, so a
// second server or migrate is refused with one line naming the server's pid (and the exact
// commands to run instead), and keys, providers events and import go through the server; after a kill -9 the next opener takes the stale lock over and finds the
// data intact. On PostgreSQL, keys commands work beside the server. Either way a revocation
// counts from the next request.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pgliteStorage } from '../../src/adapters/pglite/index.js'
import { api, run, runToEnd } from '../support/cli/process.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { writeExports } from '../support/importers/csv-exports.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'
import { migratedDataDir } from '../support/pglite-template.js'

const tempDir = tempDirs('affiliate-kit-cli-lock')
/** Runs the command to its end in a temp dir, so a stray default database would land there. */
const finished = (args: string[], env: NodeJS.ProcessEnv = {}) => runToEnd(args, { env, cwd: tempDir() })

describe('affiliate-kit on one PGlite directory', () => {
  it('keys commands go through the running server, a second server and migrate are refused, and after kill -9 the lock is taken over with the data intact', async () => {
    const dir = tempDir()
    const dataDir = migratedDataDir(join(dir, 'data'))
    const database = `pglite:${dataDir}`
    const server = run(['serve', '--port', '0', '--database', database], { cwd: dir })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    const [, first] = await server.waitFor(/shown once, keep it\): (rgk_\w+)/)
    expect((await api(url!, first!, 'POST', '/affiliates', { email: 'kept@example.com', referral_code: 'KEPT' })).status).toBe(201)
    const pid = server.child.pid!

    const create = await finished(['keys', 'create', '--name', 'live', '--scopes', 'affiliates:read', '--database', database])
    expect(create.code).toBe(0)
    const [live] = create.output.match(/rgk_\w+/)!
    expect(create.output).toContain('(id 2, scopes affiliates:read; shown once)')
    expect((await api(url!, live!, 'GET', '/affiliates')).status).toBe(200)
    const list = await finished(['keys', 'list', '--database', database])
    expect(list.output).toMatch(/^1\trgk_\w{4}…\t\*\tfirst start\tactive\n2\trgk_\w{4}…\taffiliates:read\tlive\tactive$/)
    expect(await finished(['keys', 'revoke', '2', '--database', database])).toEqual({ code: 0, output: 'revoked key 2' })
    expect((await api(url!, live!, 'GET', '/affiliates')).status).toBe(401)
    expect(await finished(['keys', 'revoke', '9', '--database', database])).toEqual({
      code: 1,
      output: 'affiliate-kit: no API key has id 9; "affiliate-kit keys list" shows the ids',
    })

    expect(await finished(['migrate', '--database', database])).toEqual({
      code: 1,
      output: `affiliate-kit: ${dataDir} is in use by process ${pid} (a running server migrates its database when it starts); stop it first to run migrate`,
    })
    // A second server (the README walk-through's `serve --config` while `npm start` runs): where the first answers, and the exact commands instead.
    expect(await finished(['serve', '--port', '0', '--database', database])).toEqual({
      code: 1,
      output:
        `affiliate-kit: a server (process ${pid}) already runs on ${dataDir} and answers at ${url}: embedded PGlite admits one process. ` +
        `Use that one, or stop it (Ctrl-C where it runs, or kill ${pid}) and run \`npx affiliate-kit serve --port 0 --database ${database}\` again; ` +
        `to run both, give this one its own directory: \`npx affiliate-kit serve --port 0 --database ${database}-2\``,
    })
    // providers events and import (its dry run as the real one) go through the server: the report lands in the temp folder, the server says so in its log.
    expect(await finished(['providers', 'events', '--database', database])).toEqual({ code: 0, output: '0 of 0 events' })
    const exports = tempDir()
    writeExports('dub', exports)
    const dry = await finished(['import', 'dub', '--csv', exports, '--dry-run', '--database', database])
    expect(dry.code, dry.output).toBe(0)
    expect(dry.output).toContain(`importing through the server running on ${dataDir} (process ${pid}), with its settings`)
    expect(dry.output).toContain('commissions: 6 read from Dub CSV')
    expect(dry.output).toContain('affiliates: 3 would create, 0 existing')
    expect(dry.output).toMatch(/report written to \S+-dry-run\.json/)
    await server.waitFor(/import from dub CSV \(dry run\) asked through the local socket/)
    expect((await api(url!, first!, 'GET', '/affiliates')).body).toMatchObject({ pagination: { total: 1 } })
    const real = await finished(['import', 'dub', '--csv', exports, '--database', database, '--report', join(exports, 'real.json')])
    expect(real.code, real.output).toBe(0)
    expect(real.output).toContain('affiliates: 3 created, 0 existing')
    expect((await api(url!, first!, 'GET', '/affiliates/alex%40example.com')).status).toBe(200)
    // A bad file is the same one line through the server.
    writeFileSync(join(exports, 'commissions.csv'), 'ID,Date,Partner,Amount,Commission,Status\nc1,2026-01-05,alex@example.com,$1.00,1e5,Paid\n')
    expect(await finished(['import', 'dub', '--csv', exports, '--dry-run', '--database', database])).toEqual({
      code: 1,
      output: `importing through the server running on ${dataDir} (process ${pid}), with its settings\naffiliate-kit: ${join(exports, 'commissions.csv')} row 2, column "Commission": "1e5" is not an amount (1234.56, 1,234.56, $1,234.56, -5.00 or USD 5.00); nothing was imported`,
    })

    server.child.kill('SIGKILL')
    await server.exited
    expect(existsSync(join(dataDir, 'affiliate-kit.lock'))).toBe(true)
    const afterKill = await finished(['keys', 'list', '--database', database])
    expect(afterKill.code).toBe(0)
    expect(afterKill.output).toMatch(/^1\t.*\tactive\n2\t.*\trevoked \S+$/)
    const restarted = run(['serve', '--port', '0', '--database', database], { cwd: dir })
    const [, url2] = await restarted.waitFor(/listening on (http:\/\/\S+)/)
    const kept = await api(url2!, first!, 'GET', '/affiliates/kept%40example.com')
    expect(kept).toMatchObject({ status: 200, body: { data: { referral_code: 'KEPT' } } })
    expect((await api(url2!, live!, 'GET', '/affiliates')).status).toBe(401)
    expect(await restarted.stop()).toBe(0)
    expect(existsSync(join(dataDir, 'affiliate-kit.lock'))).toBe(false)
  }, 180_000)

  it('keys commands say what to do when the directory is held by a program that is not the server', async () => {
    const dataDir = migratedDataDir(join(tempDir(), 'data'))
    const storage = pgliteStorage({ dataDir })
    try {
      expect(await finished(['keys', 'list', '--database', `pglite:${dataDir}`])).toEqual({
        code: 1,
        output: `affiliate-kit: ${dataDir} is in use by process ${process.pid}, which does not take keys commands: stop it, run this command, then start it again`,
      })
      // Not a server: no socket to go through. An import says the exact command to run instead, its key left out.
      const keyed = await finished(['import', 'firstpromoter', '--api-key', 'fp_secret_1', '--dry-run', '--database', `pglite:${dataDir}`])
      expect(keyed).toEqual({
        code: 1,
        output:
          `affiliate-kit: ${dataDir} is in use by process ${process.pid}, and embedded PGlite admits one process (nothing answers this command on the directory's socket). ` +
          `Stop that process (Ctrl-C where it runs, or kill ${process.pid}), run \`npx affiliate-kit import firstpromoter --api-key <key> --dry-run --database pglite:${dataDir}\`, then start it again; ` +
          'or use PostgreSQL (DATABASE_URL), where both run side by side',
      })
    } finally {
      await storage.close()
    }
  }, 60_000)
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
