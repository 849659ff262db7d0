// `affiliate-kit import tolt|firstpromoter|dub` as a user runs it: against a local tool API with
// --api-url or <TOOL>_API_URL, and with --csv from export files into an embedded database, run
// twice; a refused key and a missing option are one line each.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runToEnd } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { writeExports } from '../support/importers/csv-exports.js'
import { KEYS, startFakeTool, TOLT_PROGRAM, type FakeTool } from '../support/importers/tool-servers.js'

const tempDir = tempDirs('affiliate-kit-import-tools')
let tolt: FakeTool
let firstpromoter: FakeTool
beforeAll(async () => {
  tolt = await startFakeTool('tolt')
  firstpromoter = await startFakeTool('firstpromoter')
})
afterAll(() => Promise.all([tolt?.close(), firstpromoter?.close()]))

describe('affiliate-kit import tolt|firstpromoter|dub', () => {
  it('tolt from its API (TOLT_API_URL, --program-id): the summary and the table per affiliate', async () => {
    const cwd = tempDir()
    writeFileSync(join(cwd, 'config.json'), JSON.stringify({ currency: 'USD', holdPeriodDays: 30 }))
    const env = { TOLT_API_KEY: KEYS.tolt, TOLT_API_URL: tolt.url }
    const result = await runToEnd(['import', 'tolt', '--program-id', TOLT_PROGRAM, '--database', 'memory', '--config', 'config.json', '--report', 'tolt.json'], { cwd, env })
    expect(result.code, result.output).toBe(0)
    expect(result.output).toContain('commissions: 7 read from Tolt')
    expect(result.output).toContain('affiliates: 3 created, 0 existing')
    expect(result.output).toMatch(/jim@example\.com\t1\t50\.00 USD\t0\.00 USD\t50\.00 USD\t0\.00 USD/)
    expect(JSON.parse(readFileSync(join(cwd, 'tolt.json'), 'utf8')).counts.commissions.created).toBe(7)
    expect(result.output).not.toContain(KEYS.tolt)
  }, 60_000)

  it('dub from its CSV exports into PGlite, twice: the second run creates nothing', async () => {
    const cwd = tempDir()
    const exports = join(cwd, 'exports')
    mkdirSync(exports)
    writeExports('dub', exports)
    writeFileSync(join(cwd, 'config.json'), JSON.stringify({ currency: 'USD', holdPeriodDays: 30 }))
    const args = ['import', 'dub', '--csv', 'exports', '--database', `pglite:${join(cwd, 'data')}`, '--config', 'config.json']

    const first = await runToEnd([...args, '--report', 'first.json'], { cwd })
    expect(first.code, first.output).toBe(0)
    expect(first.output).toContain('commissions: 6 read from Dub CSV')
    expect(first.output).toMatch(/alex@example\.com\t4\t62\.50 USD\t37\.50 USD\t62\.50 USD\t37\.50 USD/)

    const second = await runToEnd([...args, '--report', 'second.json'], { cwd })
    expect(second.code, second.output).toBe(0)
    expect(second.output).toContain('affiliates: 0 created, 3 existing')
    expect(second.output).toContain('commissions: 0 created, 6 existing')
  }, 120_000)

  it('a refused key, a missing program id and a missing directory are one line each, exit code 1', async () => {
    const cwd = tempDir()
    const refused = await runToEnd(['import', 'firstpromoter', '--api-key', 'wrong', '--api-url', firstpromoter.url, '--database', 'memory'], { cwd })
    expect(refused.code).toBe(1)
    expect(refused.output).toBe('affiliate-kit: FirstPromoter refused the API key (401): use the API key from Settings → Integrations')

    const noProgram = await runToEnd(['import', 'tolt', '--api-key', KEYS.tolt, '--api-url', tolt.url, '--database', 'memory'], { cwd, env: { TOLT_PROGRAM_ID: '' } })
    expect(noProgram.code).toBe(1)
    expect(noProgram.output).toBe('affiliate-kit: import tolt needs --program-id (or TOLT_PROGRAM_ID): Tolt lists partners and commissions per program')

    const noDir = await runToEnd(['import', 'firstpromoter', '--csv', 'nowhere', '--database', 'memory'], { cwd })
    expect(noDir.code).toBe(1)
    // Resolved against the command's directory: a server running the import has another one.
    expect(noDir.output).toBe(`affiliate-kit: no such directory: ${join(cwd, 'nowhere')}`)
  }, 60_000)
})
