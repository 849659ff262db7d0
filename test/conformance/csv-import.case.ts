// Importing CSV exports refuses what is not money, not UTF-8 or not one mailbox (issue 43 items
// 15 and 19): a cell such as `1e5`, `0x10`, `0b101` or `(5.00)` stops the import naming the file,
// row and column, with nothing of it written; a garbled name names its row; an email the mailer
// would read as two addresses is refused, never mailed to the second one.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { csvSource, importProgram } from '../../src/importers/index.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { writeExports } from '../support/importers/csv-exports.js'
import type { AffiliateProgram } from '../../src/index.js'
import type { CaseContext } from './harness.js'

const tempDir = tempDirs('affiliate-kit-csv-case')

/** Reads Dub's exports from `dir` into the program (the source reads and checks every file first). */
const importCsv = async (program: AffiliateProgram, dir: string) => importProgram(program, csvSource('dub', { dir, currency: 'USD' }))

export function csvImportCases(context: CaseContext): void {
  describe('CSV import: strict cells', () => {
    async function nothingImported(program: AffiliateProgram) {
      expect((await program.affiliates.list({ limit: 1 })).total).toBe(0)
      expect((await program.conversions.list({ limit: 1 })).total).toBe(0)
      expect((await program.referrals.list({ limit: 1 })).total).toBe(0)
    }

    // Each written in row 3 of Dub's commissions file, after a good row 2.
    for (const cell of ['1e5', '0x10', '0b101', '(5.00)', '12,5', '$1.001', '5.00.00', '--5', '€5.00', 'EUR 5.00', 'Infinity', '']) {
      it(`a commission of "${cell}" stops the import naming file, row 3 and column "Commission"; nothing is imported`, async () => {
        const { program } = await context.program({ settings: { currency: 'USD', holdPeriodDays: 0 } })
        const dir = tempDir()
        writeExports('dub', dir)
        const file = join(dir, 'commissions.csv')
        writeFileSync(file, `ID,Date,Partner,Amount,Commission,Status\ncm_1,2026-01-05,alex@example.com,$100.00,$25.00,Paid\ncm_2,2026-01-06,alex@example.com,$100.00,"${cell}",Paid\n`)
        const run = () => importCsv(program, dir)
        await expect(run()).rejects.toThrow(`${file} row 3, column "Commission": `)
        await expect(run()).rejects.toThrow('nothing was imported')
        await nothingImported(program)
      })
    }

    it('money as the exports write it is read to the cent; a bad sale amount or date names its column too', async () => {
      const { program } = await context.program({ settings: { currency: 'USD', holdPeriodDays: 0 } })
      const dir = tempDir()
      writeExports('dub', dir)
      const file = join(dir, 'commissions.csv')
      writeFileSync(file, 'ID,Date,Partner,Amount,Commission,Status\nc1,2026-01-05,alex@example.com,"$1,200.50",$1.05,Paid\nc2,2026-01-05T10:00:00Z,alex@example.com,50,-$0.00,Paid\nc3,2026-01-05 10:00:00,alex@example.com,USD 50,12.5 USD,Paid\n')
      await importCsv(program, dir)
      const values = (await program.conversions.list({ limit: 10 })).items.map((conversion) => [conversion.reference, conversion.value, conversion.baseValue]).sort()
      expect(values).toEqual([
        ['import:dub:c1', '1.05', '1200.50'],
        ['import:dub:c2', '0.00', '50.00'],
        ['import:dub:c3', '12.50', '50.00'],
      ])

      const { program: other } = await context.program({ settings: { currency: 'USD' } })
      writeFileSync(file, 'ID,Date,Partner,Amount,Commission,Status\nc1,2026-01-05,alex@example.com,0x10,$1.00,Paid\n')
      await expect(importCsv(other, dir)).rejects.toThrow(`${file} row 2, column "Amount": "0x10" is not an amount`)
      writeFileSync(file, 'ID,Date,Partner,Amount,Commission,Status\nc1,2026-02-30,alex@example.com,$1.00,$1.00,Paid\n')
      await expect(importCsv(other, dir)).rejects.toThrow(`${file} row 2, column "Date": "2026-02-30" is not a date`)
      writeFileSync(file, 'ID,Date,Partner,Amount,Commission,Status\nc1,05/01/2026,alex@example.com,$1.00,$1.00,Paid\n')
      await expect(importCsv(other, dir)).rejects.toThrow(`${file} row 2, column "Date": "05/01/2026" is not a date`)
      await nothingImported(other)
    })

    it('a file that is not UTF-8 stops the import naming the row and column; nothing is imported', async () => {
      const { program } = await context.program({ settings: { currency: 'USD' } })
      const dir = tempDir()
      writeExports('dub', dir)
      const file = join(dir, 'partners.csv')
      // "Müller" saved as Latin-1: the ü is the single byte 0xFC.
      writeFileSync(file, Buffer.concat([Buffer.from('ID,Name,Email,Status,Link\npn_a,Ann,ann@example.com,approved,ann\npn_m,M'), Buffer.from([0xfc]), Buffer.from('ller,mueller@example.com,approved,mueller\n')]))
      await expect(importCsv(program, dir)).rejects.toThrow(`${file}: row 3, column "Name" is not UTF-8 text`)
      await nothingImported(program)

      writeFileSync(file, 'ID,Name,Email,Status,Link\npn_m,Müller,mueller@example.com,approved,mueller\n')
      await importCsv(program, dir)
      expect((await program.affiliates.get('mueller@example.com')).name).toBe('Müller')
    })

    it('an email the mailer reads as two addresses is refused, naming the field; its second address gets nothing', async () => {
      const { program } = await context.program({ settings: { currency: 'USD' } })
      const dir = tempDir()
      writeExports('dub', dir)
      writeFileSync(join(dir, 'partners.csv'), 'ID,Name,Email,Status,Link\npn_e,Eve,"eve,postmaster@example.com",approved,eve\npn_f,Fay,"Fay <fay@example.com>",approved,fay\npn_a,Ann,ann@example.com,approved,ann\n')
      writeFileSync(join(dir, 'commissions.csv'), 'ID,Date,Partner,Amount,Commission,Status\n')
      writeFileSync(join(dir, 'customers.csv'), 'Email,Partner email\n')
      const report = await importCsv(program, dir)
      expect(report.records.filter((record) => record.outcome === 'error').map((record) => [record.entity, record.field])).toEqual([
        ['affiliates', 'email'],
        ['affiliates', 'email'],
      ])
      expect(report.counts.affiliates.created).toBe(1)
      const all = (await program.affiliates.list({ limit: 10 })).items.map((affiliate) => affiliate.email)
      expect(all).toEqual(['ann@example.com'])
      await expect(program.affiliates.create({ email: 'eve,postmaster@example.com' })).rejects.toMatchObject({ field: 'email' })
      await expect(program.affiliates.update((await program.affiliates.get('ann@example.com')).id, { paypalEmail: 'ann;boss@example.com' })).rejects.toMatchObject({ field: 'paypalEmail' })
    })
  })
}
