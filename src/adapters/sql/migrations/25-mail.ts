// Migration 25: the mail queue (docs/email.md) and the affiliate's language and email preferences.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const mail: Migration = {
  version: 25,
  name: 'mail',
  statements: [
    `ALTER TABLE {s}.affiliates ADD COLUMN IF NOT EXISTS locale text`,
    `ALTER TABLE {s}.affiliates ADD COLUMN IF NOT EXISTS email_opt_out jsonb`,
    `CREATE TABLE {s}.mail_messages (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL REFERENCES {s}.projects (id),
        kind text NOT NULL,
        affiliate_id bigint NOT NULL,
        recipient text NOT NULL,
        payload jsonb NOT NULL,
        dedupe_key text,
        status text NOT NULL,
        attempts integer NOT NULL,
        next_attempt_at timestamptz,
        lease_until timestamptz,
        last_reply text,
        sent_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
    `CREATE UNIQUE INDEX mail_messages_dedupe_idx ON {s}.mail_messages (project_id, dedupe_key) WHERE dedupe_key IS NOT NULL`,
    `CREATE INDEX mail_messages_list_idx ON {s}.mail_messages (project_id, created_at DESC, id DESC)`,
    `CREATE INDEX mail_messages_status_idx ON {s}.mail_messages (project_id, status, created_at DESC, id DESC)`,
    `CREATE INDEX mail_messages_due_idx ON {s}.mail_messages (next_attempt_at, id) WHERE status = 'queued'`,
    `CREATE INDEX mail_messages_lease_idx ON {s}.mail_messages (lease_until, id) WHERE status = 'sending'`,
    `CREATE TABLE {s}.mail_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        mail_id bigint NOT NULL REFERENCES {s}.mail_messages (id) ON DELETE CASCADE,
        project_id text NOT NULL,
        attempted_at timestamptz NOT NULL,
        outcome text NOT NULL,
        reply text,
        duration_ms double precision NOT NULL
      )`,
    `CREATE INDEX mail_attempts_mail_idx ON {s}.mail_attempts (mail_id, id)`,
    // One row once a mail dispatcher has run on this storage: mails are written from then on only.
    `CREATE TABLE {s}.mail_switch (id integer PRIMARY KEY CHECK (id = 1), since timestamptz NOT NULL)`,
  ],
}
