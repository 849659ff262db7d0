// Migration 7: the tracking tables: per-day counters, visitor days, visitor salts, referral times.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const tracking: Migration = {
  version: 7,
  name: 'tracking: daily counters, visitor days, visitor salts, referral times',
  statements: [
    `CREATE TABLE {s}.tracking_daily (
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        day date NOT NULL,
        clicks bigint NOT NULL DEFAULT 0,
        visitors bigint NOT NULL DEFAULT 0,
        signups bigint NOT NULL DEFAULT 0,
        purchases bigint NOT NULL DEFAULT 0,
        revenue_minor numeric(24,0) NOT NULL DEFAULT 0,
        commission_minor numeric(24,0) NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, affiliate_id, day)
      )`,
    `CREATE INDEX tracking_daily_day_idx ON {s}.tracking_daily (project_id, day)`,
    `CREATE TABLE {s}.tracking_visitors (
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        day date NOT NULL,
        visitor text NOT NULL,
        PRIMARY KEY (project_id, affiliate_id, day, visitor)
      )`,
    `CREATE TABLE {s}.tracking_salts (
        project_id text PRIMARY KEY,
        salt text NOT NULL
      )`,
    `CREATE TABLE {s}.referral_times (
        project_id text NOT NULL,
        referral_id bigint NOT NULL,
        referred_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, referral_id)
      )`,
  ],
}
