// A REST request's JSON body: Content-Type and size checked, parsed as one object, and refused
// (naming the field) when it holds text no storage can keep or nests too deep. No input is a 500.
import type { IncomingRequest } from '../server/bodies.js'
import { tooLarge } from '../server/bodies.js'
import { HttpError } from '../server/errors.js'
import { storableText } from '../server/text.js'

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i

/** Deepest nesting of arrays and objects a body may have; no request of this API needs more than a few levels. */
const MAX_BODY_DEPTH = 32

const child = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`)

/**
 * No storage can keep lone surrogates or NUL characters: refuse them up front, naming the field.
 * Walks the body with an explicit stack (no recursion, so no stack overflow) and refuses bodies
 * nested deeper than MAX_BODY_DEPTH.
 */
function checkBody(body: object): void {
  const pending: Array<{ value: object; path: string; depth: number }> = [{ value: body, path: '', depth: 1 }]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path, depth } = next
    if (depth > MAX_BODY_DEPTH) {
      throw new HttpError('invalid_request', `${path}: nested deeper than ${MAX_BODY_DEPTH} levels`, path)
    }
    const entries: Iterable<[string | number, unknown]> = Array.isArray(value) ? value.entries() : Object.entries(value)
    for (const [key, member] of entries) {
      if (typeof key === 'string' && !storableText(key)) {
        throw new HttpError('invalid_request', 'body: field names must be well-formed Unicode without NUL characters', 'body')
      }
      if (typeof member === 'string' && !storableText(member)) {
        const field = child(path, key)
        throw new HttpError('invalid_request', `${field}: must be well-formed Unicode without NUL characters`, field)
      }
      if (typeof member === 'object' && member !== null) pending.push({ value: member, path: child(path, key), depth: depth + 1 })
    }
  }
}

/** The body's text; 415 without a JSON Content-Type, 413 above maxBodyBytes. */
export async function readBody(request: IncomingRequest, maxBodyBytes: number): Promise<string> {
  const type = request.header('content-type')
  if (!type || !JSON_TYPE.test(type)) throw new HttpError('unsupported_media_type', 'Content-Type must be application/json')
  const length = request.header('content-length')
  if (length && Number(length) > maxBodyBytes) throw tooLarge(maxBodyBytes)
  return request.text(maxBodyBytes)
}

/** The body as a JSON object, checked by checkBody. */
export function parseJson(text: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new HttpError('invalid_request', 'body: is not valid JSON', 'body')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError('invalid_request', 'body: must be a JSON object', 'body')
  }
  checkBody(value)
  return value
}
