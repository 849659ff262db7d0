// Migration 28: visitor signals pruned by day, as visitor marks are (retention, migration 16).
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const visitorSignalDays: Migration = {
  version: 28,
  name: 'visitor signal days',
  statements: [`CREATE INDEX visitor_signals_day_idx ON {s}.visitor_signals (day)`],
}
