// Migration 18: link aliases, an affiliate's other link tokens (docs/attribution.md "Link aliases").
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const linkAliases: Migration = {
  version: 18,
  name: 'link aliases',
  statements: [
    `CREATE TABLE {s}.link_aliases (
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        alias text NOT NULL,
        created_at timestamptz NOT NULL,
        FOREIGN KEY (project_id, affiliate_id) REFERENCES {s}.affiliates (project_id, id) ON DELETE CASCADE
      )`,
    `CREATE UNIQUE INDEX link_aliases_alias_key ON {s}.link_aliases (project_id, lower(alias))`,
    `CREATE INDEX link_aliases_affiliate_idx ON {s}.link_aliases (project_id, affiliate_id)`,
  ],
}
