// The coupons repository: its table alone (codes unique per project, case-insensitive).
import { couponRules } from '../../../core/ports/entity-filters.js'
import type { CouponRepository } from '../../../core/ports/storage.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function couponRepository(db: SqlClient, t: Tables): CouponRepository {
  return sqlEntityTable(db, t.coupons, couponRules)
}
