// The SQL provider-event log and provider links. A unique (project, provider, event id) index
// makes a re-delivered event, also one racing in another process, find the first row.
import { providerEventRules } from '../../../core/ports/entity-filters.js'
import type { ProviderEventRepository } from '../../../core/ports/storage.js'
import type { ProviderEvent, ProviderLink } from '../../../core/model/types.js'
import { decode, encode, run } from '../codec.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient, SqlRow } from '../executor.js'
import type { Tables } from '../tables.js'
import { leaveForCommit, type TransactionState } from './transaction-state.js'

export function providerEventRepository(db: SqlClient, t: Tables, cache: TransactionState | null): ProviderEventRepository {
  const table = t.providerEvents
  const links = `${t.schema}.provider_links`
  const conflict = '(project_id, provider, event_id)'
  const insertStatement = table.insertUnlessConflictStatement(conflict)
  const columns = table.insertColumns()
  // A plain insert: a recorded event breaks the unique index, failing the statement (and its transaction).
  const recordText = `INSERT INTO ${table.name} (${columns.names}) VALUES (${columns.placeholders}) RETURNING *`
  const insertNew = table.insertUnlessConflict(conflict)
  // The insert, or the takeover of a stale `processing` event: one statement (its last parameter is staleBefore).
  const claimParams = insertStatement.params({}).length + 1
  const claimNewText = insertStatement.text
    .replace(`INSERT INTO ${table.name} (`, `INSERT INTO ${table.name} AS recorded (`)
    .replace(
      / DO NOTHING RETURNING \*$/,
      ` DO UPDATE SET status = 'processing', updated_at = excluded.updated_at
        WHERE recorded.status = 'processing' AND recorded.updated_at < $${claimParams} RETURNING *`,
    )
  const find = (projectId: string, provider: string, eventId: string) =>
    table.findOne(db, 'project_id = $1 AND provider = $2 AND event_id = $3', [projectId, provider, eventId])
  /**
   * The upsert of links, with its parameters appended to `params`: one row per key (an upsert may
   * not touch a row twice), the data of a key's links merged in order. It returns the links as
   * saved. Null when there is nothing to write.
   */
  function linksUpsert(list: readonly ProviderLink[], params: unknown[]): string | null {
    const rows = new Map<string, ProviderLink>()
    for (const link of list) {
      const key = `${link.projectId}|${link.provider}|${link.kind}|${link.externalId}`
      rows.set(key, { ...link, data: { ...rows.get(key)?.data, ...link.data } })
    }
    if (rows.size === 0) return null
    // In key order: two saves sharing links lock them in the same order (no deadlock).
    const ordered = [...rows.keys()].sort().map((key) => rows.get(key)!)
    const first = params.length
    params.push(...ordered.flatMap((link) => [link.projectId, link.provider, link.kind, link.externalId, JSON.stringify(link.data)]))
    const at = (row: number, column: number) => `$${first + row * 5 + column}`
    const values = ordered.map((_, row) => `(${at(row, 1)}, ${at(row, 2)}, ${at(row, 3)}, ${at(row, 4)}, ${at(row, 5)}::jsonb)`)
    return `INSERT INTO ${links} AS saved (project_id, provider, kind, external_id, data)
       SELECT * FROM (VALUES ${values.join(', ')}) AS link
       ON CONFLICT (project_id, provider, kind, external_id) DO UPDATE SET data = saved.data || excluded.data
       RETURNING project_id, provider, kind, external_id, data`
  }
  const linkOf = (row: SqlRow): ProviderLink => ({
    projectId: row.project_id as string,
    provider: row.provider as string,
    kind: row.kind as string,
    externalId: row.external_id as string,
    data: decode('json', row.data) as Record<string, string | null>,
  })
  async function saveLinks(list: readonly ProviderLink[]): Promise<ProviderLink[]> {
    const params: unknown[] = []
    const upsert = linksUpsert(list, params)
    return upsert === null ? [] : (await run(db, upsert, params)).map(linkOf)
  }
  return {
    ...sqlEntityTable(db, table, providerEventRules),
    async insert(event) {
      for (let attempt = 0; ; attempt += 1) {
        const inserted = await insertNew(db, event)
        if (inserted) return { inserted: true, event: inserted }
        const existing = await find(event.projectId, event.provider, event.eventId)
        if (existing) return { inserted: false, existing }
        if (attempt >= 3) throw new Error('providerEvents.insert: the conflicting event vanished repeatedly')
      }
    },
    async record(event, list) {
      // One statement, failing on the unique index when the event is recorded already. In a
      // transaction it leaves with COMMIT: nothing in the transaction reads its answer.
      const params = columns.params(event)
      const upsert = linksUpsert(list, params)
      const savedLinks = upsert === null ? `'[]'::jsonb` : `(SELECT coalesce(jsonb_agg(linked), '[]'::jsonb) FROM linked)`
      const text = `WITH inserted AS (${recordText})${upsert === null ? '' : `, linked AS (${upsert})`} SELECT *, ${savedLinks} AS ak_links FROM inserted`
      const recorded = ([row]: SqlRow[]) => ({ event: table.read(row!), links: (decode('json', row!.ak_links) as SqlRow[]).map(linkOf) })
      if (cache) return { saved: leaveForCommit(cache, { text, params }, recorded) }
      return { saved: Promise.resolve(recorded(await run(db, text, params))) }
    },
    async claim(projectId, id, condition, now) {
      const rows = await run(
        db,
        `UPDATE ${table.name} SET status = 'processing', updated_at = $4
         WHERE project_id = $1 AND id = $2 AND status = $3 AND ($5::timestamptz IS NULL OR updated_at < $5) RETURNING id`,
        [projectId, id, condition.status, now, condition.updatedBefore ?? null],
      )
      return rows.length > 0
    },
    async claimNew(event, staleBefore) {
      for (let attempt = 0; ; attempt += 1) {
        const [row] = await run(db, claimNewText, [...insertStatement.params(event), staleBefore])
        if (row) return { claimed: true, event: table.read(row) }
        const existing = await find(event.projectId, event.provider, event.eventId)
        if (existing) return { claimed: false, existing }
        if (attempt >= 3) throw new Error('providerEvents.claimNew: the conflicting event vanished repeatedly')
      }
    },
    async claimWaiting(projectId, id, now) {
      // The mark is read in the claim's snapshot: no later than the claim.
      const [row] = await run(
        db,
        `UPDATE ${table.name} AS event SET status = 'processing', updated_at = $3
         WHERE event.project_id = $1 AND event.id = $2 AND event.status = 'waiting'
         RETURNING event.waiting_for, (SELECT link.data->>'mark' FROM ${links} link
           WHERE link.project_id = event.project_id AND link.provider = event.provider AND link.kind = 'woken' AND link.external_id = event.waiting_for) AS mark`,
        [projectId, id, now],
      )
      return row ? { waitingFor: (row.waiting_for as string | null) ?? null, mark: (row.mark as string | null) ?? null } : null
    },
    async saveOutcome(projectId, id, patch, list) {
      // One statement: the update and the links' upsert commit together.
      const params: unknown[] = [projectId, id]
      const sets: string[] = []
      for (const [field, value] of Object.entries(patch)) {
        const definition = table.columns[field]
        if (!definition || value === undefined || field === 'id' || field === 'projectId' || field === 'createdAt') continue
        params.push(encode(definition.kind, value))
        sets.push(`${definition.column} = $${params.length}${definition.kind === 'json' ? '::jsonb' : ''}`)
      }
      const update = sets.length === 0 ? `SELECT * FROM ${table.name} WHERE project_id = $1 AND id = $2` : `UPDATE ${table.name} SET ${sets.join(', ')} WHERE project_id = $1 AND id = $2 RETURNING *`
      const upsert = linksUpsert(list, params)
      const savedLinks = upsert === null ? `'[]'::jsonb` : `(SELECT coalesce(jsonb_agg(linked), '[]'::jsonb) FROM linked)`
      const rows = await run(db, `WITH updated AS (${update})${upsert === null ? '' : `, linked AS (${upsert})`} SELECT updated.*, ${savedLinks} AS ak_links FROM (SELECT 1) AS one LEFT JOIN updated ON true`, params)
      const row = rows[0]!
      return { event: row.id == null ? null : table.read(row), links: (decode('json', row.ak_links) as SqlRow[]).map(linkOf) }
    },
    async listWokenWaiting(projectId, provider, wokenBefore, limit) {
      const rows = await run(
        db,
        `SELECT event.* FROM ${table.name} event
         JOIN ${links} link ON link.project_id = event.project_id AND link.provider = event.provider AND link.kind = 'woken' AND link.external_id = event.waiting_for
         WHERE event.project_id = $1 AND event.provider = $2 AND event.status = 'waiting' AND link.data ? 'at'
           AND (link.data->>'at')::timestamptz >= event.updated_at AND (link.data->>'at')::timestamptz < $3
         ORDER BY event.occurred_at, event.id LIMIT $4`,
        [projectId, provider, wokenBefore, limit],
      )
      return rows.map((row) => table.read(row))
    },
    saveLinks,
    async getLink(projectId, provider, kind, externalId) {
      const rows = await run(
        db,
        `SELECT data FROM ${links} WHERE project_id = $1 AND provider = $2 AND kind = $3 AND external_id = $4`,
        [projectId, provider, kind, externalId],
      )
      if (!rows[0]) return null
      return { projectId, provider, kind, externalId, data: decode('json', rows[0].data) as Record<string, string | null> }
    },
  }
}
