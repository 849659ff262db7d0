// The coupons repository: codes unique per project, case-insensitive.
import type { CouponRepository } from '../../../core/storage.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function couponRepository(db: SqlClient, t: Tables): CouponRepository {
  const table = t.coupons
  return {
    insert: (coupon) => table.insert(db, coupon),
    get: (projectId, id) => table.get(db, projectId, id),
    getByCode: (projectId, code) => table.findOne(db, 'project_id = $1 AND lower(code) = lower($2)', [projectId, code]),
    update: (projectId, id, patch) => table.update(db, projectId, id, patch),
    delete: (projectId, id) => table.delete(db, projectId, id),
    list: (projectId, filter) =>
      table.page(
        db,
        projectId,
        [
          ['affiliate_id = ?', filter.affiliateId],
          ['lower(code) = lower(?)', filter.code],
          ['status = ?', filter.status],
          ['processor_coupon_id = ?', filter.processorCouponId],
        ],
        filter,
      ),
  }
}
