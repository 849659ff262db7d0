// toNodeHandler(handler): serves a fetch handler from node:http or Express. Uses Express's
// `req.originalUrl` (so sub-path mounts keep the full path) and copes with a body a parser such
// as express.json() already consumed (it is re-serialized from `req.body`). serveNode drives the
// handler's core directly, without building fetch Request / Response objects: createHandler's
// `node`, which toNodeHandler uses when it is given one.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { decodeUtf8, tooLarge, type IncomingRequest, type OutgoingResponse, type Respond } from './bodies.js'
import type { FetchHandler, NodeHandler } from './fetch-handler.js'

/** The parts of Express's request we read; plain node:http requests lack them. */
interface MaybeExpressRequest extends IncomingMessage {
  originalUrl?: string
  body?: unknown
  _body?: boolean
}

export type { NodeHandler }

/** The body a parser already read, as text; null when the stream is still unread. */
function consumedBody(req: MaybeExpressRequest): string | null {
  const consumed = req._body === true || req.readableEnded
  if (!consumed || req.body === undefined) return null
  if (typeof req.body === 'string') return req.body
  if (req.body instanceof Uint8Array) return decodeUtf8(req.body)
  return JSON.stringify(req.body)
}

function readText(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > maxBytes) {
        req.off('data', onData)
        req.resume() // drain the rest so the answer can still be sent
        reject(tooLarge(maxBytes))
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => {
      try {
        resolve(decodeUtf8(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))
      } catch (error) {
        reject(error)
      }
    })
    req.once('error', reject)
  })
}

/** Whether all Content-Length bytes of the body wait in the stream's buffer, unread. */
function fullyBuffered(req: IncomingMessage): boolean {
  const length = req.headers['content-length']
  return length !== undefined && req.readableFlowing !== true && req.readableLength === Number(length)
}

/** A body that has fully arrived, as a small JSON body has by the time a route reads it: no listeners needed. */
function bufferedText(req: IncomingMessage, maxBytes: number): string {
  if (req.readableLength > maxBytes) {
    req.resume() // drain it so the answer can still be sent
    throw tooLarge(maxBytes)
  }
  const bytes: Buffer | null = req.read()
  return bytes === null ? '' : decodeUtf8(bytes)
}

function requestUrl(req: MaybeExpressRequest): string {
  const host = req.headers.host && /^[A-Za-z0-9.:[\]-]+$/.test(req.headers.host) ? req.headers.host : 'localhost'
  return `http://${host}${req.originalUrl ?? req.url ?? '/'}`
}

function fromNodeRequest(req: MaybeExpressRequest): IncomingRequest {
  return {
    method: req.method ?? 'GET',
    target: req.originalUrl ?? req.url ?? '/',
    url: () => requestUrl(req),
    header(name) {
      const value = req.headers[name]
      if (value === undefined) return null
      return Array.isArray(value) ? value.join(', ') : value
    },
    async text(maxBytes) {
      const parsed = consumedBody(req)
      if (parsed !== null) {
        if (Buffer.byteLength(parsed) > maxBytes) throw tooLarge(maxBytes)
        return parsed
      }
      if (req.readableEnded) return ''
      return fullyBuffered(req) ? bufferedText(req, maxBytes) : readText(req, maxBytes)
    },
  }
}

/** A fetch Request for handlers not made by createHandler. */
function toFetchRequest(req: MaybeExpressRequest): Request {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
    } catch {
      // A header the fetch Headers class refuses is dropped rather than failing the request.
    }
  }
  const method = req.method ?? 'GET'
  const init: RequestInit & { duplex?: 'half' } = { method, headers }
  if (method !== 'GET' && method !== 'HEAD') {
    const parsed = consumedBody(req)
    if (parsed !== null) {
      headers.delete('content-length')
      headers.delete('transfer-encoding')
      init.body = parsed
    } else if (!req.readableEnded) {
      init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>
      init.duplex = 'half'
    }
  }
  return new Request(requestUrl(req), init)
}

/** A response for node: a header sent more than once (Set-Cookie) is a list. */
type NodeResponse = Omit<OutgoingResponse, 'headers'> & { headers: Record<string, string | string[]> }

async function viaFetch(handler: FetchHandler, req: MaybeExpressRequest): Promise<NodeResponse> {
  const response = await handler(toFetchRequest(req))
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value
  })
  // forEach names Set-Cookie once per cookie: keep them all.
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  // As bytes: an answer may be no text (an image), and text passes through them unchanged.
  return { status: response.status, headers, body: response.body ? new Uint8Array(await response.arrayBuffer()) : null }
}

/** Sends a response this adapter owns from here on (its headers object gets Content-Length). */
function send(res: ServerResponse, response: NodeResponse): void {
  const { headers, body } = response
  if (body !== null) headers['Content-Length'] = String(Buffer.byteLength(body))
  res.writeHead(response.status, headers)
  res.end(body ?? undefined)
}

/** A handler of node:http requests answered by `answer`. */
function nodeHandler(answer: (req: MaybeExpressRequest) => Promise<NodeResponse>): NodeHandler {
  return (req, res, next) => {
    answer(req)
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

/** The node:http handler of a handler core (createHandler's `node`). */
export function serveNode(respond: Respond): NodeHandler {
  return nodeHandler((req) => respond(fromNodeRequest(req)))
}

/** Serves a fetch handler, or createHandler's `{ fetch, node }`, from node:http or Express. */
export function toNodeHandler(handler: FetchHandler | { fetch: FetchHandler; node?: NodeHandler }): NodeHandler {
  if ('node' in handler && handler.node) return handler.node
  const fetch = typeof handler === 'function' ? handler : handler.fetch
  return nodeHandler((req) => viaFetch(fetch, req))
}
