// Authentication by signature, as a pipeline step: a payment provider signs the raw body of each
// event (Stripe-Signature, Paddle-Signature, ...). Nothing is parsed before the signature holds.
import type { RequestLine, Step } from './pipeline.js'

/** A request whose raw body has been read (the signature covers its bytes). */
export interface RawBodyRequest extends RequestLine {
  raw: string
}

/** Passes a request whose signature `verify` accepts (null); else answers `refuse` with why not. */
export function signatureVerification<Req extends RawBodyRequest, Res>(verify: (request: Req) => string | null, refuse: (why: string) => Res): Step<Req, Res> {
  return async (request, exchange, next) => {
    const refused = verify(request)
    return refused === null ? next(request, exchange) : refuse(refused)
  }
}
