// Migration 22: affiliates' payout requests (docs/payouts.md "Payout requests").
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const payoutRequests: Migration = {
  version: 22,
  name: 'payout requests',
  statements: [
    `CREATE TABLE {s}.payout_requests (
        id bigserial PRIMARY KEY,
        project_id text NOT NULL REFERENCES {s}.projects (id) ON DELETE CASCADE,
        affiliate_id bigint NOT NULL REFERENCES {s}.affiliates (id) ON DELETE CASCADE,
        amount_minor numeric NOT NULL,
        currency text NOT NULL,
        status text NOT NULL,
        payout_id bigint,
        resolved_at timestamptz,
        created_at timestamptz NOT NULL
      )`,
    `CREATE UNIQUE INDEX payout_requests_open_idx ON {s}.payout_requests (affiliate_id) WHERE status = 'open'`,
    `CREATE INDEX payout_requests_project_idx ON {s}.payout_requests (project_id, created_at, id)`,
  ],
}
