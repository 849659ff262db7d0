// Migration 21: the affiliates' ledger movements, for balances as of a date and the ledger export
// (docs/payouts.md "The ledger as of a date"). Its text never changes once released.
import type { Migration } from './migration.js'

// History before this migration was not recorded: each counted conversion opens at its
// created_at (paid ones paid then too), and each affiliate's credit opens now.
export const ledgerMovements: Migration = {
  version: 21,
  name: 'ledger movements',
  statements: [
    `CREATE TABLE {s}.ledger_movements (
        id bigserial PRIMARY KEY,
        project_id text NOT NULL REFERENCES {s}.projects (id) ON DELETE CASCADE,
        affiliate_id bigint NOT NULL REFERENCES {s}.affiliates (id) ON DELETE CASCADE,
        type text NOT NULL,
        conversion_id bigint,
        payout_id bigint,
        hold_until timestamptz,
        counted_value_minor numeric NOT NULL,
        paid_value_minor numeric NOT NULL,
        credit_minor numeric NOT NULL,
        created_at timestamptz NOT NULL
      )`,
    `CREATE INDEX ledger_movements_project_idx ON {s}.ledger_movements (project_id, created_at, id)`,
    `CREATE INDEX ledger_movements_affiliate_idx ON {s}.ledger_movements (affiliate_id, created_at, id)`,
    `CREATE INDEX ledger_movements_hold_idx ON {s}.ledger_movements (project_id, hold_until) WHERE hold_until IS NOT NULL`,
    `INSERT INTO {s}.ledger_movements (project_id, affiliate_id, type, conversion_id, payout_id, hold_until, counted_value_minor, paid_value_minor, credit_minor, created_at)
      SELECT project_id, affiliate_id, 'opening', id, NULL, hold_until, value_minor, CASE WHEN paid THEN value_minor ELSE 0 END, 0, created_at
      FROM {s}.conversions WHERE status = 'active' ORDER BY id`,
    `INSERT INTO {s}.ledger_movements (project_id, affiliate_id, type, conversion_id, payout_id, hold_until, counted_value_minor, paid_value_minor, credit_minor, created_at)
      SELECT project_id, id, 'opening', NULL, NULL, NULL, 0, 0, credit_minor, now()
      FROM {s}.affiliates WHERE credit_minor <> 0 ORDER BY id`,
  ],
}
