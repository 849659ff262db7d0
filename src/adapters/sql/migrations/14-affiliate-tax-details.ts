// Migration 14: an affiliate's tax details (legal name, country, form type, the tax id encrypted
// by the core: docs/tax-details.md). Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const affiliateTaxDetails: Migration = {
  version: 14,
  name: 'affiliate tax details',
  statements: [`ALTER TABLE {s}.affiliates ADD COLUMN tax_details jsonb`],
}
