// Migration 15: the rate limiter's numbers in an unlogged table.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// A transaction that writes only unlogged tables commits without waiting for the WAL to reach the
// disk, so a request's rate-limit update no longer costs a second synced commit beside its own
// write. What a crash loses: the table is emptied on recovery, so every key starts with a full
// allowance again (docs/limits.md).
export const unloggedRateLimits: Migration = {
  version: 15,
  name: 'unlogged rate limits',
  statements: [`ALTER TABLE {s}.rate_limits SET UNLOGGED`],
}
