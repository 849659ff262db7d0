// Webhook signatures: the default scheme (docs/webhooks.md "Signatures": `sha256=<hex HMAC-SHA256 of the raw
// body>`), the Standard Webhooks scheme, and constant-time verification for receivers.
import { createHmac, timingSafeEqual } from 'node:crypto'

export type RawBody = string | Uint8Array

/** What the HMAC reads: a string as is (hashed as UTF-8, no copy), bytes as a Buffer view. */
function bytes(body: RawBody): string | Buffer {
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
}

/** `sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret (UTF-8). */
export function signPayload(secret: string, rawBody: RawBody): string {
  return `sha256=${createHmac('sha256', secret).update(bytes(rawBody)).digest('hex')}`
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * Checks signature headers against the raw, unparsed request body in constant time: true when a
 * `sha256=` value in `headers` matches. Pass `<prefix>-Signature`, or during a secret rotation
 * `[<prefix>-Signature, <prefix>-Signature-Previous]` so either secret verifies. A header listing
 * comma-separated values is also accepted. Pass the body exactly as received (string or bytes),
 * never re-serialized JSON.
 */
export function verifySignature(
  secret: string,
  rawBody: RawBody,
  headers: string | readonly (string | null | undefined)[] | null | undefined,
): boolean {
  if (typeof secret !== 'string' || secret === '') return false
  const values = (typeof headers === 'string' ? [headers] : Array.isArray(headers) ? headers : []).filter(
    (value): value is string => typeof value === 'string',
  )
  const expected = signPayload(secret, rawBody)
  let matched = false
  for (const candidate of values.flatMap((value) => value.split(','))) {
    if (safeEqual(candidate.trim().toLowerCase(), expected)) matched = true
  }
  return matched
}

// Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>` over
// `${id}.${timestamp}.${body}`. A `whsec_<base64>` secret is base64-decoded as the spec says; any
// other secret is used as its raw UTF-8 bytes (verify with `new Webhook(secret, { format: 'raw' })`).
function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8')
}

/** `v1,<base64>` per secret, space-separated (the Standard Webhooks form for several keys). */
export function standardSignatureHeader(secrets: readonly string[], id: string, timestamp: number, rawBody: RawBody): string {
  return secrets
    .map((secret) => {
      const mac = createHmac('sha256', standardKey(secret))
      mac.update(`${id}.${timestamp}.`)
      mac.update(bytes(rawBody))
      return `v1,${mac.digest('base64')}`
    })
    .join(' ')
}

export interface StandardVerifyOptions {
  /** Largest accepted distance between the timestamp and now, in seconds. @default 300 */
  toleranceSeconds?: number
  /** @default the current time */
  now?: Date
}

/**
 * Verifies a Standard Webhooks request: `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * headers, with a timestamp tolerance against replays. Header names are matched case-insensitively.
 */
export function verifyStandardWebhook(
  secret: string,
  rawBody: RawBody,
  headers: Record<string, string | string[] | undefined> | Headers,
  options: StandardVerifyOptions = {},
): boolean {
  const read = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name)
    const value = key === undefined ? undefined : headers[key]
    return Array.isArray(value) ? value[0] : value
  }
  const id = read('webhook-id')
  const timestamp = Number(read('webhook-timestamp'))
  const signatures = read('webhook-signature')
  if (!id || !signatures || !Number.isSafeInteger(timestamp) || !secret) return false
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000)
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false
  const expected = standardSignatureHeader([secret], id, timestamp, rawBody)
  let matched = false
  for (const candidate of signatures.split(' ')) {
    if (safeEqual(candidate, expected)) matched = true
  }
  return matched
}
