// Sends one webhook POST over node:http/https keep-alive agents whose lookup checks the address
// actually connected to (SSRF guard, docs/webhooks.md "Private networks"). It talks to node:http
// directly: a fetch layer would add a Headers, a Response and a web stream per delivery, none of
// which this needs (no redirects followed, only the status, Retry-After and a short excerpt read).
import dns, { type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { performance } from 'node:perf_hooks'
import { isForbiddenAddress } from '../core/rules/network.js'

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

function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

function describe(error: unknown): string {
  let current: unknown = error
  while (current instanceof Error && current.cause instanceof Error) current = current.cause
  return current instanceof Error ? current.message : String(error)
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

  return {
    post(url, body, headers, allowPrivate) {
      const started = performance.now()
      const elapsed = () => Math.round(performance.now() - started)
      return new Promise<SendResult>((resolve) => {
        let timer: NodeJS.Timeout | undefined
        const finish = (result: SendResult) => {
          clearTimeout(timer)
          resolve(result)
        }
        const fail = (error: unknown) => finish({ statusCode: null, durationMs: elapsed(), excerpt: null, error: describe(error), retryAfterMs: null })
        let request: http.ClientRequest
        try {
          const target = new URL(url)
          // Node skips the lookup for IP literals, so those are checked here.
          const literal = target.hostname.replace(/^\[|\]$/g, '')
          if (!allowPrivate && isIP(literal) && isForbiddenAddress(literal)) return fail(new BlockedAddressError(literal))
          const pool = allowPrivate ? openPool : guardedPool
          const secure = target.protocol === 'https:'
          request = (secure ? https : http).request(target, { method: 'POST', headers, agent: secure ? pool.https : pool.http })
        } catch (error) {
          return fail(error)
        }
        // Until the answer's head arrives a timeout is a failure; after it, the status stands.
        let onTimeout = () => {
          const error = new Error(`timed out after ${timeoutMs} ms`)
          request.destroy(error)
          fail(error)
        }
        timer = setTimeout(() => onTimeout(), timeoutMs)
        request.once('error', fail)
        request.once('response', (response) => {
          request.removeListener('error', fail)
          request.on('error', () => {})
          const status = response.statusCode ?? 0
          if (status < 200 || status > 599) {
            response.destroy()
            return fail(new Error(`invalid HTTP status ${status}`))
          }
          const durationMs = elapsed()
          const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(response.headers['retry-after'], Date.now()) : null
          const answered = (excerpt: string | null) => finish({ statusCode: status, durationMs, excerpt, error: null, retryAfterMs })
          // The body is read up to excerptBytes, then dropped; one that breaks off leaves no excerpt.
          const chunks: Buffer[] = []
          let size = 0
          const read = () => {
            response.removeAllListeners('data')
            response.removeAllListeners('close')
            const text = Buffer.concat(chunks, size).subarray(0, excerptBytes).toString('utf8')
            answered(text === '' ? null : text)
          }
          const brokenOff = () => {
            response.removeAllListeners('data')
            response.removeAllListeners('end')
            answered(null)
          }
          onTimeout = () => {
            response.destroy()
            brokenOff()
          }
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk)
            size += chunk.byteLength
            if (size >= excerptBytes) {
              response.destroy()
              read()
            }
          })
          response.once('end', read)
          response.once('close', brokenOff)
          response.on('error', () => {})
        })
        request.end(body)
      })
    },
    close() {
      for (const pool of [guardedPool, openPool]) {
        pool.http.destroy()
        pool.https.destroy()
      }
    },
  }
}
