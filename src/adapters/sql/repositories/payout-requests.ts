// The payout requests repository: its table alone (at most one open request per affiliate: a
// partial unique index).
import { payoutRequestRules } from '../../../core/ports/entity-filters.js'
import type { PayoutRequestRepository } from '../../../core/ports/storage.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function payoutRequestRepository(db: SqlClient, t: Tables): PayoutRequestRepository {
  return sqlEntityTable(db, t.payoutRequests, payoutRequestRules)
}
