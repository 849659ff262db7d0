// The referrals repository: referred users by email (case-insensitive), and the first purchase
// decided by the row.
import { referralRules } from '../../../core/ports/entity-filters.js'
import type { ReferralRepository } from '../../../core/ports/storage.js'
import type { RuleSet } from '../../../core/model/types.js'
import { decode, run } from '../codec.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function referralRepository(db: SqlClient, t: Tables): ReferralRepository {
  const table = t.referrals
  return {
    ...sqlEntityTable(db, table, referralRules),
    async markFirstPurchase(projectId, id, at, payment) {
      // Decided by the row: an UPDATE waits for another transaction's, then checks the condition again.
      const rows = await run(
        db,
        `WITH marked AS (
           UPDATE ${table.name} SET first_purchase_at = $3, conversion_status = 'converted', conversion_date = $3, payments = 1, last_payment = $4
           WHERE project_id = $1 AND id = $2 AND first_purchase_at IS NULL RETURNING *
         ), kept AS (
           INSERT INTO ${t.schema}.referral_terms (referral_id, project_id, terms) SELECT id, project_id, $5::jsonb FROM marked
         )
         SELECT * FROM marked`,
        [projectId, id, at, payment.key, JSON.stringify(payment.terms)],
      )
      return rows[0] ? table.read(rows[0]) : null
    },
    async termsOf(projectId, id) {
      const rows = await run(db, `SELECT terms FROM ${t.schema}.referral_terms WHERE referral_id = $2 AND project_id = $1`, [projectId, id])
      return rows[0] ? (decode('json', rows[0].terms) as RuleSet) : null
    },
    async recordPayment(projectId, id, key) {
      const rows = await run(
        db,
        `UPDATE ${table.name} SET payments = payments + CASE WHEN $3::text IS NOT NULL AND last_payment = $3::text THEN 0 ELSE 1 END, last_payment = $3
         WHERE project_id = $1 AND id = $2 RETURNING payments`,
        [projectId, id, key],
      )
      return rows[0] ? Number(rows[0].payments) : null
    },
  }
}
