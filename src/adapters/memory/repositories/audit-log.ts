// The in-memory audit log: an array in insertion order, read newest first.
import type { AuditEntry, AuditLog } from '../../../core/audit-log.js'
import type { ScrubbedElsewhere } from './erasure.js'

export function memoryAuditLog(): AuditLog & ScrubbedElsewhere {
  const entries: AuditEntry[] = []
  return {
    async record(entry) {
      const saved = { ...entry, id: entries.length + 1 }
      entries.push(saved)
      return { ...saved }
    },
    scrubText(projectId, scrub) {
      for (const [index, entry] of entries.entries()) {
        if (entry.projectId !== projectId) continue
        entries[index] = { ...entry, actorName: scrub.apply(entry.actorName), target: entry.target && scrub.apply(entry.target), detail: entry.detail && scrub.apply(entry.detail) }
      }
    },
    storedText: () => JSON.stringify(entries),
    async list(projectId, { limit, offset }) {
      const mine = entries.filter((entry) => entry.projectId === projectId).reverse()
      return { items: mine.slice(offset, offset + limit).map((entry) => ({ ...entry })), total: mine.length }
    },
  }
}
