// CSRF protection, as a pipeline step: a request that may change something (any method but GET
// and HEAD) must carry the token its page's form was given. The step reads the form (the token is
// one of its fields) and hands it on to the action, so the body is read once.
import type { RequestLine, Step } from './pipeline.js'

/** A request whose form the step read, for the action that follows; null for GET and HEAD. */
export interface FormRequest<F> extends RequestLine {
  form: F | null
}

export interface CsrfCheck<Req, F, Res> {
  /** The request's form. */
  read(request: Req): Promise<F>
  /** Whether the form carries the token the request's session (or pre-session) was given. */
  matches(request: Req, form: F): boolean
  /** The answer to a form without it (403 "Form expired"). */
  refuse(request: Req, form: F): Res | Promise<Res>
}

const SAFE_METHODS = new Set(['GET', 'HEAD'])

/** Sets `request.form` on a request that may change something, and refuses it when its token does not match. */
export function csrfProtection<F, Req extends FormRequest<F>, Res>(check: CsrfCheck<Req, F, Res>): Step<Req, Res> {
  return async (request, exchange, next) => {
    if (SAFE_METHODS.has(request.method)) return next(request, exchange)
    const form = await check.read(request)
    if (!check.matches(request, form)) return check.refuse(request, form)
    request.form = form
    return next(request, exchange)
  }
}
