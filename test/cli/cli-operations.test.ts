// Operating the standalone server, as processes: JSON logs (startup with each migration as it runs and those applied,
// one line per request, failed deliveries against a real receiver answering 500), /healthz,
// /readyz and /metrics, then `webhooks deliveries` and `webhooks retry` on the stopped server's
// data, and the retried delivery sent by the next start. The other surfaces (provider events,
// referral links, the portal, the console) logged and counted like the API, with process metrics.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../src/adapters/sql/migrations.js'
import { api, run } from '../support/cli/process.js'
import { parsePrometheus, REQUEST_SERIES, sampleValue, surfaceSeries } from '../support/ops/prometheus.js'
import { answer, startReceiver } from '../support/webhooks-helpers.js'

const KEY = `rgk_${'Ops0Test1Key2'.repeat(3)}xyz`
const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-ops-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const jsonLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('operating affiliate-kit serve', () => {
  it('logs as JSON, serves health and metrics, and lists and retries a failed delivery from the CLI', async () => {
    const hook = await startReceiver(answer(500, 'down'))
    const database = `pglite:${join(dir, 'data')}`
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ allowPrivateNetworks: true, webhookRetryDelaysSeconds: [], webhooks: [{ url: hook.url, events: ['referral_converted'] }], metrics: true }),
    )
    try {
      const first = run(['serve', '--port', '0', '--database', database, '--config', 'config.json', '--log-format', 'json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
      const [, url] = await first.waitFor(/"msg":"listening on (http:\/\/[^"]+)"/)
      const root = url!.replace(/\/api\/v1$/, '')
      expect((await fetch(`${root}/healthz`)).status).toBe(200)
      expect(await (await fetch(`${root}/readyz`)).json()).toEqual({ status: 'ready' })
      expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
      expect((await api(url!, KEY, 'POST', '/conversions', { type: 'purchase', referral_code: 'ANN', email: 'bob@example.com', base_value: 10 })).status).toBe(201)
      await first.waitFor(/webhook delivery failed; no attempt left/, 30_000)
      const metrics = parsePrometheus(await (await fetch(`${root}/metrics`)).text())
      expect(sampleValue(metrics, 'affiliate_kit_http_requests_total', { method: 'POST', route: '/api/v1/conversions', status: '201' })).toBe(1)
      expect(sampleValue(metrics, 'affiliate_kit_webhook_delivery_attempts_total', { outcome: 'failed' })).toBe(1)
      expect(sampleValue(metrics, 'affiliate_kit_webhook_outbox_backlog')).toBe(0)
      expect(await first.stop()).toBe(0)

      // Every stdout line is JSON; the created-key line is absent because the key came from the environment.
      const [stdout, shutdown] = [first.output().split('shutting down')[0]!, first.output().split('shutting down')[1]]
      expect(shutdown).toBeDefined()
      const records = jsonLines(stdout)
      const names = MIGRATIONS.map((migration) => `${migration.version} ${migration.name}`).join(', ')
      expect(records.map((record) => record.msg)).toEqual(expect.arrayContaining([`migrations applied: ${names}`, expect.stringMatching(/^storage: embedded PGlite in /)]))
      // Each migration is logged as it runs, before the summary that follows their commit.
      const ran = records.flatMap((record, index) => (/^migration \d+ .+: ran in \d+ ms$/.test(String(record.msg)) ? [{ record, index }] : []))
      // (In the order they ran: the batched ones, such as a backfill, after the others' transaction.)
      const byVersion = (line: string) => Number(/^migration (\d+)/.exec(line)![1])
      const lines = ran.map(({ record }) => String(record.msg).replace(/: ran in \d+ ms$/, '')).sort((a, b) => byVersion(a) - byVersion(b))
      expect(lines).toEqual(MIGRATIONS.map((migration) => `migration ${migration.version} ${migration.name}`))
      expect(ran.every(({ record }) => record.level === 'info' && typeof record.ms === 'number')).toBe(true)
      expect(ran.at(-1)!.index).toBeLessThan(records.findIndex((record) => record.msg === `migrations applied: ${names}`))
      const requests = records.filter((record) => record.msg === 'request' && record.level === 'info')
      expect(requests.map(({ method, route, status }) => `${method} ${route} ${status}`)).toEqual(['POST /api/v1/affiliates 201', 'POST /api/v1/conversions 201'])
      expect(requests.every((record) => typeof record.duration_ms === 'number')).toBe(true)
      const failure = records.find((record) => record.msg === 'webhook delivery failed; no attempt left')!
      expect(failure).toMatchObject({ level: 'error', attempt: 1, status_code: 500, error: 'HTTP 500', next_attempt_at: null })
      expect(first.output()).not.toContain('example.com')
      expect(first.output()).not.toContain(KEY)

      const listed = run(['webhooks', 'deliveries', String(failure.endpoint_id), '--status', 'failed', '--database', database], { cwd: dir })
      expect(await listed.exited).toBe(0)
      expect(listed.output()).toMatch(new RegExp(`^${failure.delivery_id}\\treferral_converted\\tfailed\\t1\\t500\\t\\t\\S+\\tHTTP 500$`, 'm'))
      const retried = run(['webhooks', 'retry', String(failure.delivery_id), '--database', database], { cwd: dir })
      expect(await retried.exited).toBe(0)
      expect(retried.output()).toContain(`delivery ${failure.delivery_id} is due now`)

      hook.reply(answer(200, 'ok'))
      const second = run(['serve', '--port', '0', '--database', database, '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
      await second.waitFor(/listening on http/)
      expect(second.output()).toMatch(/^\S+Z INFO {2}migrations: none applied, the schema is up to date$/m)
      for (let waited = 0; hook.requests.length < 2 && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
      expect(hook.requests).toHaveLength(2)
      expect(await second.stop()).toBe(0)

      const after = run(['webhooks', 'deliveries', String(failure.endpoint_id), '--database', database], { cwd: dir })
      expect(await after.exited).toBe(0)
      expect(after.output()).toMatch(new RegExp(`^${failure.delivery_id}\\treferral_converted\\tsucceeded\\t2\\t200\\t`, 'm'))

      const unknown = run(['webhooks', 'deliveries', '999', '--database', database], { cwd: dir })
      expect(await unknown.exited).toBe(1)
      expect(unknown.output()).toContain('webhook endpoint not found')
      const bad = run(['webhooks', 'retry', 'abc', '--database', database], { cwd: dir })
      expect(await bad.exited).toBe(1)
      expect(bad.output()).toContain('needs a numeric id')
    } finally {
      await hook.close()
    }
  }, 180_000)

  it('logs and counts provider, tracking, portal and console requests by route pattern, never a code, token or key, and exposes process and GC metrics', async () => {
    const code = 'ZEBRA77CODE'
    const token = `${'t0kEn'.repeat(8)}abc` // shaped like a sign-in token (43 characters)
    writeFileSync(
      join(dir, 'surfaces.json'),
      JSON.stringify({
        metrics: true,
        providers: { stripe: { webhookSecret: 'whsec_surfacesTestSecret' } },
        tracking: { landingUrl: 'http://shop.invalid/' },
        portal: { enabled: true },
        admin: { enabled: true },
      }),
    )
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'surfaces.json', '--log-format', 'json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/"msg":"listening on (http:\/\/[^"]+)"/)
    const root = url!.replace(/\/api\/v1$/, '')
    expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'zed@example.com', referral_code: code })).status).toBe(201)
    const stripe = await fetch(`${url}/providers/stripe/events`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=bad' }, body: '{"id":"evt_1","type":"invoice.paid"}' })
    expect(stripe.status).toBe(400)
    expect((await fetch(`${url}/providers/paddle/events`, { method: 'POST', body: '{}' })).status).toBe(404)
    expect((await fetch(`${root}/r/${code}`, { redirect: 'manual' })).status).toBe(302)
    expect((await fetch(`${root}/r/-/affiliate-kit.js`, { headers: { 'x-request-id': 'edge-proxy-0001' } })).status).toBe(200)
    expect((await fetch(`${root}/portal/sign-in?token=${token}`)).status).toBe(200)
    expect((await fetch(`${root}/portal/conversions/12345`, { redirect: 'manual' })).status).toBe(303)
    expect((await fetch(`${root}/portal/no-such-page-${code}`)).status).toBe(404)
    expect((await fetch(`${root}/admin/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `key=${KEY}` })).status).toBe(403)
    const exposition = await (await fetch(`${root}/metrics`)).text()
    expect(await server.stop()).toBe(0)

    const requests = jsonLines(server.output().split('shutting down')[0]!).filter((record) => record.msg === 'request')
    expect(requests.map(({ surface, method, route, status }) => `${surface} ${method} ${route} ${status}`)).toEqual([
      'api POST /api/v1/affiliates 201',
      'provider POST /api/v1/providers/stripe/events 400',
      'provider POST /api/v1/providers/paddle/events 404',
      'tracking GET /r/:code 302',
      'tracking GET /r/-/affiliate-kit.js 200',
      'portal GET /portal/sign-in 200',
      'portal GET /portal/conversions/:id 303',
      'portal GET unmatched 404',
      'console POST /admin/sign-in 403',
    ])
    expect(requests.every((record) => record.level === 'info' && typeof record.duration_ms === 'number')).toBe(true)
    // One pipeline step logs them all: the same fields on every surface, and each request its own id (a proxy's kept).
    for (const record of requests) expect(Object.keys(record).sort()).toEqual(['duration_ms', 'level', 'method', 'msg', 'request_id', 'route', 'status', 'surface', 'time'])
    expect(new Set(requests.map((record) => record.request_id)).size).toBe(requests.length)
    expect(requests.find((record) => record.route === '/r/-/affiliate-kit.js')!.request_id).toBe('edge-proxy-0001')
    for (const secret of [code, token, KEY, 'whsec_surfacesTestSecret', '12345', 'zed@example.com']) {
      expect(server.output()).not.toContain(secret)
      expect(exposition).not.toContain(secret)
    }
    const samples = parsePrometheus(exposition)
    expect(sampleValue(samples, 'affiliate_kit_http_requests_total', { surface: 'provider', method: 'POST', route: '/api/v1/providers/stripe/events', status: '400' })).toBe(1)
    expect(sampleValue(samples, 'affiliate_kit_http_requests_total', { surface: 'tracking', route: '/r/:code', status: '302' })).toBe(1)
    expect(sampleValue(samples, 'affiliate_kit_http_requests_total', { surface: 'console', route: '/admin/sign-in' })).toBe(1)
    expect(sampleValue(samples, 'affiliate_kit_http_request_duration_seconds_count', { surface: 'portal', method: 'GET', route: '/portal/sign-in' })).toBe(1)
    for (const surface of ['api', 'provider', 'tracking', 'portal', 'console']) {
      expect(surfaceSeries(samples, surface)).toEqual([surface, ...REQUEST_SERIES])
    }
    expect(sampleValue(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0)
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(exposition).toContain('# TYPE nodejs_gc_duration_seconds histogram')
  }, 120_000)

  it('exits quietly, without an EPIPE stack trace, when the reader of its output goes away (`| head`)', async () => {
    const server = run(['serve', '--port', '0', '--database', 'memory', '--log-format', 'json'], { env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/"msg":"listening on (http:\/\/[^"]+)"/)
    server.child.stdout!.destroy()
    await fetch(`${url}/affiliates`).catch(() => null) // its request line is written after the reader left
    expect(await server.exited).toBe(0)
    expect(server.output()).not.toContain('EPIPE')
    expect(server.output()).not.toMatch(/^\s+at /m)
  }, 60_000)

  it('refuses a bad --log-level and a bad LOG_FORMAT, naming them', async () => {
    const level = run(['serve', '--port', '0', '--database', 'memory', '--log-level', 'loud'])
    expect(await level.exited).toBe(1)
    expect(level.output()).toContain('--log-level: the log level must be debug, info, warn, error; got "loud"')
    const format = run(['serve', '--port', '0', '--database', 'memory'], { env: { LOG_FORMAT: 'xml' } })
    expect(await format.exited).toBe(1)
    expect(format.output()).toContain('LOG_FORMAT: the log format must be json, text; got "xml"')
  }, 60_000)
})
