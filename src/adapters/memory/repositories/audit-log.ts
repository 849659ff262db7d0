// The in-memory audit log: an array in insertion order, read newest first.
import type { AuditEntry, AuditLog } from '../../../core/audit-log.js'

export function memoryAuditLog(): AuditLog {
  const entries: AuditEntry[] = []
  return {
    async record(entry) {
      const saved = { ...entry, id: entries.length + 1 }
      entries.push(saved)
      return { ...saved }
    },
    async list(projectId, { limit, offset }) {
      const mine = entries.filter((entry) => entry.projectId === projectId).reverse()
      return { items: mine.slice(offset, offset + limit).map((entry) => ({ ...entry })), total: mine.length }
    },
  }
}
