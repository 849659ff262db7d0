// Migration 33: an affiliate's own incentives for the customers it refers (docs/incentives.md).
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const affiliateIncentives: Migration = {
  version: 33,
  name: 'affiliate incentives',
  statements: [`ALTER TABLE {s}.affiliates ADD COLUMN incentives jsonb`],
}
