// Migration 4: coupons' status (only active coupons attribute conversions).
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const couponStatus: Migration = {
  version: 4,
  name: 'coupon status',
  statements: [`ALTER TABLE {s}.coupons ADD COLUMN status text NOT NULL DEFAULT 'active'`],
}
