// The in-memory mail queue (docs/email.md): mails stored by the outbox's enqueue with their event,
// claimed under a lease with the attempt counted, their attempts, and dedupe keys queued once.
import type { NewMail } from '../../../core/model/mail-kinds.js'
import { mailRules } from '../../../core/ports/entity-filters.js'
import type { MailQueue } from '../../../core/ports/mail-store.js'
import type { MailMessage } from '../../../core/model/types.js'
import { memoryEntityTable } from '../entity-table.js'
import type { MemoryState } from '../state.js'
import type { UndoLog } from '../table.js'

/** Stores a new mail (the outbox calls it for every event that becomes one). */
export function storeMail(state: MemoryState, mail: NewMail, log: UndoLog): MailMessage {
  return state.mail.insert(
    {
      projectId: mail.projectId,
      kind: mail.kind,
      affiliateId: mail.affiliateId,
      recipient: mail.recipient,
      payload: mail.payload as Record<string, unknown>,
      dedupeKey: mail.dedupeKey,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: mail.sendAt,
      leaseUntil: null,
      lastReply: null,
      sentAt: null,
      createdAt: mail.createdAt,
      updatedAt: mail.createdAt,
    },
    log,
  )
}

const isDue = (row: MailMessage, now: number) =>
  (row.status === 'queued' && row.nextAttemptAt !== null && row.nextAttemptAt.getTime() <= now) ||
  (row.status === 'sending' && row.leaseUntil !== null && row.leaseUntil.getTime() <= now)

export function mailRepository(state: MemoryState, log: UndoLog): MailQueue {
  const change = (row: MailMessage, patch: Partial<MailMessage>) => state.mail.replace({ ...row, ...patch }, log)
  const plain = memoryEntityTable(state.mail, mailRules, log)
  return {
    async claim({ now, limit, leaseMs }) {
      const due = [...state.mail.rows.values()]
        .filter((row) => isDue(row, now.getTime()))
        .sort((a, b) => (a.nextAttemptAt?.getTime() ?? 0) - (b.nextAttemptAt?.getTime() ?? 0) || a.id - b.id)
        .slice(0, Math.max(0, Math.floor(limit)))
      const leaseUntil = new Date(now.getTime() + leaseMs)
      return due.map((row) => change(row, { status: 'sending', leaseUntil, attempts: row.attempts + 1, updatedAt: now })).sort((a, b) => a.id - b.id)
    },
    async record({ id, status, nextAttemptAt, attempt }) {
      const row = state.mail.get(id)
      if (!row) return null
      state.mailAttempts.insert({ ...attempt, mailId: id, projectId: row.projectId }, log)
      return change(row, {
        status,
        nextAttemptAt,
        leaseUntil: null,
        lastReply: attempt.reply,
        updatedAt: attempt.attemptedAt,
        sentAt: status === 'sent' ? attempt.attemptedAt : row.sentAt,
      })
    },
    async insert(mail) {
      if (mail.dedupeKey !== null && state.mail.group('dedupe', `${mail.projectId}|${mail.dedupeKey}`).length > 0) return false
      storeMail(state, mail, log)
      return true
    },
    get: plain.get,
    list: plain.list,
    update: plain.update,
    updateAll: plain.updateAll,
    async enable() {
      state.mailOn = true
    },
  }
}
