// The mail store: what the mail dispatcher needs from a storage (docs/email.md). Mails are written
// by the adapters' outbox with the event that causes them (same transaction); this port claims
// them under a lease, records each attempt, queues summaries and follow-ups once, and lists them
// for the console. Every adapter implements it beside the outbox store.
import type { NewMail, MailStatus } from './mail-kinds.js'
import type { AffiliateRepository, ConversionRepository, ListWindow, ProjectRepository } from './storage.js'
import type { MailAttempt, MailMessage, Page } from './types.js'

export interface MailOutcome {
  id: number
  /** sent / bounced / failed / skipped / expired are final; queued schedules the next attempt at nextAttemptAt. */
  status: Exclude<MailStatus, 'sending'>
  nextAttemptAt: Date | null
  attempt: Omit<MailAttempt, 'id' | 'mailId' | 'projectId'>
}

export interface MailFilter extends ListWindow {
  status?: MailStatus
  /** The mails to one affiliate (a personal data export's). */
  affiliateId?: number
}

export interface MailQueue {
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
  get(projectId: string, id: number): Promise<MailMessage | null>
  /** Newest first. */
  list(projectId: string, filter: MailFilter): Promise<Page<MailMessage>>
  /** Oldest first. */
  attempts(projectId: string, id: number): Promise<MailAttempt[]>
  /** By hand: queued, due at `now`, lease cleared. False when absent or being sent. */
  retry(projectId: string, id: number, now: Date): Promise<boolean>
  /**
   * Turns mail on for the whole storage (a mail dispatcher calls it when it starts): events become
   * mails from then on, never before, so turning mail on does not send what happened earlier.
   */
  enable(now: Date): Promise<void>
}

/** What the mail dispatcher reads and writes (every adapter's storage object is one). */
export interface MailStore {
  mail: MailQueue
  projects: Pick<ProjectRepository, 'get'>
  affiliates: Pick<AffiliateRepository, 'get'>
  conversions: Pick<ConversionRepository, 'get'>
}
