// Migration 32: room on each page of referrals, whose rows are counters too.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// Every purchase of a customer locks its row and counts the payment on it (core/ports/row-locks.ts):
// one row updated again and again, as the affiliates' totals are (migration 27). With free space
// on its page the new version stays beside the old one without new index entries (a HOT update);
// on a full page each payment moved the row and added an entry to each of its indexes, and a
// customer's purchases slowed as its payments grew.
export const referralFillfactor: Migration = {
  version: 32,
  name: 'referral fillfactor',
  statements: [`ALTER TABLE {s}.referrals SET (fillfactor = 70)`],
}
