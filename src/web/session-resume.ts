// The signed-in pages' first question, the same for the portal and the console: whom does the
// request's session cookie sign in? A session that signs nobody in any more (another project's, a
// removed or blocked affiliate, a revoked key) ends here and its cookie is cleared; a GET then goes
// to the sign-in page, anything else gets the surface's signed-out page with a 401.
import { cookieHeader, readCookie, type CookieScope } from './cookies.js'
import { redirectResponse } from './responses.js'
import type { WebSessions } from './sessions.js'

/** What a surface's setup has for it. */
export interface SignedInSurface {
  sessions: WebSessions
  program: { projectId: string }
  paths: { signIn: string }
  security: Record<string, string>
  cookieScope(url: URL): CookieScope
}

export interface SessionResume<T> {
  request: Request
  url: URL
  /** The session cookie's name. */
  cookie: string
  /** Who the session's subject is, or null when it may not sign in (any more). */
  whoIs(subject: string): Promise<T | null>
  /** The signed-out page answering a non-GET request whose session ended, with these cookies set. */
  signedOut(cookies: string[]): Response
}

export async function resumeSignedIn<T>(surface: SignedInSurface, { request, url, cookie, whoIs, signedOut }: SessionResume<T>): Promise<{ sessionId: string; signedIn: T } | { refused: Response }> {
  const sessionId = readCookie(request, cookie)
  const session = await surface.sessions.resume(sessionId)
  const signedIn = session && session.projectId === surface.program.projectId ? await whoIs(session.subject) : null
  if (session && signedIn) return { sessionId: sessionId!, signedIn }
  if (session) await surface.sessions.end(sessionId)
  const cookies = sessionId ? [cookieHeader(cookie, '', surface.cookieScope(url), 0)] : []
  if (request.method === 'GET') return { refused: redirectResponse(surface.paths.signIn + (sessionId ? '?ended=1' : ''), { security: surface.security, cookies }) }
  return { refused: signedOut(cookies) }
}
