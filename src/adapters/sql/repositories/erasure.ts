// Erasure (docs/privacy.md): a person's texts replaced in every text and JSON column of every
// table holding the project's rows, found in the schema itself, so a table added later is
// covered without being listed here.
import type { ErasureRepository, TextScrub } from '../../../core/ports/storage.js'
import { literalPattern } from '../../../core/rules/text-scrub.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

interface ScrubbedTable {
  name: string
  columns: Array<{ name: string; json: 'json' | 'jsonb' | null }>
}

const scrubbedTables = new WeakMap<Tables, Promise<ScrubbedTable[]>>()

/** The tables with a project_id and their text and JSON columns (read once per storage). */
function tablesOf(db: SqlClient, t: Tables): Promise<ScrubbedTable[]> {
  let tables = scrubbedTables.get(t)
  if (!tables) {
    tables = run(
      db,
      // pg_catalog rather than information_schema: the same answer, many times faster on PGlite.
      // A partitioned table (link_clicks) is updated whole: its months made later are covered too.
      `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, NULL) AS data_type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped AND a.attname <> 'project_id'
         AND a.atttypid IN ('text'::regtype, 'jsonb'::regtype, 'json'::regtype, 'character varying'::regtype)
         AND EXISTS (SELECT 1 FROM pg_attribute p WHERE p.attrelid = c.oid AND p.attname = 'project_id' AND NOT p.attisdropped)
       ORDER BY c.relname, a.attnum`,
      [t.schema.replace(/^"|"$/g, '')],
    ).then((rows) => {
      const byTable = new Map<string, ScrubbedTable>()
      for (const row of rows) {
        const name = String(row.table_name)
        let table = byTable.get(name)
        if (!table) byTable.set(name, (table = { name, columns: [] }))
        table.columns.push({ name: String(row.column_name), json: row.data_type === 'jsonb' || row.data_type === 'json' ? row.data_type : null })
      }
      return [...byTable.values()]
    })
    tables.catch(() => scrubbedTables.delete(t))
    scrubbedTables.set(t, tables)
  }
  return tables
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`

export function erasureRepository(db: SqlClient, t: Tables): ErasureRepository {
  return {
    async scrub(projectId, scrub: TextScrub) {
      const everywhere = scrub.everywhere.filter((entry) => entry.from !== '')
      if (everywhere.length === 0) return
      const alongside = scrub.alongside.filter((entry) => entry.from !== '')
      const params: unknown[] = [projectId, everywhere.map((entry) => literalPattern(entry.from)).join('|')]
      const replace = (expression: string, entries: typeof everywhere) =>
        entries.reduce((inner, entry) => {
          params.push(literalPattern(entry.from), entry.to)
          return `regexp_replace(${inner}, $${params.length - 1}, $${params.length}, 'gi')`
        }, expression)
      // One chain of replacements, its parameters shared by every column.
      const chain = replace(replace('{value}', everywhere), alongside)
      for (const table of await tablesOf(db, t)) {
        const sets = table.columns.map(({ name, json }) => {
          const value = json ? `${quoted(name)}::text` : quoted(name)
          const replaced = chain.replace('{value}', value)
          return `${quoted(name)} = CASE WHEN ${value} ~* $2 THEN ${json ? `(${replaced})::${json}` : replaced} ELSE ${quoted(name)} END`
        })
        const touched = table.columns.map(({ name, json }) => `${json ? `${quoted(name)}::text` : quoted(name)} ~* $2`).join(' OR ')
        await run(db, `UPDATE ${t.schema}.${quoted(table.name)} SET ${sets.join(', ')} WHERE project_id = $1 AND (${touched})`, params)
      }
    },
    async customerIds(projectId, email) {
      const rows = await run(
        db,
        `SELECT provider, external_id FROM ${t.schema}.provider_links WHERE project_id = $1 AND kind = 'customer' AND lower(data->>'email') = lower($2) ORDER BY provider, external_id`,
        [projectId, email],
      )
      return rows.map((row) => ({ provider: String(row.provider), externalId: String(row.external_id) }))
    },
  }
}
