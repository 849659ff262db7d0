// `affiliate-kit import rewardful` of 5,000 affiliates killed -9 half-way through on PostgreSQL
// (among the affiliates, then among the commissions), then run to the end: every affiliate, link
// token and commission exactly once, the ledger to the cent, and the last report counts what
// earlier runs wrote as existing and resumed. About 3 minutes on a shared 2-core machine (165 s measured).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createAffiliateProgram } from '../../src/index.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { run, runToEnd } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { API_SECRET, generatedLists, startFakeRewardful, type FakeRewardful } from '../support/importers/rewardful-server.js'
import { DATABASE_URL } from '../support/sql/pg-schema.js'

const COUNT = 5000
const tempDir = tempDirs('affiliate-kit-import-pg')
let rewardful: FakeRewardful
beforeAll(async () => {
  rewardful = await startFakeRewardful(100, generatedLists(COUNT))
})
afterAll(() => rewardful?.close())

/** Rows in `table` now, over one connection kept for the whole test (polling opened one per read). */
async function counter(url: string): Promise<{ count(table: 'affiliates' | 'conversions'): Promise<number>; end(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return {
    async count(table) {
      const { rows } = await client.query<{ count: string }>(`SELECT count(*) FROM affiliate_kit.${table}`).catch(() => ({ rows: [{ count: '0' }] }))
      return Number(rows[0]!.count)
    },
    end: () => client.end(),
  }
}

describe.skipIf(!DATABASE_URL)('import rewardful killed -9 on PostgreSQL', () => {
  it(`${COUNT} affiliates: killed half-way among the affiliates, then among the commissions, run again: each exactly once, resumed counted`, async () => {
    const database = await freshDatabase()
    const { count, end } = await counter(database.url)
    try {
      const cwd = tempDir()
      const args = ['import', 'rewardful', '--api-url', rewardful.url, '--database', database.url]
      const env = { REWARDFUL_API_KEY: API_SECRET }

      /** Starts the import and kills it -9 once `table` has at least `rows` rows; resolves with the rows then. */
      async function killedWhen(table: 'affiliates' | 'conversions', rows: number): Promise<number> {
        const child = run(args, { cwd, env })
        while ((await count(table)) < rows) {
          if (child.child.exitCode !== null) throw new Error(`the run ended before it was killed:\n${child.output()}`)
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        child.child.kill('SIGKILL')
        await child.exited
        return count(table)
      }

      // Killed half-way through the affiliates, then again among the commissions.
      const before = await killedWhen('affiliates', COUNT / 2)
      expect(before).toBeLessThan(COUNT)
      const converted = await killedWhen('conversions', 100)
      expect(converted).toBeLessThan(COUNT)
      expect(await count('affiliates')).toBe(COUNT)

      const second = await runToEnd([...args, '--report', 'second.json'], { cwd, env })
      expect(second.code, second.output).toBe(0)
      const report = JSON.parse(readFileSync(join(cwd, 'second.json'), 'utf8'))
      expect(report.counts.affiliates).toMatchObject({ existing: COUNT, created: 0, error: 0 })
      expect(report.counts.commissions).toMatchObject({ existing: converted, created: COUNT - converted, error: 0 })
      // Every record an earlier run wrote is said to be resumed; each affiliate's token is its code.
      expect(report.resumed).toMatchObject({ affiliates: COUNT, commissions: converted })
      expect(report.counts.links).toMatchObject({ existing: COUNT, created: 0, error: 0 })
      expect(second.output).toContain(`affiliates: 0 created, ${COUNT} existing (${COUNT} of them resumed from an earlier run)`)
      expect(second.output).toContain(`commissions: ${COUNT - converted} created, ${converted} existing (${converted} of them resumed from an earlier run)`)

      const storage = postgresStorage({ connectionString: database.url })
      const program = await createAffiliateProgram({ storage })
      try {
        expect((await program.affiliates.list({ limit: 1 })).total).toBe(COUNT)
        expect((await program.conversions.list({ limit: 1 })).total).toBe(COUNT)
        // Affiliate i earned i cents, once.
        for (const i of [1, 57, COUNT / 2, COUNT]) expect((await program.affiliates.get(`aff${i}@example.com`)).earnings.total).toBe((i / 100).toFixed(2))
        expect((await program.affiliates.get(`aff${COUNT}@example.com`)).referralCode).toBe(`aff${COUNT}`)
      } finally {
        await program.close()
      }
    } finally {
      await end()
      await database.drop()
    }
  }, 600_000)
})
