// The audit log of a project as the program writes and reads it (the admin console's entries):
// an entry recorded through the scope program.transaction(fn) hands fn commits with what fn
// changed, or not at all.
import type { AuditEntry, AuditEntryInput } from '../ports/audit-log.js'
import type { ProjectContext } from '../rules/context.js'
import { listWindow } from '../ports/conflicts.js'
import { ValidationError } from '../model/errors.js'

/** An entry to record: the project is the program's; the time, unless given, its clock's now. */
export type AuditRecord = Omit<AuditEntryInput, 'projectId' | 'at'> & { at?: Date }

const text = (value: unknown, field: string, empty: boolean): string => {
  if (typeof value !== 'string' || (value === '' && !empty)) throw new ValidationError(field, `${field} must be ${empty ? 'a' : 'a non-empty'} string`)
  return value
}

export function auditEntriesService(ctx: ProjectContext) {
  const { storage, projectId } = ctx
  return {
    /** Records one entry; on the scope of program.transaction(fn), in that transaction. */
    async record(entry: AuditRecord): Promise<AuditEntry> {
      const input: AuditEntryInput = {
        projectId,
        actorId: text(entry.actorId, 'actorId', false),
        actorName: text(entry.actorName, 'actorName', true),
        action: text(entry.action, 'action', false),
        target: entry.target ?? null,
        detail: entry.detail ?? null,
        at: entry.at ?? ctx.clock.now(),
      }
      return storage.transaction((tx) => tx.auditLog.record(input))
    },
    /** Newest first. */
    async list(window: { limit?: number; offset?: number } = {}): Promise<{ items: AuditEntry[]; total: number }> {
      return storage.auditLog.list(projectId, listWindow(window, 50, 200))
    },
  }
}
