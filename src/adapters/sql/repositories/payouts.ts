// The payouts repository (settling its conversions is the conversions repository's settleOldestFirst).
import { payoutRules } from '../../../core/ports/entity-filters.js'
import type { PayoutRepository } from '../../../core/ports/storage.js'
import { run } from '../codec.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import { money, type Tables } from '../tables.js'

export function payoutRepository(db: SqlClient, t: Tables): PayoutRepository {
  const table = t.payouts
  return {
    ...sqlEntityTable(db, table, payoutRules),
    async paidTotals(projectId, from, to) {
      const rows = await run(
        db,
        `SELECT affiliate_id, sum(amount_minor) AS amount, count(*) AS count FROM ${table.name}
         WHERE project_id = $1 AND status = 'paid' AND payment_date >= $2 AND payment_date < $3 GROUP BY affiliate_id ORDER BY affiliate_id`,
        [projectId, from, to],
      )
      return rows.map((row) => ({ affiliateId: Number(row.affiliate_id), amount: money(row.amount), count: Number(row.count) }))
    },
  }
}
