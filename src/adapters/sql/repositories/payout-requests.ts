// The payout requests repository: at most one open request per affiliate (a partial unique index).
import type { PayoutRequestRepository } from '../../../core/storage.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function payoutRequestRepository(db: SqlClient, t: Tables): PayoutRequestRepository {
  const table = t.payoutRequests
  return {
    insert: (request) => table.insert(db, request),
    async findOpen(projectId, affiliateId) {
      const rows = await run(db, `SELECT * FROM ${table.name} WHERE project_id = $1 AND affiliate_id = $2 AND status = 'open' LIMIT 1`, [projectId, affiliateId])
      return rows[0] ? table.read(rows[0]) : null
    },
    async markPaid(projectId, affiliateId, payoutId, at) {
      const rows = await run(
        db,
        `UPDATE ${table.name} SET status = 'paid', payout_id = $3, resolved_at = $4 WHERE project_id = $1 AND affiliate_id = $2 AND status = 'open' RETURNING *`,
        [projectId, affiliateId, payoutId, at],
      )
      return rows.map((row) => table.read(row))
    },
    list: (projectId, filter) => table.page(db, projectId, [['affiliate_id = ?', filter.affiliateId], ['status = ?', filter.status]], filter),
  }
}
