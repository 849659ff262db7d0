// The provider payouts repository (docs/payouts.md "Automatic payouts"): its table alone.
import { providerPayoutRules } from '../../../core/ports/entity-filters.js'
import type { ProviderPayoutRepository } from '../../../core/ports/storage.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function providerPayoutRepository(db: SqlClient, t: Tables): ProviderPayoutRepository {
  return sqlEntityTable(db, t.providerPayouts, providerPayoutRules)
}
