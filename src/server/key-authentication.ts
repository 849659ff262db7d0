// Authentication by API key, as pipeline steps: `Authorization: Bearer <key>`, the key verified by
// the program (by its SHA-256, keyVerifier). The REST API takes secret keys this way; the tracking
// reports take publishable keys (rgp_) from the same header.
import type { VerifiedKey } from '../core/project/keys.js'
import { HttpError } from './errors.js'
import type { RequestLine, Step } from './pipeline.js'

/** The key of `Authorization: Bearer <key>`, or null without one. */
export function bearerToken(request: RequestLine): string | null {
  const header = request.header('authorization')
  const match = header === null ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header)
  return match ? match[1]! : null
}

/** A request that carries the key it was authenticated with, once the step has run. */
export interface KeyedRequest extends RequestLine {
  key: VerifiedKey | null
}

/** Sets `request.key`; a request without an active key is refused (401). */
export function keyAuthentication<Req extends KeyedRequest, Res>(verify: (key: string) => Promise<VerifiedKey | null>): Step<Req, Res> {
  return async (request, exchange, next) => {
    const token = bearerToken(request)
    if (token === null) throw new HttpError('authentication_error', 'missing API key: send Authorization: Bearer rgk_...')
    request.key = await verify(token)
    if (!request.key) throw new HttpError('authentication_error', 'invalid or revoked API key')
    return next(request, exchange)
  }
}

/**
 * Authentication by publishable key (`rgp_`, what a browser page may hold): sets `request.key`; a
 * request without an active publishable key gets `refuse`'s answer (a secret key is never taken).
 */
export function publishableKeyAuthentication<Req extends KeyedRequest, Res>(verify: (key: string) => Promise<VerifiedKey | null>, refuse: (request: Req) => Res): Step<Req, Res> {
  return async (request, exchange, next) => {
    const token = bearerToken(request)
    const key = token !== null && /^rgp_/i.test(token) ? await verify(token) : null
    if (!key?.publishable) return refuse(request)
    request.key = key
    return next(request, exchange)
  }
}
