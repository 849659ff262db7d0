// Migration 9: the admin console's audit log.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const adminAuditLog: Migration = {
  version: 9,
  name: 'admin console audit log',
  statements: [
    `CREATE TABLE {s}.admin_audit_log (
        id bigserial PRIMARY KEY,
        project_id text NOT NULL REFERENCES {s}.projects (id) ON DELETE CASCADE,
        actor_id text NOT NULL,
        actor_name text NOT NULL,
        action text NOT NULL,
        target text,
        detail text,
        at timestamptz NOT NULL
      )`,
    `CREATE INDEX admin_audit_log_project_idx ON {s}.admin_audit_log (project_id, id)`,
  ],
}
