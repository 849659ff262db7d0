// Sends one webhook POST: ofetch over a small node:http/https fetch whose agents check the address
// actually connected to (SSRF guard, docs/webhooks.md "Private networks"). Node's built-in fetch (undici) offers no
// connect-time lookup hook without the undici package, so ofetch gets this fetch instead.
import dns, { type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { Readable } from 'node:stream'
import { performance } from 'node:perf_hooks'
import { createFetch, type $Fetch } from 'ofetch'
import { isForbiddenAddress } from '../core/network.js'

export interface SendResult {
  /** The receiver's status; null when no answer came. */
  statusCode: number | null
  durationMs: number
  /** The start of the response body (text), or null. */
  excerpt: string | null
  error: string | null
  /** A receiver's Retry-After on 429/503, in milliseconds. */
  retryAfterMs: number | null
}

export class BlockedAddressError extends Error {
  constructor(address: string) {
    super(`refused to connect to ${address}: loopback, private or reserved address (allowPrivateNetworks is false)`)
    this.name = 'BlockedAddressError'
  }
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0)
    const blocked = addresses.find((entry) => isForbiddenAddress(entry.address))
    if (blocked) return callback(new BlockedAddressError(blocked.address), '', 0)
    if (options.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses)
    const first = addresses[0]
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0)
    callback(null, first.address, first.family)
  })
}

interface Agents {
  http: http.Agent
  https: https.Agent
}

function agents(guarded: boolean, maxSockets: number): Agents {
  const options = { keepAlive: true, maxSockets, ...(guarded ? { lookup: guardedLookup } : {}) }
  return { http: new http.Agent(options), https: new https.Agent(options) }
}

/** A minimal fetch over node:http/https: no redirects followed, the body streamed back untouched. */
function nodeFetch(pool: Agents, guarded: boolean): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
      // Node skips the lookup for IP literals, so those are checked here.
      const literal = url.hostname.replace(/^\[|\]$/g, '')
      if (guarded && isIP(literal) && isForbiddenAddress(literal)) return reject(new BlockedAddressError(literal))
      const secure = url.protocol === 'https:'
      const headers: Record<string, string> = {}
      new Headers(init?.headers).forEach((value, key) => (headers[key] = value))
      const request = (secure ? https : http).request(
        url,
        { method: init?.method ?? 'GET', headers, agent: secure ? pool.https : pool.http, ...(init?.signal ? { signal: init.signal } : {}) },
        (res) => {
          const status = res.statusCode ?? 0
          const responseHeaders = new Headers()
          for (const [key, value] of Object.entries(res.headers)) {
            for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(key, item)
          }
          if (status < 200 || status > 599) {
            res.destroy()
            return reject(new Error(`invalid HTTP status ${status}`))
          }
          const empty = status === 204 || status === 205 || status === 304
          if (empty) res.resume()
          const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>)
          resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }))
        },
      )
      request.on('error', reject)
      request.end(typeof init?.body === 'string' ? init.body : undefined)
    })
}

function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

/** Reads at most `limit` bytes of the body as text, then cancels the rest. */
async function excerpt(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | null> {
  if (!body) return null
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < limit) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  const text = Buffer.concat(chunks).subarray(0, limit).toString('utf8')
  return text === '' ? null : text
}

function describe(error: unknown, timeoutMs: number): string {
  let current: unknown = error
  // ofetch wraps the transport error; report the root cause.
  while (current instanceof Error && current.cause instanceof Error) current = current.cause
  if (current instanceof Error) {
    if (current.name === 'TimeoutError' || current.name === 'AbortError') return `timed out after ${timeoutMs} ms`
    return current.message
  }
  return String(error)
}

export interface TransportOptions {
  /** @default 5000 */
  timeoutMs?: number
  /** Bytes of the response body kept in the attempt log. @default 1024 */
  excerptBytes?: number
  /** Sockets per destination. @default 64 */
  maxSockets?: number
}

export interface Transport {
  post(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<SendResult>
  close(): void
}

export function createTransport(options: TransportOptions = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 5000
  const excerptBytes = options.excerptBytes ?? 1024
  const guardedPool = agents(true, options.maxSockets ?? 64)
  const openPool = agents(false, options.maxSockets ?? 64)
  const clients: Record<'guarded' | 'open', $Fetch> = {
    guarded: createFetch({ fetch: nodeFetch(guardedPool, true) }),
    open: createFetch({ fetch: nodeFetch(openPool, false) }),
  }

  return {
    async post(url, body, headers, allowPrivate) {
      const started = performance.now()
      const signal = AbortSignal.timeout(timeoutMs)
      const elapsed = () => Math.round(performance.now() - started)
      try {
        const response = await clients[allowPrivate ? 'open' : 'guarded'].raw(url, {
          method: 'POST',
          body,
          headers,
          signal,
          retry: false,
          redirect: 'manual',
          ignoreResponseError: true,
          responseType: 'stream',
        })
        const durationMs = elapsed()
        const text = await excerpt(response.body, excerptBytes).catch(() => null)
        const status = response.status
        const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(response.headers.get('retry-after'), Date.now()) : null
        return { statusCode: status, durationMs, excerpt: text, error: null, retryAfterMs }
      } catch (error) {
        return { statusCode: null, durationMs: elapsed(), excerpt: null, error: describe(error, timeoutMs), retryAfterMs: null }
      }
    },
    close() {
      for (const pool of [guardedPool, openPool]) {
        pool.http.destroy()
        pool.https.destroy()
      }
    },
  }
}
