// The SQL provider-event log and provider links. A unique (project, provider, event id) index
// makes a re-delivered event, also one racing in another process, find the first row.
import type { ProviderEventRepository } from '../../../core/storage.js'
import type { ProviderEvent, ProviderLink } from '../../../core/types.js'
import { decode, run } from '../codec.js'
import type { SqlClient, SqlRow } from '../executor.js'
import type { Tables } from '../tables.js'

export function providerEventRepository(db: SqlClient, t: Tables): ProviderEventRepository {
  const table = t.providerEvents
  const links = `${t.schema}.provider_links`
  const conflict = '(project_id, provider, event_id)'
  const insertStatement = table.insertUnlessConflictStatement(conflict)
  const insertNew = table.insertUnlessConflict(conflict)
  const find = (projectId: string, provider: string, eventId: string) =>
    table.findOne(db, 'project_id = $1 AND provider = $2 AND event_id = $3', [projectId, provider, eventId])
  const waitingWhere = (projectId: number, provider: number, keys: number) =>
    `project_id = $${projectId} AND provider = $${provider} AND waiting_for = ANY($${keys}::text[]) AND status = 'waiting'`
  /**
   * The upsert of links, with its parameters appended to `params`: one row per key (an upsert may
   * not touch a row twice), the last one winning. Null when there is nothing to write.
   */
  function linksUpsert(list: readonly ProviderLink[], params: unknown[], condition = ''): string | null {
    const rows = [...new Map(list.map((link) => [`${link.projectId}|${link.provider}|${link.kind}|${link.externalId}`, link])).values()]
    if (rows.length === 0) return null
    const first = params.length
    params.push(...rows.flatMap((link) => [link.projectId, link.provider, link.kind, link.externalId, JSON.stringify(link.data)]))
    const at = (row: number, column: number) => `$${first + row * 5 + column}`
    const values = rows.map((_, row) => `(${at(row, 1)}, ${at(row, 2)}, ${at(row, 3)}, ${at(row, 4)}, ${at(row, 5)}::jsonb)`)
    return `INSERT INTO ${links} (project_id, provider, kind, external_id, data)
       SELECT * FROM (VALUES ${values.join(', ')}) AS link ${condition}
       ON CONFLICT (project_id, provider, kind, external_id) DO UPDATE SET data = excluded.data`
  }
  async function saveLinks(list: readonly ProviderLink[]): Promise<void> {
    const params: unknown[] = []
    const upsert = linksUpsert(list, params)
    if (upsert !== null) await run(db, upsert, params)
  }
  const byOccurrence = (a: ProviderEvent, b: ProviderEvent) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.id - b.id
  return {
    async insert(event) {
      for (let attempt = 0; ; attempt += 1) {
        const inserted = await insertNew(db, event)
        if (inserted) return { inserted: true, event: inserted }
        const existing = await find(event.projectId, event.provider, event.eventId)
        if (existing) return { inserted: false, existing }
        if (attempt >= 3) throw new Error('providerEvents.insert: the conflicting event vanished repeatedly')
      }
    },
    async record(event, list, waitingFor) {
      // One statement: the links and the waiting events only when the event was inserted. The
      // statement's reads do not see its own insert: the new event joins the waiting ones here.
      const params = insertStatement.params(event)
      const inserted = 'WHERE EXISTS (SELECT 1 FROM inserted)'
      const upsert = linksUpsert(list, params, inserted)
      let waiting = ''
      if (waitingFor.length > 0) {
        params.push(event.projectId, event.provider, [...waitingFor])
        waiting = `UNION ALL SELECT false AS is_new, * FROM ${table.name} ${inserted} AND ${waitingWhere(params.length - 2, params.length - 1, params.length)}`
      }
      const rows = await run(
        db,
        `WITH inserted AS (${insertStatement.text})${upsert === null ? '' : `, linked AS (${upsert})`}
         SELECT true AS is_new, * FROM inserted ${waiting}`,
        params,
      )
      const isNew = (row: SqlRow) => decode('bool', row.is_new) === true
      const created = rows.find(isNew)
      if (!created) return { inserted: false }
      const saved = table.read(created)
      const found = rows.filter((row) => !isNew(row)).map((row) => table.read(row))
      if (saved.status === 'waiting' && saved.waitingFor !== null && waitingFor.includes(saved.waitingFor)) found.push(saved)
      return { inserted: true, event: saved, waiting: found.sort(byOccurrence) }
    },
    get: (projectId, id) => table.get(db, projectId, id),
    update: (projectId, id, patch) => table.update(db, projectId, id, patch),
    async claim(projectId, id, condition, now) {
      const rows = await run(
        db,
        `UPDATE ${table.name} SET status = 'processing', updated_at = $4
         WHERE project_id = $1 AND id = $2 AND status = $3 AND ($5::timestamptz IS NULL OR updated_at < $5) RETURNING id`,
        [projectId, id, condition.status, now, condition.updatedBefore ?? null],
      )
      return rows.length > 0
    },
    list: (projectId, filter) =>
      table.page(
        db,
        projectId,
        [
          ['provider = ?', filter.provider],
          ['status = ?', filter.status],
          ['reference = ?', filter.reference],
        ],
        filter,
      ),
    async listWaiting(projectId, provider, waitingFor) {
      if (waitingFor.length === 0) return []
      const rows = await run(db, `SELECT * FROM ${table.name} WHERE ${waitingWhere(1, 2, 3)} ORDER BY occurred_at, id`, [projectId, provider, [...waitingFor]])
      return rows.map((row) => table.read(row))
    },
    saveLink: (link) => saveLinks([link]),
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
