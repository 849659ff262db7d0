// `affiliate-kit import rewardful` as a user runs it: against a local Rewardful, into an embedded
// database, with a config; the dry run writes nothing, the real run prints the summary and the table
// and writes the report, a second run creates nothing, a refused key is one line. The dry run
// reports the same warnings in the same format, to the temp folder (issue 43 item 8).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run, runToEnd } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { API_SECRET, startFakeRewardful, type FakeRewardful } from '../support/importers/rewardful-server.js'

const tempDir = tempDirs('affiliate-kit-import')
let rewardful: FakeRewardful
beforeAll(async () => {
  rewardful = await startFakeRewardful()
})
afterAll(() => rewardful.close())

describe('affiliate-kit import rewardful', () => {
  it('dry run, then import, then again: nothing written by the dry run, nothing created twice', async () => {
    const cwd = tempDir()
    writeFileSync(join(cwd, 'config.json'), JSON.stringify({ currency: 'USD', holdPeriodDays: 30 }))
    const args = ['import', 'rewardful', '--api-url', rewardful.url, '--database', `pglite:${join(cwd, 'data')}`, '--config', 'config.json']
    const env = { REWARDFUL_API_KEY: API_SECRET }

    const dry = await runToEnd([...args, '--dry-run'], { cwd, env })
    expect(dry.code).toBe(0)
    expect(dry.output).toContain('affiliates: 3 would create, 0 existing')
    expect(dry.output).toContain('commissions: 6 would create, 0 existing')
    expect(dry.output).toMatch(/james@example\.com\t4\t74\.99 USD\t44\.99 USD/)
    // The dry run warns as the real run will (below), and its report goes to the temp folder, not the working directory.
    expect(dry.output).toContain('warning commissions c3 status: pending in the tool, active here')
    const dryFile = /report written to (.+)$/m.exec(dry.output)?.[1]
    expect(dryFile).toMatch(new RegExp(`^${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/affiliate-kit-import-rewardful-.+-dry-run\.json$`))
    expect(readdirSync(cwd).sort()).toEqual(['config.json', 'data'])
    const dryReport = JSON.parse(readFileSync(dryFile!, 'utf8'))
    rmSync(dryFile!)

    const first = await runToEnd([...args, '--report', 'first.json'], { cwd, env })
    expect(first.code).toBe(0)
    // Not a terminal (a pipe): plain lines, no progress bar.
    expect(first.output).toContain('commissions: 6 read from Rewardful')
    expect(first.output).not.toMatch(/[\u2588\u2591]/)
    expect(first.output).toContain('affiliates: 3 created, 0 existing')
    expect(first.output).toMatch(/james@example\.com\t4\t74\.99 USD\t44\.99 USD\t74\.99 USD\t44\.99 USD/)
    // Pending in Rewardful since February; past this project's 30-day hold today: said, not hidden.
    expect(first.output).toContain('warning commissions c3 status: pending in the tool, active here')
    const report = JSON.parse(readFileSync(join(cwd, 'first.json'), 'utf8'))
    expect(report.counts.commissions.created).toBe(6)
    // Same format, same counts, same record lines and warnings; only the ledger columns are the real run's.
    expect({ ...dryReport, dryRun: false, affiliates: null }).toEqual({ ...report, affiliates: null })
    expect(dryReport.affiliates).toEqual(report.affiliates.map(({ ledgerTotal: _t, ledgerUnpaid: _u, ...line }: Record<string, unknown>) => line))
    expect(first.output).not.toContain(API_SECRET)

    const second = await runToEnd([...args, '--report', 'second.json'], { cwd, env })
    expect(second.code).toBe(0)
    expect(second.output).toContain('affiliates: 0 created, 3 existing')
    expect(second.output).toContain('commissions: 0 created, 6 existing')
  }, 120_000)

  it('on a terminal, a progress bar per entity instead of the plain lines', async () => {
    const cwd = tempDir()
    const main = fileURLToPath(new URL('../../.test-build/cli/main.js', import.meta.url))
    const args = [process.execPath, main, 'import', 'rewardful', '--api-url', rewardful.url, '--database', 'memory', '--report', 'tty.json']
    // script(1) runs the command on a pseudo-terminal: its stdout and stderr are a TTY.
    const quoted = args.map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(' ')
    const child = run([], { cwd, env: { REWARDFUL_API_KEY: API_SECRET }, command: ['script', '-qefc', quoted, '/dev/null'] })
    expect(await child.exited).toBe(0)
    const output = child.output()
    expect(output).toMatch(/commissions \[[\u2588\u2591]{40}\] 6\/6 100%/)
    expect(output).not.toContain('commissions: 6 read from Rewardful')
    expect(output).toContain('affiliates: 3 created, 0 existing')
  }, 60_000)

  it('a refused key is one line and exit code 1', async () => {
    const cwd = tempDir()
    const result = await runToEnd(['import', 'rewardful', '--api-key', 'wrong-key', '--api-url', rewardful.url, '--database', 'memory'], { cwd })
    expect(result.code).toBe(1)
    expect(result.output).toBe('affiliate-kit: Rewardful refused the API key (401): use the API Secret from Company Settings')
  })
})
