// The payouts step: a payout the tool made is recorded once every commission it bundles was
// imported as its affiliate's paid one in this run; else it is skipped (its commissions stay paid).
import type { SourcePayout } from '../source.js'
import { affiliateOf, reference, type ImportRun } from './import-run.js'

export async function importPayout(run: ImportRun, record: SourcePayout): Promise<void> {
  const { program, report } = run
  const affiliate = affiliateOf(run, 'payouts', record.sourceId, record.affiliateSourceId)
  if (!affiliate) return
  const missing = record.commissionSourceIds.filter((id) => run.paid.get(id) !== affiliate.id)
  if (record.commissionSourceIds.length === 0 || missing.length > 0) {
    const what = missing.length > 0 ? `commissions ${missing.join(', ')} were not imported as this affiliate's paid ones` : 'it lists no commissions'
    return report.count('payouts', record.sourceId, 'skipped', { field: 'commissions', message: `${what}: the payout is not recorded (its commissions stay paid)` })
  }
  if (run.dryRun || affiliate.id === null) return report.count('payouts', record.sourceId, 'created')
  const { duplicate } = await program.payouts.recordPaid({ affiliateId: affiliate.id, references: record.commissionSourceIds.map((id) => reference(run, id)), paymentDate: record.paidAt })
  if (duplicate) report.resume('payouts')
  report.count('payouts', record.sourceId, duplicate ? 'existing' : 'created')
}
