// The SQL session store (web_sessions, web_sign_in_tokens; migration 8). Consuming a sign-in
// token is one DELETE ... RETURNING, so two racing requests cannot both get it.
import type { SessionAudience, SessionStore, SignInTokenRecord, WebSessionRecord } from '../../../core/ports/session-store.js'
import type { SqlClient, SqlRow } from '../executor.js'

const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value)))

function tokenOf(row: SqlRow): SignInTokenRecord {
  return {
    digest: String(row.digest),
    audience: row.audience as SessionAudience,
    projectId: String(row.project_id),
    subject: String(row.subject),
    createdAt: date(row.created_at),
    expiresAt: date(row.expires_at),
  }
}

const sessionOf = (row: SqlRow): WebSessionRecord => ({ ...tokenOf(row), lastSeenAt: date(row.last_seen_at), idleExpiresAt: date(row.idle_expires_at) })

/** `schema` is the quoted schema name. */
export function sqlSessionStore(db: SqlClient, schema: string): SessionStore {
  const sessions = `${schema}.web_sessions`
  const tokens = `${schema}.web_sign_in_tokens`
  return {
    async insertSession(s) {
      await db.query(
        `INSERT INTO ${sessions} (digest, audience, project_id, subject, created_at, last_seen_at, idle_expires_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [s.digest, s.audience, s.projectId, s.subject, s.createdAt, s.lastSeenAt, s.idleExpiresAt, s.expiresAt],
      )
    },
    async getSession(digest, now) {
      const rows = await db.query(`SELECT * FROM ${sessions} WHERE digest = $1 AND idle_expires_at > $2 AND expires_at > $2`, [digest, now])
      return rows[0] ? sessionOf(rows[0]) : null
    },
    async touchSession(digest, lastSeenAt, idleExpiresAt) {
      await db.query(`UPDATE ${sessions} SET last_seen_at = $2, idle_expires_at = LEAST($3::timestamptz, expires_at) WHERE digest = $1`, [
        digest,
        lastSeenAt,
        idleExpiresAt,
      ])
    },
    async deleteSession(digest) {
      await db.query(`DELETE FROM ${sessions} WHERE digest = $1`, [digest])
    },
    async deleteSubjectSessions(audience, projectId, subject) {
      const rows = await db.query(`DELETE FROM ${sessions} WHERE audience = $1 AND project_id = $2 AND subject = $3 RETURNING digest`, [audience, projectId, subject])
      return rows.length
    },
    async insertSignInToken(t) {
      await db.query(`INSERT INTO ${tokens} (digest, audience, project_id, subject, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        t.digest,
        t.audience,
        t.projectId,
        t.subject,
        t.createdAt,
        t.expiresAt,
      ])
    },
    async consumeSignInToken(digest, now) {
      const rows = await db.query(`DELETE FROM ${tokens} WHERE digest = $1 RETURNING *`, [digest])
      const token = rows[0] ? tokenOf(rows[0]) : null
      return token && token.expiresAt > now ? token : null
    },
    async purgeExpired(now) {
      const gone = await db.query(`DELETE FROM ${sessions} WHERE idle_expires_at <= $1 OR expires_at <= $1 RETURNING digest`, [now])
      const expired = await db.query(`DELETE FROM ${tokens} WHERE expires_at <= $1 RETURNING digest`, [now])
      return gone.length + expired.length
    },
  }
}
