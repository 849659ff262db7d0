// The in-memory audit log: an array in insertion order, read newest first. A transaction's view
// (within) records each entry's removal in its undo log, so a rolled-back change keeps no entry.
import type { AuditEntry, AuditLog } from '../../../core/ports/audit-log.js'
import type { UndoLog } from '../table.js'
import type { ScrubbedElsewhere } from './erasure.js'

export interface MemoryAuditLog extends AuditLog, ScrubbedElsewhere {
  /** The log as a transaction writes it: each entry recorded is taken back when the transaction rolls back. */
  within(log: UndoLog): AuditLog
}

export function memoryAuditLog(): MemoryAuditLog {
  const entries: AuditEntry[] = []
  let lastId = 0
  const record = (entry: Parameters<AuditLog['record']>[0], log: UndoLog | null): AuditEntry => {
    lastId += 1
    const saved = { ...entry, id: lastId }
    entries.push(saved)
    log?.push(() => {
      const index = entries.indexOf(saved)
      if (index >= 0) entries.splice(index, 1)
    })
    return { ...saved }
  }
  const list: AuditLog['list'] = async (projectId, { limit, offset }) => {
    const mine = entries.filter((entry) => entry.projectId === projectId).reverse()
    return { items: mine.slice(offset, offset + limit).map((entry) => ({ ...entry })), total: mine.length }
  }
  return {
    record: async (entry) => record(entry, null),
    list,
    within: (log) => ({ record: async (entry) => record(entry, log), list }),
    scrubText(projectId, scrub) {
      for (const [index, entry] of entries.entries()) {
        if (entry.projectId !== projectId) continue
        entries[index] = { ...entry, actorName: scrub.apply(entry.actorName), target: entry.target && scrub.apply(entry.target), detail: entry.detail && scrub.apply(entry.detail) }
      }
    },
    storedText: () => JSON.stringify(entries),
  }
}
