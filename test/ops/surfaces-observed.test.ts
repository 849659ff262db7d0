// The five surfaces embedded in a host's app, each given the host's logger and metrics: one request
// to each is one log line with the same fields (its own request id, a proxy's X-Request-Id kept)
// and the same request series in the metrics, because each assembles the same pipeline step
// (src/server/observe.ts). The standalone server's side is in cli-operations.test.ts.
import { afterAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAdminConsole } from '../../src/admin/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, createLogger, createMetrics, type AffiliateProgram } from '../../src/index.js'
import { createPortal } from '../../src/portal/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { createTrackingHandler } from '../../src/tracking/index.js'
import { parsePrometheus, REQUEST_SERIES, surfaceSeries } from '../support/ops/prometheus.js'

const SURFACES = ['api', 'provider', 'tracking', 'portal', 'console']
const programs: AffiliateProgram[] = []
afterAll(async () => {
  for (const program of programs) await program.close()
})

describe('every surface through one pipeline', () => {
  it('logs and counts one request to each of the five surfaces with the same fields', async () => {
    const storage = memoryStorage()
    const program = await createAffiliateProgram({ storage })
    programs.push(program)
    const { key } = await program.keys.create()
    const lines: string[] = []
    const logger = createLogger({ format: 'json', write: (line) => lines.push(line) })
    const metrics = createMetrics()
    const observer = { logger, metrics }
    const api = createHandler(program, observer)
    const stripe = stripeHandler({ program, webhookSecret: 'whsec_observedSurfaces', ...observer })
    const tracking = createTrackingHandler(program, { landingUrl: 'https://shop.example/', ...observer })
    const portal = createPortal(program, { sessions: storage, ...observer })
    const admin = createAdminConsole(program, { sessions: storage, ...observer })

    const site = 'http://app.example'
    expect((await api(new Request(`${site}/api/v1/affiliates`, { headers: { authorization: `Bearer ${key}` } }))).status).toBe(200)
    const event = { method: 'POST', headers: { 'stripe-signature': 't=1,v1=forged', 'x-request-id': 'edge-proxy-0001' }, body: '{"id":"evt_1"}' }
    expect((await stripe(new Request(`${site}/providers/stripe/events`, event))).status).toBe(400)
    expect((await tracking(new Request(`${site}/r/SOMECODE`, { headers: { 'user-agent': 'Mozilla/5.0' } }))).status).toBe(302)
    expect((await portal(new Request(`${site}/portal/sign-in`))).status).toBe(200)
    expect((await admin(new Request(`${site}/admin/affiliates/12345`))).status).toBe(303)

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record.msg === 'request')
    expect(records.map(({ surface, method, route, status }) => `${surface} ${method} ${route} ${status}`)).toEqual([
      'api GET /api/v1/affiliates 200',
      'provider POST /providers/stripe/events 400',
      'tracking GET /r/:code 302',
      'portal GET /portal/sign-in 200',
      'console GET /admin/affiliates/:id 303',
    ])
    for (const record of records) {
      expect(Object.keys(record).sort()).toEqual(['duration_ms', 'level', 'method', 'msg', 'request_id', 'route', 'status', 'surface', 'time'])
      expect(record.duration_ms).toBeGreaterThanOrEqual(0)
    }
    const ids = records.map((record) => record.request_id)
    expect(ids[1]).toBe('edge-proxy-0001')
    expect(ids.filter((_, index) => index !== 1).every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(String(id)))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    // Never the code or the id the path held.
    expect(lines.join('\n')).not.toMatch(/SOMECODE|12345/)

    const samples = parsePrometheus(await metrics.render({ backlog: null }))
    for (const surface of SURFACES) {
      expect(surfaceSeries(samples, surface)).toEqual([surface, ...REQUEST_SERIES])
    }
  })

  it('records an error no step answered as the 500 it becomes, at error level', async () => {
    const program = await createAffiliateProgram({ storage: memoryStorage() })
    programs.push(program)
    const lines: string[] = []
    const logger = createLogger({ format: 'json', write: (line) => lines.push(line) })
    const failing = { ...program, tracking: { ...program.tracking, resolve: () => Promise.reject(new Error('disk on fire')) } } as AffiliateProgram
    const tracking = createTrackingHandler(failing, { landingUrl: 'https://shop.example/', logger })
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
    await expect(tracking(new Request('http://app.example/r/SOMECODE', { headers: { 'user-agent': browser } }))).rejects.toThrow('disk on fire')
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ level: 'error', msg: 'request', surface: 'tracking', route: '/r/:code', status: 500 })
  })
})
