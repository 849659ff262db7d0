// The hot-rows mixed load for a minute at a lower rate than bench/soak.bench.ts runs it for eight:
// purchases, clicks, reads and new affiliates at once on two `serve` processes sharing PostgreSQL,
// and on one over PGlite. Before the lock order (core/ports/row-locks.ts) a click and a purchase of one
// affiliate locked its row and its day's counters in opposite orders and deadlocked within seconds.
import { fileURLToPath } from 'node:url'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { freshDatabase, runMixedLoad, windowLine, type Window } from '../../bench/mixed-load.js'
import { migratedDataDir } from '../support/pglite-template.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

// Built once per run from the sources by test/support/global-setup.ts.
const CLI = fileURLToPath(new URL('../../.test-build/cli/main.js', import.meta.url))

function expectHealthy(windows: Window[]) {
  console.log(windows.map(windowLine).join('\n'))
  const sum = (field: 'sent' | 'answered' | 'serverErrors' | 'failed' | 'deadlocks') => windows.reduce((total, window) => total + window[field], 0)
  expect({ deadlocks: sum('deadlocks'), serverErrors: sum('serverErrors'), failed: sum('failed'), unanswered: sum('sent') - sum('answered') }).toEqual({ deadlocks: 0, serverErrors: 0, failed: 0, unanswered: 0 })
}

// The two loads run at the same time (describe.concurrent): each is a fixed rate of requests, so
// neither waits on the other, and the file takes the longer one's time instead of both.
describe.skipIf(!DATABASE_URL).concurrent(`mixed load on PostgreSQL, two serve processes${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('40 requests/s for a minute: no deadlock, no 5xx, every request answered', async () => {
    const database = await freshDatabase(DATABASE_URL!)
    try {
      const run = await runMixedLoad({ cli: CLI, database: database.url, processes: 2, rate: 40, seconds: 60, windowSeconds: 10 })
      await run.stop()
      expectHealthy(run.windows)
      // Every purchase answered 201 is stored, once.
      const oracle = new pg.Client({ connectionString: database.url })
      await oracle.connect()
      const stored = await oracle.query(`SELECT count(*)::int AS n FROM affiliate_kit.conversions WHERE reference LIKE 'load\\_%'`).finally(() => oracle.end())
      expect(stored.rows[0].n).toBe(run.acknowledged)
      expect(run.acknowledged).toBe(run.purchases)
    } finally {
      await database.drop()
    }
  }, 300_000)
})

describe.concurrent('mixed load on PGlite, one serve process', () => {
  it('25 requests/s for 30 s: no 5xx, every request answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-mixed-'))
    try {
      // A migrated copy (test/support/pglite-template.ts): the load, not a first start, is under test.
      const run = await runMixedLoad({ cli: CLI, database: `pglite:${migratedDataDir(join(dir, 'data'))}`, processes: 1, rate: 25, seconds: 30, windowSeconds: 10 })
      await run.stop()
      expectHealthy(run.windows)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 300_000)
})
