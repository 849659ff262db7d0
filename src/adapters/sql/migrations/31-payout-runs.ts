// Migration 31: payout runs (docs/payouts.md "Payout runs"): the period a run paid a payout for.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// At most one run payout per affiliate and period (YYYY-MM), whatever runs or processes meet: the
// second insert waits for the first's affiliate lock, then finds its row, and this index refuses it anyway.
export const payoutRuns: Migration = {
  version: 31,
  name: 'payout runs',
  statements: [
    `ALTER TABLE {s}.provider_payouts ADD COLUMN run_period text`,
    `CREATE UNIQUE INDEX provider_payouts_run_key ON {s}.provider_payouts (project_id, affiliate_id, run_period) WHERE run_period IS NOT NULL`,
    `CREATE INDEX provider_payouts_run_period_idx ON {s}.provider_payouts (project_id, run_period) WHERE run_period IS NOT NULL`,
  ],
}
