// Pruning in SQL (the retention port): each kind is one DELETE of at most `limit` rows picked
// through an index (migration 16), so a batch costs the same however large the table is.
import type { PrunedKind, RetentionStore } from '../../../core/ports/retention.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'

/** The statement per kind: `$1` the moment (a date for visitor marks and signals), `$2` the limit; it returns one row per deleted row. */
function statement(kind: PrunedKind, s: string): string {
  switch (kind) {
    case 'idempotency_keys':
      return `DELETE FROM ${s}.idempotency_keys WHERE (project_id, key) IN (
        SELECT project_id, key FROM ${s}.idempotency_keys WHERE expires_at <= $1 LIMIT $2) RETURNING 1`
    case 'visitor_marks':
      return `DELETE FROM ${s}.tracking_visitors WHERE (project_id, affiliate_id, day, visitor) IN (
        SELECT project_id, affiliate_id, day, visitor FROM ${s}.tracking_visitors WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date LIMIT $2) RETURNING 1`
    case 'visitor_signals':
      return `DELETE FROM ${s}.visitor_signals WHERE (project_id, affiliate_id, visitor, kind) IN (
        SELECT project_id, affiliate_id, visitor, kind FROM ${s}.visitor_signals WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date LIMIT $2) RETURNING 1`
    case 'sessions':
      return `WITH sessions AS (
          DELETE FROM ${s}.web_sessions WHERE digest IN (
            SELECT digest FROM ${s}.web_sessions WHERE idle_expires_at <= $1 OR expires_at <= $1 LIMIT $2) RETURNING 1
        ), tokens AS (
          DELETE FROM ${s}.web_sign_in_tokens WHERE digest IN (
            SELECT digest FROM ${s}.web_sign_in_tokens WHERE expires_at <= $1 LIMIT $2) RETURNING 1
        ) SELECT 1 FROM sessions UNION ALL SELECT 1 FROM tokens`
    case 'delivery_attempts':
      return `DELETE FROM ${s}.delivery_attempts WHERE id IN (
        SELECT a.id FROM ${s}.delivery_attempts a JOIN ${s}.deliveries d ON d.id = a.delivery_id
        WHERE a.attempted_at < $1 AND d.status IN ('succeeded', 'failed') LIMIT $2) RETURNING 1`
  }
}

/** `schema` is the quoted schema name. */
export function sqlRetention(db: SqlClient, schema: string): RetentionStore {
  return {
    async prune(kind, before, limit) {
      return (await run(db, statement(kind, schema), [before, limit])).length
    },
  }
}
