// The mail queue, the storage's mail part (docs/email.md): mails are written by the adapters'
// outbox with the event that causes them (same transaction); the queue claims them under a
// lease, records each attempt, queues summaries and follow-ups once, and lists them for the console.
import type { NewMail, MailStatus } from '../model/mail-kinds.js'
import type { EntityTable } from './entity-table.js'
import type { MailFilter } from './entity-filters.js'
import type { MailAttempt, MailMessage } from '../model/types.js'

export interface MailOutcome {
  id: number
  /** sent / bounced / failed / skipped / expired are final; queued schedules the next attempt at nextAttemptAt. */
  status: Exclude<MailStatus, 'sending'>
  nextAttemptAt: Date | null
  attempt: Omit<MailAttempt, 'id' | 'mailId' | 'projectId'>
}

export type { MailFilter } from './entity-filters.js'

/**
 * The mails' table (list: newest first; a retry by hand: queued, due now, lease cleared, unless
 * being sent: `{ statusOtherThan: 'sending' }` expected) and the statements of the queue.
 */
export interface MailQueue extends Pick<EntityTable<MailMessage, MailFilter>, 'get' | 'list' | 'update' | 'updateAll'> {
  /**
   * Takes up to `limit` mails that are queued and due, or sending with an expired lease (a process
   * died mid-send), oldest due first; marks them sending with leaseUntil = now + leaseMs and counts
   * the attempt, in one statement, before any SMTP conversation starts. Concurrent callers never
   * receive the same mail while its lease holds.
   */
  claim(options: { now: Date; limit: number; leaseMs: number }): Promise<MailMessage[]>
  /** Stores the attempt and the mail's new state, clears the lease. Null when the mail is gone. */
  record(outcome: MailOutcome): Promise<MailMessage | null>
  /** Queues a mail unless its project already has one with the same dedupeKey; true when queued. */
  insert(mail: NewMail): Promise<boolean>
  /**
   * Turns mail on for the whole storage (a mail dispatcher calls it when it starts): events become
   * mails from then on, never before, so turning mail on does not send what happened earlier.
   */
  enable(now: Date): Promise<void>
}
