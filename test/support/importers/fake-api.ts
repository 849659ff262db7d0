// The part every local tool API shares: records each request's path and query, refuses a wrong
// key with the tool's own 401 body, answers 404 off its list endpoints, answers 429 (Retry-After: 0)
// to the next `count` requests of a path on demand, and leaves paging to the tool.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type JsonAnswer = (status: number, body: unknown, headers?: Record<string, string>) => void

export interface FakeApi {
  /** The base URL, version prefix included, as `--api-url` takes it. */
  url: string
  /** Paths of the requests received, with their query. */
  requests: string[]
  /** The next `count` requests to `path` answer 429 with Retry-After: 0. */
  rateLimit(path: string, count: number): void
  close(): Promise<void>
}

export interface FakeApiOptions {
  prefix: string
  lists: Record<string, unknown[]>
  authorized(request: IncomingMessage): boolean
  unauthorized: unknown
  /** Answers one page of `list`. */
  page(list: unknown[], url: URL, request: IncomingMessage, json: JsonAnswer): void
}

export async function startFakeApi(options: FakeApiOptions): Promise<FakeApi> {
  const requests: string[] = []
  const limited = new Map<string, number>()
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://localhost')
    requests.push(`${url.pathname}${url.search}`)
    const json: JsonAnswer = (status, body, headers = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers })
      response.end(JSON.stringify(body))
    }
    if (!options.authorized(request)) return json(401, options.unauthorized)
    const list = options.lists[url.pathname]
    if (!list || request.method !== 'GET') return json(404, { error: 'Not found' })
    const left = limited.get(url.pathname) ?? 0
    if (left > 0) {
      limited.set(url.pathname, left - 1)
      return json(429, { error: 'Too many requests' }, { 'retry-after': '0' })
    }
    options.page(list, url, request, json)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${options.prefix}`,
    requests,
    rateLimit: (path, count) => limited.set(path, count),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
