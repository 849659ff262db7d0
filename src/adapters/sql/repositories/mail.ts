// The mail queue (docs/email.md): mails written with their events (transaction-state.ts writes
// them before COMMIT), claimed FOR UPDATE SKIP LOCKED under a lease with the attempt counted in the
// same statement, their attempts, summaries and follow-ups queued once by dedupe key.
import type { NewMail } from '../../../core/model/mail-kinds.js'
import { mailRules } from '../../../core/ports/entity-filters.js'
import type { MailQueue } from '../../../core/ports/mail-store.js'
import { run } from '../codec.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

/** The columns a queued mail is written with, in the order of mailParams. */
export const MAIL_INSERT_COLUMNS = 'project_id, kind, affiliate_id, recipient, payload, dedupe_key, status, attempts, next_attempt_at, created_at, updated_at'

/** A mail's insert parameters, as arrays one entry per mail (for unnest). */
export function mailParams(mails: readonly NewMail[]): unknown[][] {
  return [
    mails.map((mail) => mail.projectId),
    mails.map((mail) => mail.kind),
    mails.map((mail) => mail.affiliateId),
    mails.map((mail) => mail.recipient),
    mails.map((mail) => JSON.stringify(mail.payload)),
    mails.map((mail) => mail.dedupeKey),
    mails.map((mail) => mail.sendAt.toISOString()),
    mails.map((mail) => mail.createdAt.toISOString()),
  ]
}

/** SELECT of the mails passed as unnest($first..$first+7), ready for INSERT INTO mail_messages (MAIL_INSERT_COLUMNS). */
export function mailRowsSelect(first: number): string {
  const p = (offset: number) => `$${first + offset}`
  return `SELECT project_id, kind, affiliate_id, recipient, payload::jsonb, dedupe_key, 'queued', 0, send_at, created_at, created_at
     FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::bigint[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(6)}::timestamptz[], ${p(7)}::timestamptz[])
       AS m (project_id, kind, affiliate_id, recipient, payload, dedupe_key, send_at, created_at)`
}

export function mailRepository(db: SqlClient, t: Tables): MailQueue {
  const table = t.mail
  const plain = sqlEntityTable(db, table, mailRules)
  return {
    async claim({ now, limit, leaseMs }) {
      const rows = await run(
        db,
        `WITH due AS (
           SELECT id FROM ${table.name}
           WHERE (status = 'queued' AND next_attempt_at <= $1) OR (status = 'sending' AND lease_until <= $1)
           ORDER BY next_attempt_at NULLS FIRST, id LIMIT $2 FOR UPDATE SKIP LOCKED
         )
         UPDATE ${table.name} m SET status = 'sending', lease_until = $3, attempts = attempts + 1, updated_at = $1
         FROM due WHERE m.id = due.id RETURNING m.*`,
        [now, Math.max(0, Math.floor(limit)), new Date(now.getTime() + leaseMs)],
      )
      return rows.map((row) => table.read(row)).sort((a, b) => a.id - b.id)
    },
    async record({ id, status, nextAttemptAt, attempt }) {
      const rows = await run(
        db,
        `WITH updated AS (
           UPDATE ${table.name} SET status = $2, next_attempt_at = $3, lease_until = NULL, last_reply = $4, updated_at = $5,
             sent_at = CASE WHEN $2 = 'sent' THEN $5::timestamptz ELSE sent_at END
           WHERE id = $1 RETURNING *
         ), attempt AS (
           INSERT INTO ${t.mailAttempts.name} (mail_id, project_id, attempted_at, outcome, reply, duration_ms)
           SELECT id, project_id, $5, $6, $4, $7 FROM updated
         )
         SELECT * FROM updated`,
        [id, status, nextAttemptAt, attempt.reply, attempt.attemptedAt, attempt.outcome, attempt.durationMs],
      )
      return rows[0] ? table.read(rows[0]) : null
    },
    async insert(mail) {
      const rows = await run(
        db,
        `INSERT INTO ${table.name} (${MAIL_INSERT_COLUMNS}) ${mailRowsSelect(1)}
         ON CONFLICT (project_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`,
        mailParams([mail]),
      )
      return rows.length > 0
    },
    get: plain.get,
    list: plain.list,
    update: plain.update,
    updateAll: plain.updateAll,
    async enable(now) {
      await run(db, `INSERT INTO ${t.mailSwitch} (id, since) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, [now])
    },
  }
}
