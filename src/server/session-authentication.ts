// Authentication by session, as a pipeline step: the browser pages (portal, console) learn who
// their session cookie signs in, or answer the refusal the surface gives (to its sign-in page on
// GET, a 401 page otherwise). How a session is read is the surface's (web/sessions.ts).
import type { RequestLine, Step } from './pipeline.js'

/** A request that carries who its session signed in, once the step has run. */
export interface SessionRequest<S> extends RequestLine {
  session: S | null
}

/** Who the request's session signs in, or the answer refusing it. */
export type SessionCheck<Req, S, Res> = (request: Req) => Promise<{ session: S } | { refused: Res }>

/** Sets `request.session`; a request without a live session gets the check's refusal. */
export function sessionAuthentication<S, Req extends SessionRequest<S>, Res>(check: SessionCheck<Req, S, Res>): Step<Req, Res> {
  return async (request, exchange, next) => {
    const outcome = await check(request)
    if ('refused' in outcome) return outcome.refused
    request.session = outcome.session
    return next(request, exchange)
  }
}
