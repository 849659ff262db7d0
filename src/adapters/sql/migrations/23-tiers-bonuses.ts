// Migration 23: what performance tiers and bonuses need (docs/commissions.md "Performance tiers", "Bonuses").
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// An affiliate holds a tier (null: none); the per-day counters count the customers whose first
// purchase fell on the day (0 before this migration: tiers and bonuses count from it on).
export const tiersBonuses: Migration = {
  version: 23,
  name: 'performance tiers and bonuses: affiliate tier, customers per day',
  statements: [
    `ALTER TABLE {s}.affiliates ADD COLUMN tier text`,
    `ALTER TABLE {s}.tracking_daily ADD COLUMN customers bigint NOT NULL DEFAULT 0`,
  ],
}
