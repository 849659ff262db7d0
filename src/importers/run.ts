// importProgram: writes what a source reads into a program through its public API only (every
// write is a program method, validated and transactional as any other caller's). Idempotent:
// affiliates are found by email (and carry `customFields.importedFrom`), link tokens as their code
// or link aliases, customers by email, coupons by code, commissions by the reference
// `import:<tool>:<id>`, payouts by their commissions; a second run, or a run after one that
// stopped half-way, creates only what is missing. See docs/migrating.md. Its steps, one file each
// in steps/, share one ImportRun (steps/import-run.ts).
import type { AffiliateProgram, ProjectScope } from '../core/program.js'
import { Currency } from '../core/model/money.js'
import type { ImportReport } from './report.js'
import type { ImportSource, SourceCommission, SourceCoupon, SourceCustomer, SourcePayout } from './source.js'
import { importAffiliates } from './steps/affiliates.js'
import { importCommissions } from './steps/commissions.js'
import { importCoupon } from './steps/coupons.js'
import { importCustomer } from './steps/customers.js'
import { startRun, type ImportOptions, type ImportRun } from './steps/import-run.js'
import { ledgers } from './steps/ledgers.js'
import { importPayout } from './steps/payouts.js'
import { inChunks, iterate, oneByOne } from './steps/record-chunks.js'

export type { ImportOptions } from './steps/import-run.js'

export async function importProgram(program: AffiliateProgram | ProjectScope, source: ImportSource, options: ImportOptions = {}): Promise<ImportReport> {
  const run = await startRun(program, source, options)
  const sourceId = (record: { sourceId: string }) => record.sourceId
  await inChunks(run, 'affiliates', source.affiliates(), (records) => importAffiliates(run, records), sourceId)
  await inChunks(run, 'coupons', source.coupons(), oneByOne((record: SourceCoupon) => importCoupon(run, record)), sourceId)
  await inChunks(run, 'customers', source.customers(), oneByOne((record: SourceCustomer) => importCustomer(run, record)), sourceId)
  const commissions = await oldestFirst(source.commissions())
  const currency = new Currency(run.settings.currency)
  await inChunks(run, 'commissions', iterate(commissions), (records) => importCommissions(run, records, currency), sourceId, commissions.length)
  if (source.payouts) await inChunks(run, 'payouts', source.payouts(), oneByOne((record: SourcePayout) => importPayout(run, record)), sourceId)
  await settleReport(run)
  return run.report
}

/** Oldest first, so a customer's first purchase is its earliest commission (renewals keep their rule's duration). */
async function oldestFirst(records: AsyncIterable<SourceCommission>): Promise<SourceCommission[]> {
  const commissions: SourceCommission[] = []
  for await (const record of records) commissions.push(record)
  return commissions.sort((a, b) => (a.occurredAt.getTime() || 0) - (b.occurredAt.getTime() || 0) || a.sourceId.localeCompare(b.sourceId))
}

/** The report's table per affiliate, with the ledgers read back after a real run. */
async function settleReport(run: ImportRun): Promise<void> {
  await run.report.settleTable(run.dryRun ? undefined : (emails) => ledgers(run, emails))
}
