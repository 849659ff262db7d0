// The clicks repository: a click on a referral link, inserted whole.
import type { ClickRepository } from '../../../core/storage.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function clickRepository(db: SqlClient, t: Tables): ClickRepository {
  return { insert: (click) => t.clicks.insert(db, click) }
}
