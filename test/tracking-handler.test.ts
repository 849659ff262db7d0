// The tracking handler over fetch and node:http: referral links (redirect, counting, cookie,
// allow-list), publishable keys (browser reports only, CORS for allowed origins, per-visitor rate
// limit), the served snippet, and the stats routes in both shapes.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../src/adapters/memory/index.js'
import { testClock, type TestClock } from '../src/core/clock.js'
import type { ProjectSettingsInput } from '../src/core/schemas.js'
import { createHandler } from '../src/http/index.js'
import { createAffiliateProgram, type AffiliateProgram } from '../src/index.js'
import { createTrackingHandler, type TrackingHandler, type TrackingOptions } from '../src/tracking/index.js'
import { primaryRoutes } from '../src/http/primary/index.js'
import { alternativeRoutes } from '../src/http/alternative/index.js'

const LANDING = 'https://shop.example/welcome'
const TRACKING: TrackingOptions = { landingUrl: LANDING, allowedOrigins: ['https://blog.example', 'http://localhost:3000'] }

interface Setup {
  program: AffiliateProgram
  clock: TestClock
  tracking: TrackingHandler
  visit(path: string, init?: { headers?: Record<string, string>; address?: string }): Promise<Response>
}

async function setup(settings: ProjectSettingsInput = {}, options: Partial<TrackingOptions> = {}): Promise<Setup> {
  const clock = testClock('2026-03-10T10:00:00Z')
  const program = await createAffiliateProgram({ storage: memoryStorage(), clock, settings })
  await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  const tracking = createTrackingHandler(program, { ...TRACKING, ...options })
  return {
    program,
    clock,
    tracking,
    visit: (path, init = {}) =>
      tracking(new Request(`https://links.example${path}`, { headers: { 'user-agent': 'test-agent', ...init.headers } }), { clientAddress: init.address ?? '203.0.113.7' }),
  }
}

describe('referral links', () => {
  it('counts a visitor once per day, sets the referral cookie and redirects to the landing URL', async () => {
    const { program, clock, visit } = await setup()
    const first = await visit('/r/ANN')
    expect(first.status).toBe(302)
    expect(first.headers.get('location')).toBe(LANDING)
    const cookie = first.headers.get('set-cookie')!
    const expires = Math.floor(clock.now().getTime() / 1000) + 60 * 86_400
    expect(cookie).toBe(`ak_ref=ANN.${expires}; Max-Age=${60 * 86_400}; Path=/; SameSite=Lax; Secure`)
    expect(cookie).not.toMatch(/HttpOnly/i)
    await visit('/r/ANN')
    await visit('/r/ann', { address: '198.51.100.1' })
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(2)
    clock.advance({ days: 1 })
    await visit('/r/ANN')
    const stats = await program.stats.affiliate('ann@example.com', { from: '2026-03-10', to: '2026-03-12' })
    expect(stats.buckets.map((bucket) => [bucket.clicks, bucket.visitors])).toEqual([
      [2, 2],
      [1, 1],
    ])
  })

  it('stores no client address anywhere', async () => {
    const storage = memoryStorage()
    const program = await createAffiliateProgram({ storage, clock: testClock() })
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const tracking = createTrackingHandler(program, TRACKING)
    await tracking(new Request('https://links.example/r/ANN', { headers: { 'user-agent': 'agent-x' } }), { clientAddress: '203.0.113.99' })
    const dump = JSON.stringify(storage, (_key, value: unknown) =>
      value instanceof Map ? [...value.entries()] : value instanceof Set ? [...value] : typeof value === 'bigint' ? String(value) : value,
    )
    expect(dump).not.toContain('203.0.113.99')
    expect(dump).not.toContain('agent-x')
  })

  it('keeps an existing referral cookie under first click and replaces it under last click', async () => {
    const first = await setup()
    await first.program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
    const carried = { cookie: `ak_ref=ANN.${Math.floor(first.clock.now().getTime() / 1000) + 1000}` }
    const kept = await first.visit('/r/BOB', { headers: carried })
    expect(kept.headers.get('set-cookie')).toBeNull()
    expect((await first.program.affiliates.get('bob@example.com')).clicks).toBe(1)

    const last = await setup({ attribution: { model: 'last_click' } })
    await last.program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
    const replaced = await last.visit('/r/BOB', { headers: carried })
    expect(replaced.headers.get('set-cookie')).toMatch(/^ak_ref=BOB\./)
    // An expired cookie is no referral: a new one is set under first click too.
    const expired = await first.visit('/r/BOB', { headers: { cookie: 'ak_ref=ANN.1000' }, address: '198.51.100.2' })
    expect(expired.headers.get('set-cookie')).toMatch(/^ak_ref=BOB\./)
  })

  it('sends unknown, inactive and malformed codes to the landing page, counting nothing and setting no cookie', async () => {
    const { program, visit } = await setup({ subPrograms: { shop: { commission: { purchase: { type: 'percentage', rate: 20 } } } } })
    await program.affiliates.create({ email: 'off@example.com', referralCode: 'OFF' })
    await program.affiliates.update('off@example.com', { status: 'inactive' })
    await program.affiliates.create({ email: 'sub@example.com', referralCode: 'SUB', partnerSlug: 'shop' })
    for (const path of ['/r/NOPE', '/r/OFF', '/r/a', '/r/%E0%A4%A', '/r/', '/r', '/r/x/y/z', '/r/other/SUB', '/r/ANN%00']) {
      const response = await visit(path)
      expect(response.status, path).toBe(302)
      expect(response.headers.get('location'), path).toBe(LANDING)
      expect(response.headers.get('set-cookie'), path).toBeNull()
    }
    const sub = await visit('/r/shop/SUB')
    expect(sub.headers.get('set-cookie')).toMatch(/^ak_ref=SUB\./)
    const totals = await program.stats.program({ from: '2026-03-10', to: '2026-03-11' })
    expect(totals.totals.clicks).toBe(1)
    expect((await program.affiliates.get('off@example.com')).clicks).toBe(0)
  })

  it('follows ?to= only to allowed origins and the landing origin', async () => {
    const { visit } = await setup()
    const allowed: Array<[string, string]> = [
      ['https://blog.example/post?x=1', 'https://blog.example/post?x=1'],
      ['https://BLOG.example:443/a', 'https://blog.example/a'],
      ['http://localhost:3000/pricing', 'http://localhost:3000/pricing'],
      ['https://shop.example/cart', 'https://shop.example/cart'],
      ['/pricing', 'https://shop.example/pricing'],
    ]
    for (const [to, location] of allowed) {
      expect((await visit(`/r/ANN?to=${encodeURIComponent(to)}`)).headers.get('location'), to).toBe(location)
    }
  })

  it('refuses 20 open-redirect forms and sends them to the landing page', async () => {
    const { visit } = await setup()
    const attacks = [
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https:evil.example',
      'https:/evil.example',
      'https://evil.example',
      'http://evil.example/https://blog.example',
      'https://blog.example@evil.example',
      'https://blog.example.evil.example',
      'https://evil.example#https://blog.example',
      'https://evil.example\\@blog.example',
      'https://evil.example%2F@blog.example',
      '%2F%2Fevil.example',
      '/\t/evil.example',
      ' https://evil.example',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example/%2e%2e',
      'https://blog.example:8443/',
      'ftp://blog.example/',
    ]
    expect(attacks).toHaveLength(20)
    for (const to of attacks) {
      const response = await visit(`/r/ANN?to=${encodeURIComponent(to)}`)
      expect(response.headers.get('location'), to).toBe(LANDING)
    }
    // An encoded path stays a path on the landing origin: no browser reads it as another host.
    expect((await visit(`/r/ANN?to=${encodeURIComponent('/%2F%2Fevil.example')}`)).headers.get('location')).toBe('https://shop.example/%2F%2Fevil.example')
    // Raw (not encoded) forms in the link itself, and a double-encoded one.
    for (const raw of ['//evil.example', '/%5Cevil.example', '%252F%252Fevil.example', 'https:%2F%2Fevil.example']) {
      expect((await visit(`/r/ANN?to=${raw}`)).headers.get('location'), raw).toBe(LANDING)
    }
  })

  it('serves the same links from node:http, hashing the connected address', async () => {
    const { program, tracking } = await setup()
    const server = createServer(tracking.node)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const response = await fetch(`http://127.0.0.1:${port}/r/ANN?to=%2Fpricing`, { redirect: 'manual' })
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe('https://shop.example/pricing')
      expect(response.headers.get('set-cookie')).toMatch(/^ak_ref=ANN\.\d+; Max-Age=5184000; Path=\/; SameSite=Lax$/)
      await fetch(`http://127.0.0.1:${port}/r/ANN`, { redirect: 'manual' })
      expect((await program.affiliates.get('ann@example.com')).clicks).toBe(1)
      expect((await fetch(`http://127.0.0.1:${port}/r/ANN`, { method: 'POST' })).status).toBe(405)
    } finally {
      server.close()
    }
  })
})

describe('publishable keys', () => {
  let context: Setup
  let key: string
  beforeEach(async () => {
    context = await setup({ attribution: { model: 'first_click', windowDays: 30 } }, { rateLimit: { limit: 5, windowSeconds: 60 } })
    key = (await context.program.keys.createPublishable({ name: 'site' })).key
  })
  const report = (path: string, body: unknown, headers: Record<string, string> = {}, address = '203.0.113.7') =>
    context.tracking(
      new Request(`https://links.example/r/-/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: 'https://blog.example', ...headers },
        body: JSON.stringify(body),
      }),
      { clientAddress: address },
    )

  it('look like rgp_ and are answered 403 on every API route', async () => {
    expect(key).toMatch(/^rgp_[0-9A-Za-z]{20,64}$/)
    const api = createHandler(context.program)
    for (const route of primaryRoutes) {
      const path = `/api/v1${route.path.replace(/:[a-zA-Z]+/g, 'x')}`
      const response = await api(new Request(`http://api.example${path}`, { method: route.method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: route.body ? '{}' : null }))
      expect(response.status, `${route.method} ${route.path}`).toBe(403)
      expect(((await response.json()) as { error: string }).error).toMatch(/publishable keys/)
    }
    const alternative = createHandler(context.program, { shape: 'alternative' })
    for (const route of alternativeRoutes) {
      const path = `/api/v1${route.path.replace(/:[a-zA-Z]+/g, 'x')}`
      const response = await alternative(new Request(`http://api.example${path}`, { method: route.method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: route.body ? '{}' : null }))
      expect(response.status, `${route.method} ${route.path}`).toBe(403)
    }
    const webhookTest = await api(new Request(`http://api.example/api/project/${context.program.projectId}/webhooks/1/test`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"eventType":"payout.created"}' }))
    expect(webhookTest.status).toBe(403)
  })

  it('record clicks and signups from allowed origins, with CORS for those origins only', async () => {
    const click = await report('clicks', { referral_code: 'ANN' })
    expect(click.status).toBe(201)
    expect(click.headers.get('access-control-allow-origin')).toBe('https://blog.example')
    expect((await report('clicks', { referral_code: 'ANN' })).status).toBe(200)
    expect((await context.program.affiliates.get('ann@example.com')).clicks).toBe(1)

    const signup = await report('signups', { email: 'cus@example.com', referral_code: 'ANN' })
    expect(signup.status).toBe(201)
    expect(await signup.json()).toEqual({ outcome: 'created' })
    expect((await context.program.referrals.get('cus@example.com')).affiliateId).not.toBeNull()

    const preflight = await context.tracking(new Request('https://links.example/r/-/clicks', { method: 'OPTIONS', headers: { origin: 'https://blog.example', 'access-control-request-method': 'POST' } }))
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type')
    const foreign = await context.tracking(new Request('https://links.example/r/-/clicks', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } }))
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    const foreignPost = await report('signups', { email: 'x@example.com', referral_code: 'ANN' }, { origin: 'https://evil.example' })
    expect(foreignPost.status).toBe(403)
    expect(foreignPost.headers.get('access-control-allow-origin')).toBeNull()
    await expect(context.program.referrals.get('x@example.com')).rejects.toMatchObject({ code: 'not_found' })
  })

  it('refuses secret keys, revoked keys, bad bodies and unknown codes with 4xx, changing nothing', async () => {
    const secret = (await context.program.keys.create()).key
    expect((await report('clicks', { referral_code: 'ANN' }, { authorization: `Bearer ${secret}` })).status).toBe(401)
    expect((await report('clicks', { referral_code: 'ANN' }, { authorization: '' })).status).toBe(401)
    expect((await report('clicks', { referral_code: 'NOPE' })).status).toBe(404)
    expect((await report('clicks', { referral_code: 'ANN', extra: 1 })).status).toBe(400)
    expect((await report('clicks', [1])).status).toBe(400)
    expect((await report('signups', { email: 'bad', referral_code: 'ANN' })).status).toBe(400)
    expect((await report('signups', { email: 'a@example.com', referral_code: 'ANN', admin: true })).status).toBe(400)
    const raw = await context.tracking(new Request('https://links.example/r/-/signups', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{' }))
    expect(raw.status).toBe(400)
    const text = await context.tracking(new Request('https://links.example/r/-/signups', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' }, body: '{}' }))
    expect(text.status).toBe(415)
    expect((await context.program.affiliates.get('ann@example.com')).clicks).toBe(0)
    const [record] = (await context.program.keys.list()).filter((item) => item.prefix.startsWith('rgp_'))
    await context.program.keys.revoke(record!.id)
    expect((await report('clicks', { referral_code: 'ANN' })).status).toBe(401)
  })

  it('are rate limited per visitor', async () => {
    for (let index = 0; index < 5; index += 1) expect((await report('clicks', { referral_code: 'ANN' })).status).toBeLessThan(300)
    const limited = await report('clicks', { referral_code: 'ANN' })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).not.toBeNull()
    expect((await report('clicks', { referral_code: 'ANN' }, {}, '198.51.100.8')).status).toBe(201)
  })
})

describe('browser snippet', () => {
  it('is served as a plain script naming the endpoint and the configured parameters', async () => {
    const { tracking } = await setup({}, { queryParams: ['via'], cookieDays: 30 })
    const response = await tracking(new Request('https://links.example/r/-/affiliate-kit.js'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/)
    const script = await response.text()
    expect(script).toContain('"params":["via"]')
    expect(script).toContain('"cookieDays":30')
    expect(() => new Function(script)).not.toThrow()
  })

  it('fits its 2 KB budget minified and gzipped (the build prints the figure)', () => {
    const code = readFileSync(new URL('../dist/browser/index.js', import.meta.url))
    const gzipped = gzipSync(code, { level: 9 }).byteLength
    expect(gzipped).toBeGreaterThan(200)
    expect(gzipped).toBeLessThanOrEqual(2048)
    expect(code.toString()).not.toMatch(/\bimport\b/)
  })
})

describe('stats routes', () => {
  let servers: Server[] = []
  afterAll(() => servers.forEach((server) => server.close()))

  it('answer per bucket in both shapes, and 400 / 404 for bad input', async () => {
    const { program, clock, visit } = await setup({ timeZone: 'Europe/Paris' })
    await visit('/r/ANN')
    await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'c@example.com', baseValue: '20.00', reference: 'p1' })
    clock.advance({ days: 8 })
    const { key } = await program.keys.create()
    const headers = { authorization: `Bearer ${key}` }
    const api = createHandler(program)
    const week = await api(new Request('http://api.example/api/v1/affiliates/ann%40example.com/stats?from=2026-03-09&to=2026-03-23&interval=week', { headers }))
    expect(week.status).toBe(200)
    expect(await week.json()).toEqual({
      data: {
        interval: 'week',
        time_zone: 'Europe/Paris',
        currency: 'USD',
        from: '2026-03-09',
        to: '2026-03-23',
        buckets: [
          { start: '2026-03-09', clicks: 1, unique_visitors: 1, signups: 1, purchases: 1, revenue: '20.00', commission: '6.00' },
          { start: '2026-03-16', clicks: 0, unique_visitors: 0, signups: 0, purchases: 0, revenue: '0.00', commission: '0.00' },
        ],
        totals: { clicks: 1, unique_visitors: 1, signups: 1, purchases: 1, revenue: '20.00', commission: '6.00' },
      },
    })
    const program30 = await api(new Request('http://api.example/api/v1/stats', { headers }))
    expect(((await program30.json()) as { data: { buckets: unknown[]; to: string } }).data).toMatchObject({ to: '2026-03-19' })
    const alternative = createHandler(program, { shape: 'alternative' })
    const month = await alternative(new Request('http://api.example/api/v1/stats?from=2026-03-01&to=2026-04-01&interval=month', { headers }))
    expect(((await month.json()) as { data: { totals: unknown } }).data.totals).toEqual({ clicks: 1, uniqueVisitors: 1, signups: 1, purchases: 1, revenue: '20.00', commission: '6.00' })
    for (const query of ['interval=year', 'from=2026-13-01', 'from=2026-03-10&to=2026-03-01', 'from=1990-01-01&to=2026-01-01', 'extra=1', 'from=2026-03-01&from=2026-03-02']) {
      const response = await api(new Request(`http://api.example/api/v1/stats?${query}`, { headers }))
      expect(response.status, query).toBe(400)
    }
    expect((await api(new Request('http://api.example/api/v1/affiliates/nobody%40example.com/stats', { headers }))).status).toBe(404)
  })
})
