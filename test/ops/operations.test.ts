// Operations of the library: one log line per request (JSON and text), failed webhook deliveries
// logged, /healthz and /readyz (503 with the database down: a closed PGlite, and PostgreSQL
// behind a proxy that goes away), /metrics in Prometheus format after requests and deliveries.
import { tcpProxy } from '../support/sql/tcp-proxy.js'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createHandler, type HandlerOptions } from '../../src/http/index.js'
import { createAffiliateProgram, createLogger, createMetrics, createWebhookDispatcher, testClock, type AffiliateProgram, type StoragePort } from '../../src/index.js'
import { serverLogger } from '../../src/cli/logging.js'
import { caller } from '../support/http/helpers.js'
import { parsePrometheus, sampleValue } from '../support/ops/prometheus.js'
import { migratedPgliteStorage } from '../support/pglite-template.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'
import { answer, startReceiver, type Receiver } from '../support/webhooks-helpers.js'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function served(options: { storage?: StoragePort; handler?: HandlerOptions; format?: 'json' | 'text'; settings?: Record<string, unknown> } = {}) {
  const lines: string[] = []
  const logger = createLogger({ format: options.format ?? 'json', level: 'debug', write: (line) => lines.push(line) })
  const metrics = createMetrics()
  const storage = options.storage ?? memoryStorage()
  const clock = testClock(new Date())
  const program = await createAffiliateProgram({ storage, clock, settings: { allowPrivateNetworks: true, ...options.settings } })
  cleanups.push(() => program.close())
  const dispatcher = createWebhookDispatcher({ storage, clock, logger, metrics })
  const { key } = await program.keys.create()
  const handler = createHandler(program, { logger, metrics, health: true, ...options.handler })
  return { program, dispatcher, key, lines, handler, call: caller(handler, key) }
}

const records = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>)
const requestRecords = (lines: string[]) => records(lines).filter((record) => record.msg === 'request')

async function receiver(status: number): Promise<Receiver> {
  const started = await startReceiver(answer(status, status === 200 ? 'ok' : 'boom'))
  cleanups.push(() => started.close())
  return started
}

describe('request log', () => {
  it('writes one JSON line per request with method, route pattern, status and duration, never the raw path or the key', async () => {
    const s = await served()
    expect((await s.call('POST', '/affiliates', { email: 'ann@example.com' })).status).toBe(201)
    expect((await s.call('GET', '/affiliates/ann%40example.com')).status).toBe(200)
    expect((await s.call('GET', '/affiliates/nobody%40example.com')).status).toBe(404)
    expect((await s.call('GET', '/affiliates', undefined, { key: 'rgk_wrong' })).status).toBe(401)
    expect((await s.call('GET', '/api/v1/nowhere/at/all')).status).toBe(404)
    const lines = requestRecords(s.lines)
    expect(lines).toHaveLength(5)
    expect(lines.map(({ method, route, status }) => [method, route, status])).toEqual([
      ['POST', '/api/v1/affiliates', 201],
      ['GET', '/api/v1/affiliates/:email', 200],
      ['GET', '/api/v1/affiliates/:email', 404],
      ['GET', 'unmatched', 401],
      ['GET', 'unmatched', 404],
    ])
    for (const line of lines) {
      expect(line).toMatchObject({ level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })
      expect(typeof line.duration_ms).toBe('number')
      expect(line.duration_ms as number).toBeGreaterThanOrEqual(0)
    }
    const all = s.lines.join('\n')
    expect(all).not.toContain('example.com')
    expect(all).not.toContain(s.key)
    expect(all).not.toContain('rgk_wrong')
  })

  it('writes text lines as `time LEVEL request key=value`, and unexpected errors at error level without the URL', async () => {
    const s = await served({ format: 'text' })
    await s.call('GET', '/affiliates?limit=5')
    expect(s.lines.at(-1)).toMatch(/^\d{4}-\d\d-\d\dT\S+Z INFO {2}request surface=api method=GET route=\/api\/v1\/affiliates status=200 duration_ms=[\d.]+ request_id=[0-9a-f-]{36}$/)
    const broken = {
      ...s.program,
      project: (id: string) => {
        const scope = s.program.project(id)
        return { ...scope, affiliates: { ...scope.affiliates, list: async () => Promise.reject(new Error('disk on fire')) } }
      },
    } as AffiliateProgram
    const lines: string[] = []
    const call = caller(createHandler(broken, { logger: createLogger({ write: (line) => lines.push(line) }) }), s.key)
    expect((await call('GET', '/affiliates?email=secret%40example.com')).status).toBe(400)
    expect((await call('GET', '/affiliates')).status).toBe(500)
    expect(lines).toHaveLength(3)
    // What went wrong and where: the error's class and message, and the operation.
    expect(lines[1]).toMatch(/ERROR unexpected error operation="GET \/api\/v1\/affiliates" errorClass=Error message="disk on fire" stack="Error: disk on fire/)
    expect(lines[2]).toMatch(/ERROR request surface=api method=GET route=\/api\/v1\/affiliates status=500/)
    expect(lines.join('\n')).not.toContain('secret')
  })

  it('logs nothing and serves no operator routes by default', async () => {
    const program = await createAffiliateProgram({ storage: memoryStorage() })
    cleanups.push(() => program.close())
    const handler = createHandler(program)
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await handler(new Request(`http://test.local${path}`))).status).toBe(404)
  })
})

describe('createLogger and the server logger', () => {
  it('drops records below the level, quotes text values that need it, and leaves undefined fields out', () => {
    const lines: string[] = []
    const logger = createLogger({ level: 'warn', write: (line) => lines.push(line) })
    logger.debug('hidden')
    logger.info('hidden too')
    logger.warn('shown', { plain: 'a/b:c', spaced: 'two words', quoted: 'say "x"', none: null, gone: undefined })
    logger.error('also shown')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/ WARN  shown plain=a\/b:c spaced="two words" quoted="say \\"x\\"" none=null$/)
    expect(lines[1]).toMatch(/ ERROR also shown$/)
  })

  it('writes a few lines to stdout at once and gathers a burst into one write, losing and reordering nothing', async () => {
    const writes: string[] = []
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (writes.push(String(chunk)), true))
    try {
      const logger = createLogger({ format: 'json' })
      await new Promise((resolve) => setTimeout(resolve, 25)) // a quiet spell before
      for (let n = 0; n < 3; n += 1) logger.info(`start ${n}`)
      // A start's lines are out before anything else runs.
      expect(writes).toHaveLength(3)
      for (let n = 0; n < 200; n += 1) logger.info(`burst ${n}`)
      expect(writes.length).toBeLessThan(10)
      await new Promise((resolve) => setTimeout(resolve, 40))
      const messages = writes.join('').trimEnd().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg)
      expect(messages).toEqual([...[0, 1, 2].map((n) => `start ${n}`), ...Array.from({ length: 200 }, (_, n) => `burst ${n}`)])
      expect(writes.length).toBeLessThan(12)
    } finally {
      spy.mockRestore()
    }
  })

  it('takes the flag first, then LOG_LEVEL / LOG_FORMAT, then the config file', () => {
    const lines: string[] = []
    const write = (line: string) => lines.push(line)
    serverLogger({ config: { logFormat: 'json', logLevel: 'warn' }, env: {} }, write).warn('from config')
    serverLogger({ config: { logFormat: 'json' }, env: { LOG_FORMAT: 'text', LOG_LEVEL: 'error' } }, write).warn('dropped by LOG_LEVEL')
    serverLogger({ format: 'json', config: { logFormat: 'text' }, env: { LOG_FORMAT: 'text' } }, write).info('from the flag')
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: 'from config' })
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'info', msg: 'from the flag' })
  })
})

describe('failed webhook deliveries are logged', () => {
  it('logs each failed attempt against a receiver answering 500 with endpoint, delivery, attempt, status and next attempt', async () => {
    const hook = await receiver(500)
    const s = await served({ settings: { webhookRetryDelaysSeconds: [60] } })
    const endpoint = await s.program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    const affiliate = await s.program.affiliates.create({ email: 'aff@example.com' })
    await s.program.referrals.create({ email: 'bob@example.com', affiliateId: affiliate.id })
    expect(await s.dispatcher.dispatch()).toBe(1)
    const [delivery] = (await s.program.webhooks.deliveries()).items
    const warned = records(s.lines).filter((record) => record.level === 'warn')
    expect(warned).toEqual([
      expect.objectContaining({
        msg: 'webhook delivery failed; will retry',
        endpoint_id: endpoint.id,
        delivery_id: delivery!.id,
        attempt: 1,
        status_code: 500,
        error: 'HTTP 500',
        next_attempt_at: delivery!.nextAttemptAt!.toISOString(),
      }),
    ])
    s.program.clock.now = () => new Date(delivery!.nextAttemptAt!.getTime() + 1)
    expect(await s.dispatcher.dispatch()).toBe(1)
    expect(records(s.lines).filter((record) => record.level === 'error')).toEqual([
      expect.objectContaining({ msg: 'webhook delivery failed; no attempt left', delivery_id: delivery!.id, attempt: 2, status_code: 500, next_attempt_at: null }),
    ])
    expect(hook.requests).toHaveLength(2)
  })
})

describe('/healthz and /readyz', () => {
  it('answer 200 without a key; /readyz answers 503 once the PGlite database is closed, /healthz stays 200', async () => {
    const { storage, cleanup } = migratedPgliteStorage()
    onTestFinished(cleanup)
    const s = await served({ storage })
    const health = await s.call('GET', 'http://test.local/healthz', undefined, { key: null })
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } })
    expect(health.headers.get('cache-control')).toBe('no-store')
    expect(await s.call('GET', 'http://test.local/readyz', undefined, { key: null })).toMatchObject({ status: 200, body: { status: 'ready' } })
    await storage.close()
    expect(await s.call('GET', 'http://test.local/readyz', undefined, { key: null })).toMatchObject({ status: 503, body: { status: 'unavailable' } })
    expect((await s.call('GET', 'http://test.local/healthz', undefined, { key: null })).status).toBe(200)
    expect(records(s.lines).find((record) => record.msg === 'not ready: the database cannot be reached')).toMatchObject({ level: 'warn' })
    cleanups.pop() // the program's storage is closed already
  })

  it.skipIf(!DATABASE_URL)(`/readyz follows a PostgreSQL server that becomes unreachable and comes back${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, async () => {
    const target = new URL(DATABASE_URL!)
    const proxy = await tcpProxy(target.hostname, Number(target.port || 5432))
    cleanups.push(() => proxy.close())
    const viaProxy = new URL(DATABASE_URL!)
    viaProxy.hostname = '127.0.0.1'
    viaProxy.port = String(proxy.port)
    const schema = freshSchemaName()
    cleanups.push(() => dropSchema(schema))
    const s = await served({ storage: postgresStorage({ connectionString: viaProxy.href, schema }) })
    const ready = () => s.call('GET', 'http://test.local/readyz', undefined, { key: null })
    expect((await ready()).status).toBe(200)
    await proxy.close()
    expect(await ready()).toMatchObject({ status: 503, body: { status: 'unavailable', error: 'the database cannot be reached' } })
    await proxy.open()
    expect((await ready()).status).toBe(200)
  })
})

describe('/metrics', () => {
  it('exposes requests by route and status, latency, delivery attempts by outcome and the outbox backlog, in valid Prometheus text', async () => {
    const ok = await receiver(200)
    const failing = await receiver(500)
    const s = await served({ handler: {} })
    await s.program.webhooks.create({ url: ok.url, events: ['referral_signed_up'] })
    await s.program.webhooks.create({ url: failing.url, events: ['referral_signed_up'] })
    const affiliate = (await s.call('POST', '/affiliates', { email: 'ann@example.com' })).body.data
    await s.call('GET', '/affiliates/ann%40example.com')
    await s.call('GET', '/affiliates/bob%40example.com')
    await s.call('POST', '/referrals', { email: 'bob@example.com', affiliate_id: affiliate.id })
    await s.call('POST', '/referrals', { email: 'carol@example.com', affiliate_id: affiliate.id })
    expect(await s.dispatcher.dispatch()).toBe(4)

    const response = await s.handler(new Request('http://test.local/metrics'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const samples = parsePrometheus(await response.text())
    const requests = (route: string, status: string) => sampleValue(samples, 'affiliate_kit_http_requests_total', { method: route.startsWith('POST ') ? 'POST' : 'GET', route: route.replace(/^\w+ /, ''), status })
    expect(requests('GET /api/v1/affiliates/:email', '200')).toBe(1)
    expect(requests('GET /api/v1/affiliates/:email', '404')).toBe(1)
    expect(requests('POST /api/v1/affiliates', '201')).toBe(1)
    expect(requests('POST /api/v1/referrals', '201')).toBe(2)
    expect(sampleValue(samples, 'affiliate_kit_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/affiliates/:email' })).toBe(2)
    expect(sampleValue(samples, 'affiliate_kit_http_request_duration_seconds_bucket', { method: 'POST', route: '/api/v1/referrals', le: '+Inf' })).toBe(2)
    expect(sampleValue(samples, 'affiliate_kit_webhook_delivery_attempts_total', { outcome: 'succeeded' })).toBe(2)
    expect(sampleValue(samples, 'affiliate_kit_webhook_delivery_attempts_total', { outcome: 'retrying' })).toBe(2)
    expect(sampleValue(samples, 'affiliate_kit_webhook_delivery_attempts_total', { outcome: 'failed' })).toBe(0)
    expect(sampleValue(samples, 'affiliate_kit_webhook_outbox_backlog')).toBe(2)
    expect(JSON.stringify(samples)).not.toContain('example.com')
  })

  it('adds the process metrics (CPU, memory, event-loop lag, GC pauses) with `process: true`, and leaves them out by default', async () => {
    const program = await createAffiliateProgram({ storage: memoryStorage() })
    cleanups.push(() => program.close())
    const scrape = async (metrics: ReturnType<typeof createMetrics>) => (await createHandler(program, { metrics })(new Request('http://test.local/metrics'))).text()
    const withProcess = createMetrics({ process: true })
    withProcess.observeRequest('POST', '/api/v1/providers/stripe/events', 400, 0.002, 'provider')
    const text = await scrape(withProcess)
    const samples = parsePrometheus(text)
    expect(sampleValue(samples, 'affiliate_kit_http_requests_total', { surface: 'provider', status: '400' })).toBe(1)
    expect(sampleValue(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0)
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(sampleValue(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0)
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram') // samples by kind once a collection ran
    expect(parsePrometheus(await scrape(createMetrics())).some((sample) => sample.name.startsWith('process_'))).toBe(false)
  })

  it('is served only when enabled, and `metrics: true` makes a registry of its own', async () => {
    const program = await createAffiliateProgram({ storage: memoryStorage() })
    cleanups.push(() => program.close())
    const handler = createHandler(program, { metrics: true })
    await handler(new Request('http://test.local/api/v1/affiliates'))
    const samples = parsePrometheus(await (await handler(new Request('http://test.local/metrics'))).text())
    expect(sampleValue(samples, 'affiliate_kit_http_requests_total', { route: 'unmatched', status: '401' })).toBe(1)
    expect(sampleValue(samples, 'affiliate_kit_webhook_outbox_backlog')).toBe(0)
    expect((await handler(new Request('http://test.local/healthz'))).status).toBe(404)
  })
})
