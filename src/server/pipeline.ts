// One request pipeline for every surface (the REST API, payment-provider events, referral links,
// the portal, the console): a list of steps, each given the request, what the steps before it
// learned (the exchange) and the rest of the pipeline, the way Hono composes middleware. A surface
// assembles its own in a few lines from the shared steps (observe.ts: request id, log line and
// metrics; errorAnswer below; authentication by key, session or signature; CSRF; the rate limit)
// and its own (routing, bodies); what is shared is written once, so every surface is logged and
// counted the same way.
import { UNMATCHED } from '../ops/request-log.js'

/** What the shared steps read of a request, whatever a surface serves it as. */
export interface RequestLine {
  method: string
  /** Path and query, as in the request line. */
  target: string
  /** A header value (case-insensitive name), or null. */
  header(name: string): string | null
}

/** One request on its way through the steps. */
export interface Exchange {
  /** The log's id of the request (observe.ts); '' when nothing observes the surface. */
  requestId: string
  /** The route pattern the log and metrics name, set by the step that finds the route. @default UNMATCHED */
  route: string
  /** Polled often (health, metrics, assets) or noise outside the surface: logged at debug level. */
  quiet: boolean
  /** Headers the answer carries whichever step gives it (the API's rate limit). */
  headers: Record<string, string>
}

/** The rest of the pipeline, as a step sees it; the last one answers. */
export type Answer<Req, Res> = (request: Req, exchange: Exchange) => Promise<Res>

export type Step<Req, Res> = (request: Req, exchange: Exchange, next: Answer<Req, Res>) => Promise<Res>

/** The steps in order, then `answer`; a null step (an observer not configured, say) is left out. */
export function pipeline<Req, Res>(steps: ReadonlyArray<Step<Req, Res> | null>, answer: Answer<Req, Res>): (request: Req) => Promise<Res> {
  const run = chain(steps, answer)
  return (request) => run(request, { requestId: '', route: UNMATCHED, quiet: false, headers: {} })
}

/**
 * The steps in order, then `answer`, as the rest of a pipeline: the part a surface runs for some of
 * its requests only (the pages behind a session), on the same exchange.
 */
export function chain<Req, Res>(steps: ReadonlyArray<Step<Req, Res> | null>, answer: Answer<Req, Res>): Answer<Req, Res> {
  return steps.reduceRight<Answer<Req, Res>>((next, step) => (step === null ? next : before(step, next)), answer)
}

/** `step`, with `next` as the rest of the pipeline. */
function before<Req, Res>(step: Step<Req, Res>, next: Answer<Req, Res>): Answer<Req, Res> {
  return (request, exchange) => step(request, exchange, next)
}

/**
 * The error answer: what a later step throws becomes the surface's own answer to it (a JSON
 * error, an error page); `answerError` rethrows what it does not answer.
 */
export function errorAnswer<Req, Res>(answerError: (error: unknown, request: Req, exchange: Exchange) => Res | Promise<Res>): Step<Req, Res> {
  return async (request, exchange, next) => {
    try {
      return await next(request, exchange)
    } catch (error) {
      return answerError(error, request, exchange)
    }
  }
}
