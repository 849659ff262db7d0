// The SQL provider-event log and provider links. A unique (project, provider, event id) index
// makes a re-delivered event, also one racing in another process, find the first row.
import type { ProviderEventRepository } from '../../../core/storage.js'
import type { ProviderLink } from '../../../core/types.js'
import { decode, run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function providerEventRepository(db: SqlClient, t: Tables): ProviderEventRepository {
  const table = t.providerEvents
  const links = `${t.schema}.provider_links`
  const insertNew = table.insertUnlessConflict('(project_id, provider, event_id)')
  const find = (projectId: string, provider: string, eventId: string) =>
    table.findOne(db, 'project_id = $1 AND provider = $2 AND event_id = $3', [projectId, provider, eventId])
  async function saveLinks(list: readonly ProviderLink[]): Promise<void> {
    // One row per key (an upsert may not touch a row twice), the last one winning.
    const rows = [...new Map(list.map((link) => [`${link.projectId}|${link.provider}|${link.kind}|${link.externalId}`, link])).values()]
    if (rows.length === 0) return
    const params = rows.flatMap((link) => [link.projectId, link.provider, link.kind, link.externalId, JSON.stringify(link.data)])
    const values = rows.map((_, row) => `($${row * 5 + 1}, $${row * 5 + 2}, $${row * 5 + 3}, $${row * 5 + 4}, $${row * 5 + 5}::jsonb)`)
    await run(
      db,
      `INSERT INTO ${links} (project_id, provider, kind, external_id, data) VALUES ${values.join(', ')}
       ON CONFLICT (project_id, provider, kind, external_id) DO UPDATE SET data = excluded.data`,
      params,
    )
  }
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
      const rows = await run(
        db,
        `SELECT * FROM ${table.name} WHERE project_id = $1 AND provider = $2 AND waiting_for = ANY($3::text[]) AND status = 'waiting'
         ORDER BY occurred_at, id`,
        [projectId, provider, [...waitingFor]],
      )
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
