// The clicks repository: a click on a referral link, inserted whole.
import { clickRules } from '../../../core/ports/entity-filters.js'
import type { ClickRepository } from '../../../core/ports/storage.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function clickRepository(db: SqlClient, t: Tables): ClickRepository {
  return sqlEntityTable(db, t.clicks, clickRules)
}
