// Migration 5: leases on Idempotency-Key claims.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// An unanswered Idempotency-Key claim is leased: a repeat after the lease may take it over
// (the process that claimed it died between claim and answer).
export const idempotencyKeyLeases: Migration = {
  version: 5,
  name: 'idempotency key leases',
  statements: [`ALTER TABLE {s}.idempotency_keys ADD COLUMN lease_until timestamptz`],
}
