// The provider payouts repository (docs/payouts.md "Automatic payouts").
import type { ProviderPayoutRepository } from '../../../core/storage.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function providerPayoutRepository(db: SqlClient, t: Tables): ProviderPayoutRepository {
  const table = t.providerPayouts
  return {
    insert: (row) => table.insert(db, row),
    getByPayout: (projectId, payoutId) => table.findOne(db, 'project_id = $1 AND payout_id = $2', [projectId, payoutId]),
    async update(projectId, id, patch) {
      await table.update(db, projectId, id, patch)
    },
    async listProcessing(projectId, affiliateId) {
      const rows = await run(
        db,
        `SELECT * FROM ${table.name} WHERE project_id = $1 AND state = 'processing' AND ($2::bigint IS NULL OR affiliate_id = $2) ORDER BY id`,
        [projectId, affiliateId ?? null],
      )
      return rows.map((row) => table.read(row))
    },
    getByRun: (projectId, affiliateId, period) => table.findOne(db, 'project_id = $1 AND affiliate_id = $2 AND run_period = $3', [projectId, affiliateId, period]),
    async listByRun(projectId, period) {
      const rows = await run(db, `SELECT * FROM ${table.name} WHERE project_id = $1 AND run_period = $2 ORDER BY id`, [projectId, period])
      return rows.map((row) => table.read(row))
    },
    async setPayoutStatus(projectId, payoutId, status, conversionsSettled) {
      await run(db, `UPDATE ${t.payouts.name} SET status = $3, conversions_settled = $4 WHERE project_id = $1 AND id = $2`, [
        projectId,
        payoutId,
        status,
        conversionsSettled,
      ])
    },
  }
}
