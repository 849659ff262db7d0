// The port of the browser pages' server-side state: sessions and one-time sign-in tokens. Each
// storage adapter implements it beside its domain tables (memoryStorage().sessions,
// pgliteStorage().sessions, postgresStorage().sessions). Only digests of session ids and tokens
// are ever handed to it, so a leaked table opens no session.

/** Which set of pages a session or token belongs to: a portal session never opens another audience's pages. */
export type SessionAudience = 'portal' | 'admin'

export interface WebSessionRecord {
  /** Hex SHA-256 of the session id (the id itself lives only in the browser's cookie). */
  digest: string
  audience: SessionAudience
  projectId: string
  /** Who signed in, in the audience's terms (the affiliate id for the portal). */
  subject: string
  createdAt: Date
  lastSeenAt: Date
  /** Moves forward with use (idle expiry). */
  idleExpiresAt: Date
  /** Never moves (absolute expiry). */
  expiresAt: Date
}

export interface SignInTokenRecord {
  /** Hex SHA-256 of the token. */
  digest: string
  audience: SessionAudience
  projectId: string
  subject: string
  createdAt: Date
  expiresAt: Date
}

export interface SessionStore {
  insertSession(session: WebSessionRecord): Promise<void>
  /** The session when present and not expired (idle or absolute) at `now`; else null. */
  getSession(digest: string, now: Date): Promise<WebSessionRecord | null>
  /** Records use: moves lastSeenAt and the idle expiry (never past the absolute expiry). */
  touchSession(digest: string, lastSeenAt: Date, idleExpiresAt: Date): Promise<void>
  deleteSession(digest: string): Promise<void>
  /** Ends every session of one subject; resolves with how many ended. */
  deleteSubjectSessions(audience: SessionAudience, projectId: string, subject: string): Promise<number>
  insertSignInToken(token: SignInTokenRecord): Promise<void>
  /**
   * Deletes the token and returns it when it was present and unexpired at `now`. Atomic: of two
   * concurrent calls with one digest, at most one gets the token.
   */
  consumeSignInToken(digest: string, now: Date): Promise<SignInTokenRecord | null>
  /** Deletes expired sessions and tokens; resolves with how many rows went. */
  purgeExpired(now: Date): Promise<number>
}

/** A storage object that carries a session store (every adapter of this package does). */
export interface WithSessionStore {
  readonly sessions: SessionStore
}
