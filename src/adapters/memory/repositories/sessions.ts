// The in-memory session store: two maps keyed by digest. Each method runs without awaiting in
// between, so consuming a sign-in token is atomic in one process.
import type { SessionStore, SignInTokenRecord, WebSessionRecord } from '../../../core/ports/session-store.js'

const live = (session: WebSessionRecord, now: Date) => session.idleExpiresAt > now && session.expiresAt > now

/** The store, and the bounded pruning of what expired (the memory adapter's retention port). */
export type MemorySessionStore = SessionStore & { pruneExpired(before: Date, limit: number): number }

export function memorySessionStore(): MemorySessionStore {
  const sessions = new Map<string, WebSessionRecord>()
  const tokens = new Map<string, SignInTokenRecord>()
  const pruneExpired = (before: Date, limit: number): number => {
    let sessionCount = 0
    for (const [digest, session] of sessions) {
      if (sessionCount === limit) break
      if (!live(session, before) && sessions.delete(digest)) sessionCount += 1
    }
    let tokenCount = 0
    for (const [digest, token] of tokens) {
      if (tokenCount === limit) break
      if (token.expiresAt <= before && tokens.delete(digest)) tokenCount += 1
    }
    return sessionCount + tokenCount
  }
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
    purgeExpired: async (now) => pruneExpired(now, Infinity),
    pruneExpired,
  }
}
