// Migration 35: links, an affiliate's many links (docs/links.md). The link aliases of migration 18
// become links with only a key, and their table goes: an alias is such a link from now on. A view
// of the old table's name and columns over links stays, so that a server of the release before,
// still running during a rolling deploy (docs/operations.md "Upgrades and rollbacks"), reads and
// adds its aliases as links; a later migration drops it.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const links: Migration = {
  version: 35,
  name: 'links',
  statements: [
    `CREATE TABLE {s}.links (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        key text NOT NULL,
        destination text,
        domain text,
        utm_source text,
        utm_medium text,
        utm_campaign text,
        utm_term text,
        utm_content text,
        created_at timestamptz NOT NULL,
        FOREIGN KEY (project_id, affiliate_id) REFERENCES {s}.affiliates (project_id, id) ON DELETE CASCADE
      )`,
    `CREATE UNIQUE INDEX links_key_key ON {s}.links (project_id, lower(key))`,
    `CREATE INDEX links_list_idx ON {s}.links (project_id, created_at DESC, id DESC)`,
    `CREATE INDEX links_affiliate_idx ON {s}.links (project_id, affiliate_id, created_at DESC, id DESC)`,
    `INSERT INTO {s}.links (project_id, affiliate_id, key, created_at)
       SELECT project_id, affiliate_id, alias, created_at FROM {s}.link_aliases ORDER BY created_at, alias`,
    `DROP TABLE {s}.link_aliases`,
    `CREATE VIEW {s}.link_aliases AS SELECT project_id, affiliate_id, key AS alias, created_at FROM {s}.links`,
  ],
}
