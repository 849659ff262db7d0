// Migration 27: room on each page of the two tables whose rows are counters.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// Every conversion adds to its affiliate's totals and to the day's counters: an update of a row
// that stays where it is. With free space on the page PostgreSQL writes the new version beside
// the old one without touching the indexes (a HOT update); on a full page it moves the row and
// updates all six indexes of affiliates. An import of 100,000 commissions spent 2.4 s updating
// totals on full pages, 0.7 s with this. Pages written before the migration keep no room until
// they are rewritten (VACUUM FULL, docs/scaling.md).
export const counterFillfactor: Migration = {
  version: 27,
  name: 'counter fillfactor',
  statements: [`ALTER TABLE {s}.affiliates SET (fillfactor = 70)`, `ALTER TABLE {s}.tracking_daily SET (fillfactor = 70)`],
}
