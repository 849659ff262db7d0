// Migration 16: indexes that let pruning (the retention port) pick its rows without reading the
// whole table. Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const retentionIndexes: Migration = {
  version: 16,
  name: 'retention indexes',
  statements: [
    `CREATE INDEX idempotency_keys_expiry_idx ON {s}.idempotency_keys (expires_at)`,
    `CREATE INDEX tracking_visitors_day_idx ON {s}.tracking_visitors (day)`,
    `CREATE INDEX web_sessions_expiry_idx ON {s}.web_sessions (expires_at)`,
    `CREATE INDEX web_sessions_idle_expiry_idx ON {s}.web_sessions (idle_expires_at)`,
    `CREATE INDEX web_sign_in_tokens_expiry_idx ON {s}.web_sign_in_tokens (expires_at)`,
    `CREATE INDEX delivery_attempts_time_idx ON {s}.delivery_attempts (attempted_at)`,
  ],
}
