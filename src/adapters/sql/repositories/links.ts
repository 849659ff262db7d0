// The links repository: its table (keys unique per project in any case, links_key_key) and what a
// token names, read in one statement on the referral codes' and the keys' unique indexes.
import { linkRules } from '../../../core/ports/entity-filters.js'
import type { LinkRepository } from '../../../core/ports/storage.js'
import type { Link } from '../../../core/model/types.js'
import { decode, decodeRow, run } from '../codec.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function linkRepository(db: SqlClient, t: Tables): LinkRepository {
  const links = t.links
  return {
    ...sqlEntityTable(db, links, linkRules),
    async resolve(projectId, token) {
      // The referral code first; a key only when no code matches. The link travels as JSON beside
      // the affiliate's columns (its column names are the same as in its own row).
      const rows = await run(
        db,
        `WITH coded AS (SELECT id FROM ${t.affiliates.name} WHERE project_id = $1 AND lower(referral_code) = lower($2)),
           keyed AS (SELECT * FROM ${links.name} WHERE project_id = $1 AND lower(key) = lower($2) AND NOT EXISTS (SELECT 1 FROM coded))
         SELECT a.*, (SELECT to_jsonb(keyed) FROM keyed) AS ak_link FROM ${t.affiliates.name} a
         WHERE a.project_id = $1 AND a.id = coalesce((SELECT id FROM coded), (SELECT affiliate_id FROM keyed))`,
        [projectId, token],
      )
      const row = rows[0]
      if (!row) return null
      const link = decode('json', row.ak_link) as Record<string, unknown> | null
      return { affiliate: t.affiliates.read(row), link: link === null ? null : decodeRow<Link>(links.columns, link) }
    },
  }
}
