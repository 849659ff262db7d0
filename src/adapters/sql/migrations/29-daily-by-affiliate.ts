// Migration 29: the per-day counters are read by affiliate only (its days, or the project's rows),
// which the primary key (project_id, affiliate_id, day) serves. The (project_id, day) index lured
// planners without statistics (PGlite has no autovacuum) into scanning every affiliate's days of
// the range on each conversion of a program with tiers or bonuses: 58k rows at 1,000 affiliates.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const dailyByAffiliate: Migration = {
  version: 29,
  name: 'daily counters read by affiliate',
  statements: [`DROP INDEX IF EXISTS {s}.tracking_daily_day_idx`],
}
