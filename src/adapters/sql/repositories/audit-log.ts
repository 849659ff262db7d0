// The SQL audit log (admin_audit_log; migration 9).
import type { AuditEntry, AuditLog } from '../../../core/ports/audit-log.js'
import type { SqlClient, SqlRow } from '../executor.js'

const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value)))
const textOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value))

function entryOf(row: SqlRow): AuditEntry {
  return {
    id: Number(row.id),
    projectId: String(row.project_id),
    actorId: String(row.actor_id),
    actorName: String(row.actor_name),
    action: String(row.action),
    target: textOrNull(row.target),
    detail: textOrNull(row.detail),
    at: date(row.at),
  }
}

/** `schema` is the quoted schema name. */
export function sqlAuditLog(db: SqlClient, schema: string): AuditLog {
  const table = `${schema}.admin_audit_log`
  return {
    async record(e) {
      const rows = await db.query(
        `INSERT INTO ${table} (project_id, actor_id, actor_name, action, target, detail, at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [e.projectId, e.actorId, e.actorName, e.action, e.target, e.detail, e.at],
      )
      return entryOf(rows[0]!)
    },
    async list(projectId, { limit, offset }) {
      const rows = await db.query(`SELECT * FROM ${table} WHERE project_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, [projectId, limit, offset])
      const count = await db.query(`SELECT count(*) AS total FROM ${table} WHERE project_id = $1`, [projectId])
      return { items: rows.map(entryOf), total: Number(count[0]!.total) }
    },
  }
}
