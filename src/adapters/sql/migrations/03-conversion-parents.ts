// Migration 3: the index of tier-2 shares by their source conversion.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const conversionParents: Migration = {
  version: 3,
  name: 'tier-2 shares by source conversion',
  statements: [
    `CREATE INDEX conversions_parent_idx ON {s}.conversions (project_id, parent_conversion_id) WHERE parent_conversion_id IS NOT NULL`,
  ],
}
