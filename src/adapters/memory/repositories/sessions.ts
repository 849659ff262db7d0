// The in-memory session store: two maps keyed by digest. Each method runs without awaiting in
// between, so consuming a sign-in token is atomic in one process.
import type { SessionStore, SignInTokenRecord, WebSessionRecord } from '../../../core/session-store.js'

const live = (session: WebSessionRecord, now: Date) => session.idleExpiresAt > now && session.expiresAt > now

export function memorySessionStore(): SessionStore {
  const sessions = new Map<string, WebSessionRecord>()
  const tokens = new Map<string, SignInTokenRecord>()
  return {
    async insertSession(session) {
      sessions.set(session.digest, { ...session })
    },
    async getSession(digest, now) {
      const session = sessions.get(digest)
      return session && live(session, now) ? { ...session } : null
    },
    async touchSession(digest, lastSeenAt, idleExpiresAt) {
      const session = sessions.get(digest)
      if (session) sessions.set(digest, { ...session, lastSeenAt, idleExpiresAt: idleExpiresAt < session.expiresAt ? idleExpiresAt : session.expiresAt })
    },
    async deleteSession(digest) {
      sessions.delete(digest)
    },
    async deleteSubjectSessions(audience, projectId, subject) {
      let count = 0
      for (const [digest, session] of sessions) {
        if (session.audience === audience && session.projectId === projectId && session.subject === subject) {
          sessions.delete(digest)
          count += 1
        }
      }
      return count
    },
    async insertSignInToken(token) {
      tokens.set(token.digest, { ...token })
    },
    async consumeSignInToken(digest, now) {
      const token = tokens.get(digest)
      tokens.delete(digest)
      return token && token.expiresAt > now ? token : null
    },
    async purgeExpired(now) {
      let count = 0
      for (const [digest, session] of sessions) if (!live(session, now) && sessions.delete(digest)) count += 1
      for (const [digest, token] of tokens) if (token.expiresAt <= now && tokens.delete(digest)) count += 1
      return count
    },
  }
}
