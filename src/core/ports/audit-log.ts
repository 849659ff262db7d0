// The port of the admin console's audit log: every change made from the console, with who made
// it, what, when and on which record. Each storage adapter implements it beside its domain tables
// (memoryStorage().auditLog, pgliteStorage().auditLog, postgresStorage().auditLog).

export interface AuditEntryInput {
  projectId: string
  /** Who acted: `key:<id>` for a console session opened with an API key, or the authorize hook's id. */
  actorId: string
  /** The actor as people read it: the key's name, or the hook's name. */
  actorName: string
  /** What was done, e.g. `affiliate.approve`, `payouts.batch_paid`, `api_key.revoke`. */
  action: string
  /** The record acted on, e.g. `affiliate:12`, `delivery:40`; null for actions without one. */
  target: string | null
  /** A short, human-readable detail (amounts, counts); null when there is nothing to add. */
  detail: string | null
  at: Date
}

export interface AuditEntry extends AuditEntryInput {
  id: number
}

export interface AuditLog {
  record(entry: AuditEntryInput): Promise<AuditEntry>
  /** Newest first. */
  list(projectId: string, window: { limit: number; offset: number }): Promise<{ items: AuditEntry[]; total: number }>
}

/** A storage object that carries an audit log (every adapter of this package does). */
export interface WithAuditLog {
  readonly auditLog: AuditLog
}
