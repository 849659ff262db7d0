// The mail store: what the mail dispatcher needs from a storage (docs/email.md). Mails are written
// by the adapters' outbox with the event that causes them (same transaction); the mail queue
// (mail-queue.ts) claims them under a lease, records each attempt, queues summaries and follow-ups
// once, and lists them for the console. Every adapter implements it beside the outbox store.
import type { MailQueue } from './mail-queue.js'
import type { AffiliateRepository, ConversionRepository, ProjectRepository } from './storage.js'

export type { MailFilter, MailOutcome, MailQueue } from './mail-queue.js'

/** What the mail dispatcher reads and writes (every adapter's storage object is one). */
export interface MailStore {
  mail: MailQueue
  projects: Pick<ProjectRepository, 'get'>
  affiliates: Pick<AffiliateRepository, 'get'>
  conversions: Pick<ConversionRepository, 'get'>
}
