// Migration 2: foreign keys from an affiliate's and an endpoint's rows to their owner.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// Rows that belong to an affiliate or endpoint reference it, within the same project: a write
// racing the deletion of its owner waits for it and then fails instead of leaving an orphan.
// Keys lead with project_id so the existing indexes serve the checks (SET NULL of one column
// needs PostgreSQL 15).
export const foreignKeys: Migration = {
  version: 2,
  name: 'foreign keys',
  statements: [
    `CREATE UNIQUE INDEX affiliates_project_id_key ON {s}.affiliates (project_id, id)`,
    `ALTER TABLE {s}.affiliates ADD CONSTRAINT affiliates_project_id_unique UNIQUE USING INDEX affiliates_project_id_key`,
    `CREATE UNIQUE INDEX webhook_endpoints_project_id_key ON {s}.webhook_endpoints (project_id, id)`,
    `ALTER TABLE {s}.webhook_endpoints ADD CONSTRAINT webhook_endpoints_project_id_unique UNIQUE USING INDEX webhook_endpoints_project_id_key`,
    ...['conversions', 'coupons', 'clicks', 'payouts'].map(
      (table) => `ALTER TABLE {s}.${table} ADD CONSTRAINT ${table}_affiliate_fkey
          FOREIGN KEY (project_id, affiliate_id) REFERENCES {s}.affiliates (project_id, id) ON DELETE CASCADE`,
    ),
    `ALTER TABLE {s}.referrals ADD CONSTRAINT referrals_affiliate_fkey
        FOREIGN KEY (project_id, affiliate_id) REFERENCES {s}.affiliates (project_id, id) ON DELETE SET NULL (affiliate_id)`,
    `ALTER TABLE {s}.affiliates ADD CONSTRAINT affiliates_parent_fkey
        FOREIGN KEY (project_id, parent_id) REFERENCES {s}.affiliates (project_id, id) ON DELETE SET NULL (parent_id)`,
    `ALTER TABLE {s}.deliveries ADD CONSTRAINT deliveries_endpoint_fkey
        FOREIGN KEY (project_id, endpoint_id) REFERENCES {s}.webhook_endpoints (project_id, id) ON DELETE CASCADE`,
    `ALTER TABLE {s}.delivery_attempts ADD CONSTRAINT delivery_attempts_delivery_fkey
        FOREIGN KEY (delivery_id) REFERENCES {s}.deliveries (id) ON DELETE CASCADE`,
  ],
}
