// Helpers for the HTTP tests: a program over the memory adapter with a test clock, API keys, and
// `call`, which sends a Request through the handler and parses the answer.
import type { PromotionCodeIssuer } from '../../../src/core/ports/promotion-codes.js'
import type { LinkOptions } from '../../../src/core/rules/link-settings.js'
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import { testClock, type TestClock } from '../../../src/core/model/clock.js'
import { createAffiliateProgram, createWebhookDispatcher, type AffiliateProgram, type StoragePort, type WebhookDispatcher } from '../../../src/index.js'
import type { ProjectSettingsInput } from '../../../src/core/model/schemas.js'
import type { Scope } from '../../../src/core/model/types.js'
import { afterEach, expect } from 'vitest'
import { createHandler, type FetchHandler, type HandlerOptions } from '../../../src/http/index.js'

export interface Reply {
  status: number
  headers: Headers
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test convenience
  body: any
}

export interface CallOptions {
  key?: string | null
  headers?: Record<string, string>
  /** A raw body sent as is (no JSON.stringify). */
  raw?: string
}

export type Caller = (method: string, path: string, body?: unknown, options?: CallOptions) => Promise<Reply>

export async function reply(response: Response): Promise<Reply> {
  const text = await response.text()
  let body: unknown = null
  if (text) {
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
  }
  return { status: response.status, headers: response.headers, text, body }
}

export function caller(send: (request: Request) => Promise<Response>, defaultKey: string, origin = 'http://test.local'): Caller {
  return async (method, path, body, options = {}) => {
    const headers: Record<string, string> = { ...options.headers }
    const key = options.key === undefined ? defaultKey : options.key
    if (key !== null) headers.authorization = `Bearer ${key}`
    let payload: string | undefined
    if (options.raw !== undefined) payload = options.raw
    else if (body !== undefined) payload = JSON.stringify(body)
    if (payload !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json'
    }
    const url = path.startsWith('http') ? path : `${origin}${path.startsWith('/api/') ? '' : '/api/v1'}${path}`
    return reply(await send(new Request(url, { method, headers, ...(payload !== undefined ? { body: payload } : {}) })))
  }
}

export interface Setup {
  program: AffiliateProgram
  storage: StoragePort
  dispatcher: WebhookDispatcher
  clock: TestClock
  key: string
  handler: FetchHandler
  call: Caller
  /** A key of the same project with only these scopes. */
  keyWith(scopes: Scope[]): Promise<string>
}

export async function setup(
  options: { handler?: HandlerOptions; settings?: ProjectSettingsInput; storage?: StoragePort; promotionCodes?: PromotionCodeIssuer; links?: LinkOptions } = {},
): Promise<Setup> {
  const clock = testClock('2026-03-01T00:00:00.000Z')
  const storage = options.storage ?? memoryStorage()
  const program = await createAffiliateProgram({
    storage,
    clock,
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.promotionCodes ? { promotionCodes: options.promotionCodes } : {}),
    ...(options.links ? { links: options.links } : {}),
  })
  const dispatcher = createWebhookDispatcher({ storage, clock })
  const { key } = await program.keys.create()
  const handler = createHandler(program, { rateLimit: { limit: 100_000 }, state: storage.keyedState, webhooks: dispatcher, ...options.handler })
  return {
    program,
    storage,
    dispatcher,
    clock,
    key,
    handler,
    call: caller(handler, key),
    keyWith: async (scopes) => (await program.keys.create({ scopes })).key,
  }
}

/** setup() whose call goes through the given transport; stop() closes it. */
export async function setupVia(
  transport: import('./transports.js').Transport,
  options: Parameters<typeof setup>[0] = {},
): Promise<Setup & { stop(): Promise<void>; origin: string }> {
  const base = await setup(options)
  const started = await transport.start(base.handler)
  return { ...base, call: caller(started.send, base.key, started.origin), stop: started.stop, origin: started.origin }
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** For a describe block: start() sets up over the transport and is stopped after each test. */
export function startsVia(transport: import('./transports.js').Transport) {
  const stops: (() => Promise<void>)[] = []
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()))
  })
  async function start(options: Parameters<typeof setupVia>[1] = {}) {
    const started = await setupVia(transport, options)
    stops.push(started.stop)
    return started
  }
  async function withAffiliate(s: Setup, email = 'ann@example.com', extra: Record<string, unknown> = {}) {
    const res = await s.call('POST', '/affiliates', { email, ...extra })
    expect(res.status).toBe(201)
    return res.body.data as { id: number; referral_code: string; user_email: string }
  }
  return { start, withAffiliate }
}
