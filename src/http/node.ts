// toNodeHandler(handler): serves a fetch handler from node:http or Express. Uses Express's
// `req.originalUrl` (so sub-path mounts keep the full path) and copes with a body a parser such
// as express.json() already consumed (it is re-serialized from `req.body`).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import type { FetchHandler } from './handler.js'

/** The parts of Express's request we read; plain node:http requests lack them. */
interface MaybeExpressRequest extends IncomingMessage {
  originalUrl?: string
  body?: unknown
  _body?: boolean
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

function consumedBody(req: MaybeExpressRequest): string | Uint8Array | null {
  const consumed = req._body === true || req.readableEnded
  if (!consumed || req.body === undefined) return null
  if (typeof req.body === 'string') return req.body
  if (req.body instanceof Uint8Array) return req.body
  return JSON.stringify(req.body)
}

function toRequest(req: MaybeExpressRequest): Request {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!
    // Pseudo-headers (HTTP/2) and malformed names are not forwarded.
    if (name.startsWith(':')) continue
    try {
      headers.append(name, req.rawHeaders[i + 1]!)
    } catch {
      // A header the fetch Headers class refuses is dropped rather than failing the request.
    }
  }
  const host = headers.get('host') ?? 'localhost'
  let url: URL
  try {
    url = new URL(req.originalUrl ?? req.url ?? '/', `http://${host}`)
  } catch {
    url = new URL(req.originalUrl ?? req.url ?? '/', 'http://localhost')
  }
  const method = req.method ?? 'GET'
  const init: RequestInit & { duplex?: 'half' } = { method, headers }
  if (method !== 'GET' && method !== 'HEAD') {
    const parsed = consumedBody(req)
    if (parsed !== null) {
      headers.delete('content-length')
      headers.delete('transfer-encoding')
      init.body = parsed as BodyInit
    } else if (!req.readableEnded) {
      init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>
      init.duplex = 'half'
    }
  }
  return new Request(url, init)
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status
  response.headers.forEach((value, name) => res.setHeader(name, value))
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null
  if (body) res.setHeader('content-length', body.byteLength)
  res.end(body)
}

export function toNodeHandler(handler: FetchHandler): NodeHandler {
  return (req, res, next) => {
    let request: Request
    try {
      request = toRequest(req)
    } catch (error) {
      res.statusCode = 400
      res.setHeader('content-type', 'application/json; charset=utf-8')
      res.end(JSON.stringify({ success: false, error: 'malformed request' }))
      return
    }
    handler(request)
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        if (next) next(error)
        else if (!res.headersSent) {
          res.statusCode = 500
          res.end()
        } else res.destroy(error instanceof Error ? error : undefined)
      })
  }
}
