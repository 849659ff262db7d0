// The tracking handler over fetch and node:http: referral links (redirect, counting, cookie,
// allow-list), publishable keys (browser reports only, CORS for allowed origins, per-visitor rate
// limit), the served snippet, and the stats routes in both shapes.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { testClock, type TestClock } from '../../src/core/model/clock.js'
import type { ProjectSettingsInput } from '../../src/core/model/schemas.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, type AffiliateProgram } from '../../src/index.js'
import { createTrackingHandler, type TrackingHandler, type TrackingOptions } from '../../src/tracking/index.js'
import { primaryRoutes } from '../../src/http/routes/index.js'
import { alternativeRoutes } from '../../src/http/routes/index.js'

const LANDING = 'https://shop.example/welcome'
/** A browser's user agent: scripts, crawlers and test agents (isbot) count nothing. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const TRACKING: TrackingOptions = { landingUrl: LANDING, allowedOrigins: ['https://blog.example', 'http://localhost:3000'] }

/** The signed referral a link's redirect set in the referral cookie. */
const signedReferral = (response: Response) => /^ak_ref=([^;]+);/.exec(response.headers.get('set-cookie') ?? '')![1]!

/** Where a link sent the visitor, without the referral parameter the redirect adds (checked on its own). */
const target = (response: Response) => response.headers.get('location')!.replace(/[?&]ak_ref=[^&#]*$/, '')

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
      tracking(new Request(`https://links.example${path}`, { headers: { 'user-agent': BROWSER, ...init.headers } }), { clientAddress: init.address ?? '203.0.113.7' }),
  }
}

describe('referral links', () => {
  it('counts a visitor once per day, sets the referral cookie and redirects to the landing URL', async () => {
    const { program, clock, visit } = await setup()
    const first = await visit('/r/ANN')
    expect(first.status).toBe(302)
    const cookie = first.headers.get('set-cookie')!
    const expires = Math.floor(clock.now().getTime() / 1000) + 60 * 86_400
    const [, value] = /^ak_ref=(ANN\.\d+\.[\w-]{16}\.[\w-]{16}\.[\w-]{22}); Max-Age=5184000; Path=\/; SameSite=Lax; Secure$/.exec(cookie)!
    expect(value!.startsWith(`ANN.${expires}.`)).toBe(true)
    expect(cookie).not.toMatch(/HttpOnly/i)
    // The landing page may be on another host: the referral travels in its URL too.
    expect(first.headers.get('location')).toBe(`${LANDING}?ak_ref=${value}`)
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
    // The per-address allowance lives in the storage's keyed state here: it holds no address either.
    const tracking = createTrackingHandler(program, { ...TRACKING, state: storage.keyedState })
    await tracking(new Request('https://links.example/r/ANN', { headers: { 'user-agent': `${BROWSER} visitor-x` } }), { clientAddress: '203.0.113.99' })
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(1)
    const dump = JSON.stringify(storage, (_key, value: unknown) =>
      value instanceof Map ? [...value.entries()] : value instanceof Set ? [...value] : typeof value === 'bigint' ? String(value) : value,
    )
    expect(dump).not.toContain('203.0.113.99')
    expect(dump).not.toContain('visitor-x')
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
      expect(target(await visit(`/r/ANN?to=${encodeURIComponent(to)}`)), to).toBe(location)
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
      expect(target(response), to).toBe(LANDING)
    }
    // An encoded path stays a path on the landing origin: no browser reads it as another host.
    expect(target(await visit(`/r/ANN?to=${encodeURIComponent('/%2F%2Fevil.example')}`))).toBe('https://shop.example/%2F%2Fevil.example')
    // Raw (not encoded) forms in the link itself, and a double-encoded one.
    for (const raw of ['//evil.example', '/%5Cevil.example', '%252F%252Fevil.example', 'https:%2F%2Fevil.example']) {
      expect(target(await visit(`/r/ANN?to=${raw}`)), raw).toBe(LANDING)
    }
  })

  it('serves the same links from node:http, hashing the connected address', async () => {
    const { program, tracking } = await setup()
    const server = createServer(tracking.node)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const headers = { 'user-agent': BROWSER }
      const response = await fetch(`http://127.0.0.1:${port}/r/ANN?to=%2Fpricing`, { redirect: 'manual', headers })
      expect(response.status).toBe(302)
      expect(target(response)).toBe('https://shop.example/pricing')
      expect(response.headers.get('set-cookie')).toMatch(/^ak_ref=ANN\.\d+(\.[\w-]+){3}; Max-Age=5184000; Path=\/; SameSite=Lax$/)
      await fetch(`http://127.0.0.1:${port}/r/ANN`, { redirect: 'manual', headers })
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
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: 'https://blog.example', 'user-agent': BROWSER, ...headers },
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
    // The counted click gives the snippet the signed referral a signup needs.
    const { referral } = (await click.json()) as { referral: string }
    expect(referral).toMatch(/^ANN\.\d+\.[\w-]{16}\.[\w-]{16}\.[\w-]{22}$/)
    expect((await report('clicks', { referral_code: 'ANN' })).status).toBe(200)
    expect((await context.program.affiliates.get('ann@example.com')).clicks).toBe(1)

    const signup = await report('signups', { email: 'cus@example.com', referral })
    expect(signup.status).toBe(201)
    expect(await signup.json()).toEqual({ outcome: 'created' })
    expect((await context.program.referrals.get('cus@example.com')).affiliateId).not.toBeNull()

    const preflight = await context.tracking(new Request('https://links.example/r/-/clicks', { method: 'OPTIONS', headers: { origin: 'https://blog.example', 'access-control-request-method': 'POST' } }))
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type')
    const foreign = await context.tracking(new Request('https://links.example/r/-/clicks', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } }))
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    const foreignPost = await report('signups', { email: 'x@example.com', referral }, { origin: 'https://evil.example' })
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
    const referral = signedReferral(await context.visit('/r/ANN', { address: '198.51.100.3' }))
    expect((await report('signups', { email: 'bad', referral })).status).toBe(400)
    expect((await report('signups', { email: 'a@example.com', referral, admin: true })).status).toBe(400)
    const raw = await context.tracking(new Request('https://links.example/r/-/signups', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{' }))
    expect(raw.status).toBe(400)
    const text = await context.tracking(new Request('https://links.example/r/-/signups', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' }, body: '{}' }))
    expect(text.status).toBe(415)
    // Only the link visit above counted.
    expect((await context.program.affiliates.get('ann@example.com')).clicks).toBe(1)
    await expect(context.program.referrals.get('a@example.com')).rejects.toMatchObject({ code: 'not_found' })
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

describe('forged clicks and signups', () => {
  /** A browser report with a publishable key, from an allowed origin, a browser and `address`. */
  const reporter =
    ({ tracking }: Setup, key: string) =>
    (path: string, body: unknown, address = '203.0.113.7', userAgent = BROWSER) =>
      tracking(
        new Request(`https://links.example/r/-/${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: 'https://blog.example', 'user-agent': userAgent },
          body: JSON.stringify(body),
        }),
        { clientAddress: address },
      )

  it('300 user agents from one address add 20 visitors a day (configurable); an IPv6 /64 is one address; bots and scripts add none', async () => {
    const context = await setup({}, { rateLimit: false })
    const { program, clock, visit } = context
    for (let n = 0; n < 300; n += 1) await visit('/r/ANN', { headers: { 'user-agent': `${BROWSER} n${n}` } })
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(20)
    // The browser snippet's click reports share the allowance.
    const report = reporter(context, (await program.keys.createPublishable({ name: 'site' })).key)
    expect(await (await report('clicks', { referral_code: 'ANN' }, '203.0.113.7', `${BROWSER} late`)).json()).toEqual({ counted: false })
    // Past the bound the visitor still gets the referral, unsigned: it reaches checkout but not a browser signup.
    const over = await visit('/r/ANN', { headers: { 'user-agent': `${BROWSER} over` } })
    expect(over.headers.get('set-cookie')).toMatch(/^ak_ref=ANN\.\d+; /)
    for (let n = 0; n < 300; n += 1) await visit('/r/ANN', { address: `2001:db8:7:7::${n.toString(16)}`, headers: { 'user-agent': `${BROWSER} v6-${n}` } })
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(40)
    expect((await visit('/r/ANN', { address: '198.51.100.1' })).status).toBe(302)
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(41)

    for (const userAgent of ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'curl/8.5.0', 'python-requests/2.31', '']) {
      const bot = await visit('/r/ANN', { address: '192.0.2.50', headers: { 'user-agent': userAgent } })
      expect(bot.headers.get('location'), userAgent).toBe(LANDING)
      expect(bot.headers.get('set-cookie'), userAgent).toBeNull()
    }
    expect(await (await report('clicks', { referral_code: 'ANN' }, '192.0.2.50', 'curl/8.5.0')).json()).toEqual({ counted: false })
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(41)
    const stats = await program.stats.program({ from: '2026-03-10', to: '2026-03-11' })
    expect(stats.totals).toMatchObject({ clicks: 41, visitors: 41 })

    // A day later the address counts again.
    clock.advance({ days: 1 })
    await visit('/r/ANN', { headers: { 'user-agent': `${BROWSER} next-day` } })
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(42)
  })

  it('behind a proxy (trustProxy), counts the address the proxy appended to X-Forwarded-For, never one the client put before it', async () => {
    const context = await setup({}, { trustProxy: true, visitorsPerAddress: 2, rateLimit: { limit: 3, windowSeconds: 60 } })
    const { program, visit } = context
    const viaProxy = (forwardedFor: string, userAgent: string) => visit('/r/ANN', { address: '10.0.0.1', headers: { 'x-forwarded-for': forwardedFor, 'user-agent': `${BROWSER} ${userAgent}` } })
    for (let n = 0; n < 5; n += 1) await viaProxy(`192.0.2.${n}, 198.51.100.9`, `forged-${n}`)
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(2)
    await viaProxy('198.51.100.10', 'another')
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(3)
    // The browser reports' rate limit counts the same address.
    const { key } = await program.keys.createPublishable({ name: 'site' })
    const viaProxyReport = (n: number) =>
      context.tracking(
        new Request('https://links.example/r/-/clicks', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: 'https://blog.example', 'user-agent': BROWSER, 'x-forwarded-for': `192.0.2.${n}, 198.51.100.11` },
          body: '{"referral_code":"ANN"}',
        }),
        { clientAddress: '10.0.0.1' },
      )
    const statuses = []
    for (let n = 0; n < 4; n += 1) statuses.push((await viaProxyReport(n)).status)
    expect(statuses.at(-1)).toBe(429)
  })

  it('limits the browser reports of an IPv6 /64 as one sender', async () => {
    const context = await setup({}, { rateLimit: { limit: 3, windowSeconds: 60 } })
    const report = reporter(context, (await context.program.keys.createPublishable({ name: 'site' })).key)
    const statuses = []
    for (let n = 1; n <= 4; n += 1) statuses.push((await report('clicks', { referral_code: 'ANN' }, `2001:db8:5:5::${n}`, `${BROWSER} ${n}`)).status)
    expect(statuses).toEqual([201, 201, 201, 429])
    expect((await report('clicks', { referral_code: 'ANN' }, '2001:db8:5:6::1')).status).toBe(201)
  })

  it('a visitor counted already spends none of its address allowance again', async () => {
    const { program, visit } = await setup({}, { visitorsPerAddress: 2 })
    await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
    for (let n = 0; n < 5; n += 1) await visit('/r/ANN', { headers: { 'user-agent': `${BROWSER} a` } })
    await visit('/r/ANN', { headers: { 'user-agent': `${BROWSER} b` } })
    await visit('/r/ANN', { headers: { 'user-agent': `${BROWSER} c` } })
    await visit('/r/BOB', { headers: { 'user-agent': `${BROWSER} a` } })
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(2)
    expect((await program.affiliates.get('bob@example.com')).clicks).toBe(0)
    await expect(setup({}, { visitorsPerAddress: 0 })).rejects.toThrow(/visitorsPerAddress/)
    const unbounded = await setup({}, { visitorsPerAddress: false })
    for (let n = 0; n < 30; n += 1) await unbounded.visit('/r/ANN', { headers: { 'user-agent': `${BROWSER} ${n}` } })
    expect((await unbounded.program.affiliates.get('ann@example.com')).clicks).toBe(30)
  })

  it('refuses a browser signup without the signed referral of a click: none, a bare code, altered, expired or of another project', async () => {
    const context = await setup({ attribution: { model: 'last_click', windowDays: 30 } }, { rateLimit: false, cookieDays: 30 })
    const { program, clock, visit } = context
    const report = reporter(context, (await program.keys.createPublishable({ name: 'site' })).key)
    // Claiming an email in advance: refused, so its real first click later is nobody's claim.
    for (const body of [
      { email: 'future@example.com' },
      { email: 'future@example.com', referral_code: 'ANN' },
      { email: 'future@example.com', referral: 'ANN.9999999999' },
      { email: 'future@example.com', referral: `ANN.9999999999.${'a'.repeat(16)}.${'b'.repeat(22)}` },
      { email: 'future@example.com', referral: 7 },
    ]) {
      const refused = await report('signups', body)
      expect(refused.status, JSON.stringify(body)).toBe(403)
      expect(((await refused.json()) as { error: string }).error).toMatch(/^referral: /)
    }
    await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
    const referral = signedReferral(await visit('/r/ANN'))
    const [code, expires, visitor, signature] = referral.split('.')
    const altered = [`BOB.${expires}.${visitor}.${signature}`, `${code}.${Number(expires) + 86_400}.${visitor}.${signature}`, `${code}.${expires}.${'A'.repeat(16)}.${signature}`]
    for (const forged of altered) expect((await report('signups', { email: 'future@example.com', referral: forged })).status, forged).toBe(403)
    expect((await report('signups', { email: 'future@example.com', referral, referral_code: 'BOB' })).status).toBe(400)

    const other = await program.projects.create({ name: 'other' })
    await program.project(other.id).affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const otherReport = reporter(context, (await program.project(other.id).keys.createPublishable({ name: 'site' })).key)
    expect((await otherReport('signups', { email: 'future@example.com', referral })).status).toBe(403)

    clock.advance({ days: 30 })
    expect((await report('signups', { email: 'future@example.com', referral })).status).toBe(403)
    await expect(program.referrals.get('future@example.com')).rejects.toMatchObject({ code: 'not_found' })
    expect((await program.affiliates.get('ann@example.com')).signups).toBe(0)
  })

  it('a signed referral attributes one new customer and never moves a known one, even under last click', async () => {
    const context = await setup({ attribution: { model: 'last_click', windowDays: 30 } }, { rateLimit: false })
    const { program, visit } = context
    const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
    const report = reporter(context, (await program.keys.createPublishable({ name: 'site' })).key)
    await program.referrals.create({ email: 'direct@example.com' })
    await program.referrals.create({ email: 'bobs@example.com', affiliateId: bob.id })

    // A known email uses the referral up too: one click tests at most one email (no probing which
    // emails are customers with one click).
    for (const [n, email] of ['direct@example.com', 'bobs@example.com'].entries()) {
      const referral = signedReferral(await visit('/r/ANN', { headers: { 'user-agent': `${BROWSER} known-${n}` } }))
      const known = await report('signups', { email, referral })
      expect(known.status, email).toBe(200)
      expect(await known.json()).toEqual({ outcome: 'unchanged' })
      expect((await report('signups', { email: 'probe@example.com', referral })).status, email).toBe(409)
    }
    expect((await program.referrals.get('direct@example.com')).affiliateId).toBeNull()
    expect((await program.referrals.get('bobs@example.com')).affiliateId).toBe(bob.id)
    expect((await program.affiliates.get('bob@example.com')).signups).toBe(1)
    await expect(program.referrals.get('probe@example.com')).rejects.toMatchObject({ code: 'not_found' })

    // A new customer uses it up as well.
    const referral = signedReferral(await visit('/r/ANN'))
    const created = await report('signups', { email: 'new@example.com', referral })
    expect(created.status).toBe(201)
    expect((await program.referrals.get('new@example.com')).affiliateId).toBe((await program.affiliates.get('ann@example.com')).id)
    const again = await report('signups', { email: 'another@example.com', referral })
    expect(again.status).toBe(409)
    await expect(program.referrals.get('another@example.com')).rejects.toMatchObject({ code: 'not_found' })
    // Another visit of the same visitor the same day brings no second signup either.
    const repeat = signedReferral(await visit('/r/ANN', { headers: { cookie: 'ak_ref=ANN.1' } }))
    expect((await report('signups', { email: 'another@example.com', referral: repeat })).status).toBe(409)
    expect((await program.affiliates.get('ann@example.com')).signups).toBe(1)
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
    const code = readFileSync(new URL('../../dist/browser/index.js', import.meta.url))
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
