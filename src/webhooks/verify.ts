// verifyWebhook: what a receiver needs in one call (docs/webhooks.md "Verifying"): the raw body
// checked against every secret it holds, in whichever scheme the endpoint uses (the service
// signature headers, or Standard Webhooks), then parsed into the typed event.
import { EVENT_TYPES } from '../core/model/types.js'
import type { WebhookEvent } from './events.js'
import { verifySignature, verifyStandardWebhook, type RawBody } from './signing.js'

export interface VerifyWebhookOptions {
  /** The dispatcher's header prefix (service scheme). @default 'X-Service' */
  headerPrefix?: string
  /** Largest accepted distance between `webhook-timestamp` and now (Standard Webhooks). @default 300 */
  toleranceSeconds?: number
  /** @default the current time */
  now?: Date
}

/** A request as received: a Fetch Request, or the headers and raw body (a Buffer from express.raw, say). */
export type WebhookRequest = Request | { headers: Headers | Record<string, string | string[] | undefined>; body: RawBody }

/** The request is not a delivery signed with one of the secrets, or not an affiliate-kit event. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WebhookVerificationError'
  }
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES)

function headerReader(headers: Headers | Record<string, string | string[] | undefined>): (name: string) => string | undefined {
  if (headers instanceof Headers) return (name) => headers.get(name) ?? undefined
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value[0] : value]))
  return (name) => lower.get(name.toLowerCase())
}

/**
 * Verifies a delivery against the secrets the receiver holds (several during a rotation: any one
 * verifies) and answers its event, typed by `event`. Throws WebhookVerificationError otherwise.
 * Reads a Request's body; pass `{ headers, body }` where the body was read already.
 */
export async function verifyWebhook(request: WebhookRequest, secrets: string | readonly string[], options: VerifyWebhookOptions = {}): Promise<WebhookEvent> {
  const keys = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((secret) => typeof secret === 'string' && secret !== '')
  if (keys.length === 0) throw new WebhookVerificationError('no secret to verify with')
  const body = request instanceof Request ? new Uint8Array(await request.arrayBuffer()) : request.body
  const header = headerReader(request.headers)
  const prefix = options.headerPrefix ?? 'X-Service'
  const standard = header('webhook-signature') !== undefined
  const signed = standard
    ? keys.some((secret) => verifyStandardWebhook(secret, body, request.headers, options))
    : keys.some((secret) => verifySignature(secret, body, [header(`${prefix}-Signature`), header(`${prefix}-Signature-Previous`)]))
  if (!signed) throw new WebhookVerificationError(standard || header(`${prefix}-Signature`) !== undefined ? 'no signature matches' : 'the request is not signed')
  let event: unknown
  try {
    event = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body))
  } catch {
    throw new WebhookVerificationError('the body is not JSON')
  }
  const type = typeof event === 'object' && event !== null ? (event as { event?: unknown }).event : undefined
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) throw new WebhookVerificationError('not an affiliate-kit event')
  return event as WebhookEvent
}
