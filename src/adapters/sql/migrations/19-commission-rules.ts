// Migration 19: what per-product, per-affiliate and counted renewal rules need (docs/commissions.md).
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// A conversion records its product and the rule that earned it (null before this migration: not
// known). A referred user counts its payments (backfilled from its purchases; one at least once a
// first purchase is recorded), remembers the payment counted last (the lines of one invoice are one
// payment) and the rules of its first purchase (grandfathering; null before: today's rules apply).
export const commissionRules: Migration = {
  version: 19,
  name: 'commission rules: products, affiliates, payments counted',
  statements: [
    `ALTER TABLE {s}.conversions ADD COLUMN product_id text, ADD COLUMN rule_source text, ADD COLUMN commission_amount text`,
    `UPDATE {s}.conversions SET rule_source = 'explicit' WHERE basis = 'explicit'`,
    `ALTER TABLE {s}.affiliates ADD COLUMN commission jsonb`,
    `ALTER TABLE {s}.referrals ADD COLUMN payments integer NOT NULL DEFAULT 0, ADD COLUMN last_payment text, ADD COLUMN commission_terms jsonb`,
    `UPDATE {s}.referrals AS r SET payments = greatest(
        (SELECT count(*) FROM {s}.conversions c WHERE c.project_id = r.project_id AND c.referred_user_id = r.id AND c.type = 'purchase' AND c.tier = 1),
        CASE WHEN r.first_purchase_at IS NULL THEN 0 ELSE 1 END)
      WHERE r.first_purchase_at IS NOT NULL`,
  ],
}
