// Browser sessions over a SessionStore: opaque ids (only their digests stored), idle and
// absolute expiry, revocation, and one-time sign-in tokens. Shared by the portal and the admin
// console; each passes its own audience, so one's session never opens the other's pages.
import type { Clock } from '../core/model/clock.js'
import { digestOf, isSecretShaped, newSecret } from './secrets.js'
import type { SessionAudience, SessionStore, SignInTokenRecord, WebSessionRecord } from '../core/ports/session-store.js'

export interface SessionPolicy {
  /** A session unused this long ends. @default 3600 (one hour) */
  idleTimeoutSeconds?: number
  /** A session ends this long after sign-in, used or not. @default 43200 (twelve hours) */
  absoluteTimeoutSeconds?: number
  /** A sign-in link works this long (once). @default 900 (fifteen minutes) */
  signInLinkTtlSeconds?: number
}

/** Idle expiry moves at most once a minute, so reading pages does not write on every request. */
const TOUCH_EVERY_MS = 60_000

const seconds = (value: number | undefined, fallback: number, name: string): number => {
  const result = value ?? fallback
  if (!Number.isSafeInteger(result) || result < 1) throw new TypeError(`${name} must be a positive whole number of seconds`)
  return result * 1000
}

export interface WebSessions {
  /** Starts a session; resolves with the id to put in the cookie. */
  start(projectId: string, subject: string): Promise<{ id: string; session: WebSessionRecord }>
  /** The live session of a cookie value (and marks it used); null for anything else. */
  resume(id: string | null): Promise<WebSessionRecord | null>
  end(id: string | null): Promise<void>
  endAll(projectId: string, subject: string): Promise<number>
  /** A one-time sign-in token for `subject`; resolves with the token and when it expires. */
  issueSignInToken(projectId: string, subject: string): Promise<{ token: string; expiresAt: Date }>
  /** The token's record when it is valid now, used up by this call; null when unknown, used or expired. */
  redeemSignInToken(token: string | null): Promise<SignInTokenRecord | null>
}

export function webSessions(store: SessionStore, audience: SessionAudience, clock: Clock, policy: SessionPolicy = {}): WebSessions {
  const idleMs = seconds(policy.idleTimeoutSeconds, 3600, 'idleTimeoutSeconds')
  const absoluteMs = seconds(policy.absoluteTimeoutSeconds, 43_200, 'absoluteTimeoutSeconds')
  const tokenMs = seconds(policy.signInLinkTtlSeconds, 900, 'signInLinkTtlSeconds')
  const later = (at: Date, ms: number) => new Date(at.getTime() + ms)

  return {
    async start(projectId, subject) {
      const id = newSecret()
      const now = clock.now()
      const expiresAt = later(now, absoluteMs)
      const idle = later(now, idleMs)
      const session: WebSessionRecord = {
        digest: digestOf(id),
        audience,
        projectId,
        subject,
        createdAt: now,
        lastSeenAt: now,
        idleExpiresAt: idle < expiresAt ? idle : expiresAt,
        expiresAt,
      }
      await store.insertSession(session)
      return { id, session }
    },
    async resume(id) {
      if (!isSecretShaped(id)) return null
      const now = clock.now()
      const session = await store.getSession(digestOf(id), now)
      if (!session || session.audience !== audience) return null
      if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
        await store.touchSession(session.digest, now, later(now, idleMs))
      }
      return session
    },
    async end(id) {
      if (isSecretShaped(id)) await store.deleteSession(digestOf(id))
    },
    endAll: (projectId, subject) => store.deleteSubjectSessions(audience, projectId, subject),
    async issueSignInToken(projectId, subject) {
      const token = newSecret()
      const now = clock.now()
      const expiresAt = later(now, tokenMs)
      await store.insertSignInToken({ digest: digestOf(token), audience, projectId, subject, createdAt: now, expiresAt })
      return { token, expiresAt }
    },
    async redeemSignInToken(token) {
      if (!isSecretShaped(token)) return null
      const record = await store.consumeSignInToken(digestOf(token), clock.now())
      return record && record.audience === audience ? record : null
    },
  }
}
