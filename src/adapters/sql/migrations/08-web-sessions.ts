// Migration 8: browser sessions and sign-in tokens of the portal and the console.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const webSessions: Migration = {
  version: 8,
  name: 'browser sessions and sign-in tokens',
  statements: [
    `CREATE TABLE {s}.web_sessions (
        digest text PRIMARY KEY,
        audience text NOT NULL,
        project_id text NOT NULL REFERENCES {s}.projects (id) ON DELETE CASCADE,
        subject text NOT NULL,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        idle_expires_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
    `CREATE INDEX web_sessions_subject_idx ON {s}.web_sessions (project_id, audience, subject)`,
    `CREATE TABLE {s}.web_sign_in_tokens (
        digest text PRIMARY KEY,
        audience text NOT NULL,
        project_id text NOT NULL REFERENCES {s}.projects (id) ON DELETE CASCADE,
        subject text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
  ],
}
