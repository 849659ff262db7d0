// Migration 34: the host app's id of the user an affiliate is, unique in its project
// (docs/embed.md "Embed tokens"). Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const affiliateExternalId: Migration = {
  version: 34,
  name: 'affiliate external id',
  statements: [`ALTER TABLE {s}.affiliates ADD COLUMN external_id text`, `CREATE UNIQUE INDEX affiliates_external_id_key ON {s}.affiliates (project_id, external_id) WHERE external_id IS NOT NULL`],
}
