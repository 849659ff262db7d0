// The referrals repository: referred users by email (case-insensitive), and the first purchase
// decided by the row.
import type { ReferralRepository } from '../../../core/storage.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function referralRepository(db: SqlClient, t: Tables): ReferralRepository {
  const table = t.referrals
  return {
    insert: (referral) => table.insert(db, referral),
    get: (projectId, id) => table.get(db, projectId, id),
    getByEmail: (projectId, email) => table.findOne(db, 'project_id = $1 AND lower(email) = lower($2)', [projectId, email]),
    update: (projectId, id, patch) => table.update(db, projectId, id, patch),
    async markFirstPurchase(projectId, id, at) {
      // Decided by the row: an UPDATE waits for another transaction's, then checks the condition again.
      const rows = await run(
        db,
        `UPDATE ${table.name} SET first_purchase_at = $3, conversion_status = 'converted', conversion_date = $3
         WHERE project_id = $1 AND id = $2 AND first_purchase_at IS NULL RETURNING *`,
        [projectId, id, at],
      )
      return rows[0] ? table.read(rows[0]) : null
    },
    list: (projectId, filter) =>
      table.page(
        db,
        projectId,
        [
          ['affiliate_id = ?', filter.affiliateId],
          ['conversion_status = ?', filter.status],
        ],
        filter,
      ),
  }
}
