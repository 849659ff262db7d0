// Importing each tool's CSV exports (--csv <dir>): files in the columns docs/migrating.md lists,
// with a byte-order mark, CRLF and quoted cells; the ledger per affiliate matches hand-computed
// totals to the cent, link URLs give their tokens, a rerun creates nothing (rows without an id
// column included), and a file without a needed column or with a bad cell is one clear error.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { csvSource, importProgram, type CsvTool, type ImportReport } from '../../src/importers/index.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { CSV_FILES, writeExports } from '../support/importers/csv-exports.js'
import { ledger } from '../support/importers/ledger.js'

const tempDir = tempDirs('affiliate-kit-import-csv')

async function program(holdPeriodDays = 30): Promise<AffiliateProgram> {
  return createAffiliateProgram({ storage: memoryStorage(), clock: testClock('2026-03-01T00:00:00.000Z'), settings: { currency: 'USD', holdPeriodDays } })
}

/** Per tool: the affiliates' ledgers by hand, the commission count, and one affiliate's referral code. */
const EXPECTED: Record<CsvTool, { ledgers: Record<string, [string, string, string]>; commissions: number; code: [string, string] }> = {
  // james 14.99 pending + 30.00 due + 30.00 paid (25.00 voided earns nothing); q "$1,050.00" paid.
  rewardful: { ledgers: { 'james@example.com': ['74.99', '30.00', '44.99'], 'eve@example.com': ['12.34', '0.00', '12.34'], 'q@example.com': ['1050.00', '1050.00', '0.00'] }, commissions: 6, code: ['james@example.com', 'jb007'] },
  // michael 15.00 pending + 19.99 paid twice (two identical rows: two commissions); 25.00 rejected.
  tolt: { ledgers: { 'michael@example.com': ['54.98', '39.98', '15.00'], 'dwight@example.com': ['12.34', '0.00', '12.34'], 'jim@example.com': ['50.00', '50.00', '0.00'] }, commissions: 6, code: ['michael@example.com', 'michael'] },
  firstpromoter: { ledgers: { 'leslie@example.com': ['30.00', '0.00', '30.00'], 'ron@example.com': ['7.77', '0.00', '7.77'], 'ann@example.com': ['43.21', '43.21', '0.00'] }, commissions: 5, code: ['leslie@example.com', 'leslie'] },
  dub: { ledgers: { 'alex@example.com': ['62.50', '25.00', '37.50'], 'sam@example.com': ['9.99', '0.00', '9.99'], 'kim@example.com': ['36.00', '36.00', '0.00'] }, commissions: 6, code: ['kim@example.com', 'kim'] },
}

describe('import from CSV exports', () => {
  for (const tool of ['rewardful', 'tolt', 'firstpromoter', 'dub'] as const) {
    it(`${tool}: the ledger per affiliate to the cent, tokens from links, a rerun creates nothing`, async () => {
      const dir = tempDir()
      writeExports(tool, dir)
      const target = await program()

      const report = await importProgram(target, csvSource(tool, { dir, currency: 'USD' }))

      expect(report.records.filter((r) => r.outcome === 'error')).toEqual([])
      expect(report.counts.affiliates.created).toBe(3)
      expect(report.counts.commissions.created).toBe(EXPECTED[tool].commissions)
      for (const [email, [total, paid, unpaid]] of Object.entries(EXPECTED[tool].ledgers)) expect(await ledger(target, email), email).toEqual({ total, paid, unpaid })
      const [email, code] = EXPECTED[tool].code
      expect((await target.affiliates.get(email)).referralCode).toBe(code)

      const again = await importProgram(target, csvSource(tool, { dir, currency: 'USD' }))
      for (const entity of ['affiliates', 'coupons', 'customers', 'commissions'] as const) expect(again.counts[entity].created, entity).toBe(0)
      expect(again.counts.commissions.existing).toBe(EXPECTED[tool].commissions)
      expect((await target.conversions.list({ limit: 100 })).total).toBe(EXPECTED[tool].commissions)
    })
  }

  for (const tool of ['rewardful', 'tolt', 'firstpromoter', 'dub'] as const) {
    it(`${tool}: a dry run reports what the real run does (counts, differences, state warnings), first run and rerun alike`, async () => {
      const dir = tempDir()
      writeExports(tool, dir)
      const comparable = (report: ImportReport) => ({ counts: report.counts, resumed: report.resumed, records: report.records })
      const dry = await importProgram(await program(2), csvSource(tool, { dir, currency: 'USD' }), { dryRun: true })
      const target = await program(2)
      const real = await importProgram(target, csvSource(tool, { dir, currency: 'USD' }))
      // A 2-day hold on 2026-03-01: pending commissions older than that read active here, and both runs say so.
      expect(real.records.filter((record) => record.field === 'status').length).toBeGreaterThan(0)
      expect(comparable(dry)).toEqual(comparable(real))

      // The tool changed an amount since: the rerun reports it as differing; so does its dry run.
      const file = join(dir, Object.keys(CSV_FILES[tool]).find((name) => /commissions|rewards/.test(name))!)
      writeFileSync(file, readFileSync(file, 'utf8').replace(/(\$?)(12\.34|43\.21|36\.00)/, '$199.99'))
      const dryAgain = await importProgram(target, csvSource(tool, { dir, currency: 'USD' }), { dryRun: true })
      const again = await importProgram(target, csvSource(tool, { dir, currency: 'USD' }))
      expect(again.counts.commissions.differs + again.counts.commissions.created).toBeGreaterThan(0)
      expect(comparable(dryAgain)).toEqual(comparable(again))
    })
  }

  it('names, statuses and coupons come through; a customer file is optional', async () => {
    const dir = tempDir()
    writeExports('rewardful', dir)
    const target = await program()
    await importProgram(target, csvSource('rewardful', { dir, currency: 'USD' }))
    const james = await target.affiliates.get('james@example.com')
    expect(james).toMatchObject({ name: 'James Bond', paypalEmail: 'james.paypal@example.com', status: 'active' })
    expect((await target.affiliates.get('eve@example.com')).status).toBe('inactive')
    expect((await target.coupons.list({ code: 'JB007SAVE' })).items[0]).toMatchObject({ affiliateId: james.id })
    expect((await target.referrals.get('bob@example.com')).conversionStatus).toBe('pending')
  })

  it('a bad amount or date stops the import naming file, row and column, before anything is written; a file without a needed column stops with one line', async () => {
    const dir = tempDir()
    writeExports('dub', dir)
    const file = join(dir, 'commissions.csv')
    writeFileSync(file, 'ID,Date,Partner,Commission,Status\ncm_1,2026-01-05,alex@example.com,$1.00,Paid\ncm_2,someday,alex@example.com,$1.00,Paid\n')
    expect(() => csvSource('dub', { dir, currency: 'USD' })).toThrow(`${file} row 3, column "Date": "someday" is not a date`)
    writeFileSync(file, 'ID,Date,Partner,Commission,Status\ncm_1,2026-01-05,alex@example.com,twelve,Paid\n')
    expect(() => csvSource('dub', { dir, currency: 'USD' })).toThrow(`${file} row 2, column "Commission": "twelve" is not an amount`)
    writeFileSync(file, 'ID,Date,Partner,Commission,Status\ncm_3,2026-01-05,alex@example.com,$1.001,Paid\n')
    expect(() => csvSource('dub', { dir, currency: 'USD' })).toThrow(`${file} row 2, column "Commission": "$1.001" has more decimals than USD has (2)`)

    writeFileSync(join(dir, 'commissions.csv'), 'ID,Date,Partner,Status\ncm_1,2026-01-05,alex@example.com,Paid\n')
    expect(() => csvSource('dub', { dir, currency: 'USD' })).toThrow(`${join(dir, 'commissions.csv')} has no column for amount (Commission / Earnings)`)
    expect(() => csvSource('tolt', { dir: join(dir, 'missing'), currency: 'USD' })).toThrow('no such directory')
    expect(() => csvSource('firstpromoter', { dir, currency: 'USD' })).toThrow('has no promoters.csv')
  })
})
