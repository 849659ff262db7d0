// The request and response as the handler core sees them. createHandler adapts fetch Request /
// Response to these, and node:http requests too (its `node`, node.ts), which skips building fetch
// objects, the largest cost of a small request.
import { HttpError } from './errors.js'

export interface IncomingRequest {
  method: string
  /** The request target: path and query as in the request line (`/api/v1/affiliates?limit=5`). */
  target: string
  /** Absolute URL of the request, for error reports. */
  url(): string
  /** A header value (case-insensitive name), or null. */
  header(name: string): string | null
  /** The body as text; over maxBytes is 413, invalid UTF-8 is 400. */
  text(maxBytes: number): Promise<string>
}

export interface OutgoingResponse {
  status: number
  headers: Record<string, string>
  /** null for 204; bytes for an answer that is no text (an image). */
  body: string | Uint8Array<ArrayBuffer> | null
}

export type Respond = (request: IncomingRequest) => Promise<OutgoingResponse>

export const tooLarge = (maxBytes: number) => new HttpError('payload_too_large', `request body is larger than ${maxBytes} bytes`)

/** Decodes UTF-8 strictly, dropping a leading byte order mark. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    throw new HttpError('invalid_request', 'body: is not valid UTF-8', 'body')
  }
}

export function fromFetchRequest(request: Request): IncomingRequest {
  return {
    method: request.method,
    target: targetOf(request.url),
    url: () => request.url,
    header: (name) => request.headers.get(name),
    async text(maxBytes) {
      if (!request.body) return ''
      const reader = request.body.getReader()
      const chunks: Uint8Array[] = []
      let size = 0
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        size += value.byteLength
        if (size > maxBytes) {
          await reader.cancel().catch(() => {})
          throw tooLarge(maxBytes)
        }
        chunks.push(value)
      }
      return decodeUtf8(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
    },
  }
}

/** Path and query of an absolute URL. */
function targetOf(url: string): string {
  const path = url.indexOf('/', url.indexOf('//') + 2)
  return path === -1 ? '/' : url.slice(path)
}

export function toFetchResponse(response: OutgoingResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers })
}
