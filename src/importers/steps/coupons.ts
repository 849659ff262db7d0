// The coupons step: each coupon found by code (`existing` when it is the same affiliate's,
// `differs` otherwise) or created for its affiliate.
import type { SourceCoupon } from '../source.js'
import { affiliateOf, type ImportRun } from './import-run.js'

export async function importCoupon(run: ImportRun, record: SourceCoupon): Promise<void> {
  const { program, report } = run
  const affiliate = affiliateOf(run, 'coupons', record.sourceId, record.affiliateSourceId)
  if (!affiliate) return
  const { items } = await program.coupons.list({ code: record.code, limit: 1 })
  const existing = items[0]
  if (existing) {
    if (existing.affiliateId === affiliate.id) return report.count('coupons', record.sourceId, 'existing')
    return report.count('coupons', record.sourceId, 'differs', { field: 'affiliate', message: `code ${record.code} belongs to ${existing.affiliateEmail ?? `affiliate ${existing.affiliateId}`} here` })
  }
  if (!run.dryRun) await program.coupons.create({ affiliateId: affiliate.id!, code: record.code, processorCouponId: record.providerCouponId })
  report.count('coupons', record.sourceId, 'created')
}
