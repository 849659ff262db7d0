// Migration 17: what an affiliate told the portal's application page (docs/onboarding.md).
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const affiliateApplications: Migration = {
  version: 17,
  name: 'affiliate applications',
  statements: [`ALTER TABLE {s}.affiliates ADD COLUMN application jsonb`],
}
