// Why a referral link counted nothing, where a developer sees it (issue 43 item 9): each redirect
// and click report answers X-Affiliate-Kit-Counted (yes, repeat, bot, over-limit, unknown-code),
// onVisit is told, the standalone server logs the uncounted ones at debug, and the snippet's
// signup() resolves with its reason instead of a bare false (run in Node against a real tracking
// handler over HTTP, with the few browser globals the snippet touches).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { referralClient } from '../../src/browser/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { createTrackingHandler, type TrackingOptions, type VisitCount } from '../../src/tracking/index.js'
import { api, run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const LANDING = 'https://shop.example/welcome'
const tempDir = tempDirs('affiliate-kit-tracking-counted')

async function tracked(options: Partial<TrackingOptions> = {}) {
  const program = await createAffiliateProgram({ storage: memoryStorage(), clock: testClock('2026-03-10T10:00:00Z') })
  await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  const told: Array<{ counted: VisitCount; referralCode: string; via: string }> = []
  const tracking = createTrackingHandler(program, { landingUrl: LANDING, ...options, onVisit: ({ counted, referralCode, via }) => told.push({ counted, referralCode, via }) })
  const visit = (path: string, userAgent: string | null = BROWSER, address = '203.0.113.7') =>
    tracking(new Request(`https://links.example${path}`, { headers: userAgent === null ? {} : { 'user-agent': userAgent } }), { clientAddress: address })
  return { program, tracking, visit, told }
}

describe('X-Affiliate-Kit-Counted on referral links', () => {
  it('says yes, repeat, bot, over-limit or unknown-code, and onVisit is told the same', async () => {
    const { program, visit, told } = await tracked({ visitorsPerAddress: 2 })
    const counted = async (...args: Parameters<typeof visit>) => (await visit(...args)).headers.get('x-affiliate-kit-counted')
    expect(await counted('/r/ANN')).toBe('yes')
    expect(await counted('/r/ANN')).toBe('repeat')
    expect(await counted('/r/ANN', 'curl/8.5.0')).toBe('bot')
    expect(await counted('/r/ANN', null)).toBe('bot')
    expect(await counted('/r/ANN', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36')).toBe('bot')
    // Two more browsers from the same address: the second is past visitorsPerAddress (2).
    expect(await counted('/r/ANN', `${BROWSER} Edg/131.0`)).toBe('yes')
    expect(await counted('/r/ANN', `${BROWSER} OPR/115.0`)).toBe('over-limit')
    expect(await counted('/r/NOBODY')).toBe('unknown-code')
    expect(await counted('/r/no%20such%20code')).toBe('unknown-code')
    expect(await counted('/r/a/b/c')).toBe('unknown-code')
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(2)
    expect(told.map(({ counted }) => counted)).toEqual(['yes', 'repeat', 'bot', 'bot', 'bot', 'yes', 'over-limit', 'unknown-code', 'unknown-code'])
    expect(told[0]).toEqual({ counted: 'yes', referralCode: 'ANN', via: 'link' })
  })

  it('click reports from the snippet carry it too, readable by the allowed origin (CORS)', async () => {
    const { program, tracking } = await tracked({ allowedOrigins: ['https://blog.example'] })
    const { key } = await program.keys.createPublishable({})
    const report = (userAgent: string) =>
      tracking(
        new Request('https://links.example/r/-/clicks', {
          method: 'POST',
          headers: { 'user-agent': userAgent, origin: 'https://blog.example', authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ referral_code: 'ANN' }),
        }),
        { clientAddress: '198.51.100.1' },
      )
    const bot = await report('python-requests/2.31')
    expect(bot.status).toBe(200)
    expect(bot.headers.get('x-affiliate-kit-counted')).toBe('bot')
    expect(bot.headers.get('access-control-expose-headers')).toBe('X-Affiliate-Kit-Counted')
    expect((await report(BROWSER)).headers.get('x-affiliate-kit-counted')).toBe('yes')
  })
})

describe('the standalone server logs a visit that counted nothing at debug', () => {
  it('one debug line with the reason; none for a counted visit', async () => {
    const dir = tempDir()
    const key = 'rgk_trackingcountedtestkey0000000001'
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ tracking: { landingUrl: LANDING } }))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'config.json', '--log-level', 'debug'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: key } })
    try {
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      const root = url!.replace(/\/api\/v1$/, '')
      expect((await api(url!, key, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
      const bot = await fetch(`${root}/r/ANN`, { redirect: 'manual', headers: { 'user-agent': 'curl/8.5.0' } })
      expect(bot.headers.get('x-affiliate-kit-counted')).toBe('bot')
      await server.waitFor(/referral link visit for "ANN" counted nothing: bot \(the User-Agent is empty or a crawler's; a browser's counts\)/)
      const unknown = await fetch(`${root}/r/NOBODY`, { redirect: 'manual', headers: { 'user-agent': BROWSER } })
      expect(unknown.headers.get('x-affiliate-kit-counted')).toBe('unknown-code')
      await server.waitFor(/referral link visit for "NOBODY" counted nothing: unknown-code/)
      // The server's click buffer answers at once and writes the click within its second.
      const browser = await fetch(`${root}/r/ANN`, { redirect: 'manual', headers: { 'user-agent': BROWSER } })
      expect(browser.headers.get('x-affiliate-kit-counted')).toBe('queued')
      await expect.poll(async () => (await api(url!, key, 'GET', '/affiliates/ann@example.com')).body?.data?.clicks, { timeout: 5000 }).toBe(1)
      expect(await server.stop()).toBe(0)
      expect(server.output()).not.toMatch(/counted nothing: (yes|queued)/)
      expect(server.output().match(/counted nothing/g)).toHaveLength(2)
    } finally {
      if (server.child.exitCode === null) await server.stop()
    }
  }, 60_000)
})

describe('affiliateKit.signup() resolves with its reason', () => {
  let program: AffiliateProgram
  let server: Server
  let origin = ''
  let key = ''
  beforeAll(async () => {
    program = await createAffiliateProgram({ storage: memoryStorage() })
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    key = (await program.keys.createPublishable({})).key
    const tracking = createTrackingHandler(program, { landingUrl: LANDING, visitorsPerAddress: false })
    server = createServer((req, res) => tracking.node(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  /** The browser globals the snippet uses: one page of LANDING?search, with its cookies and storage. */
  function page(search: string) {
    const cookies = new Map<string, string>()
    const storage = new Map<string, string>()
    const url = new URL(`${LANDING}${search}`)
    Object.assign(globalThis, {
      document: {
        get cookie() {
          return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
        },
        set cookie(text: string) {
          const [pair] = text.split('; ')
          const [name, value] = pair!.split('=') as [string, string]
          cookies.set(name, value)
        },
      },
      location: { search: url.search, href: url.href, protocol: url.protocol },
      history: { state: null, replaceState: () => {} },
      localStorage: { getItem: (name: string) => storage.get(name) ?? null, setItem: (name: string, value: string) => storage.set(name, value) },
    })
  }

  /** The signed referral a browser's visit of ANN's link carries to the landing page. */
  async function signedReferral(): Promise<string> {
    const link = await fetch(`${origin}/r/ANN`, { redirect: 'manual', headers: { 'user-agent': BROWSER } })
    return new URL(link.headers.get('location')!).searchParams.get('ak_ref')!
  }

  it('created, then already-signed-up; no-referral, not-configured, unsigned-referral, refused, unreachable', async () => {
    const client = () => referralClient({ endpoint: `${origin}/r/-`, key })

    page('')
    expect(await client().signup('none@example.com')).toEqual({ signedUp: false, reason: 'no-referral' })

    page(`?ak_ref=${await signedReferral()}`)
    const kit = client()
    kit.capture()
    expect(await referralClient({}).signup('x@example.com')).toEqual({ signedUp: false, reason: 'not-configured' })
    expect(await kit.signup('new@example.com')).toEqual({ signedUp: true, reason: 'created' })
    expect((await program.referrals.get('new@example.com')).affiliateCode).toBe('ANN')
    expect(await kit.signup('again@example.com')).toEqual({ signedUp: false, reason: 'already-signed-up', message: 'referral: this visitor already signed up with it' })

    // A bot's click: the redirect carries an unsigned referral.
    const botLink = await fetch(`${origin}/r/ANN`, { redirect: 'manual', headers: { 'user-agent': 'curl/8.5.0' } })
    expect(botLink.headers.get('x-affiliate-kit-counted')).toBe('bot')
    page(`?ak_ref=${new URL(botLink.headers.get('location')!).searchParams.get('ak_ref') ?? `ANN.${Math.floor(Date.now() / 1000) + 3600}`}`)
    const unsigned = client()
    unsigned.capture()
    expect(await unsigned.signup('bot@example.com')).toMatchObject({ signedUp: false, reason: 'unsigned-referral' })

    // Signed by another program: the handler refuses it, and says why.
    page(`?ak_ref=ANN.${Math.floor(Date.now() / 1000) + 3600}.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA`)
    const forged = client()
    forged.capture()
    expect(await forged.signup('forged@example.com')).toEqual({ signedUp: false, reason: 'refused', message: 'referral: not a signed referral of this program, or it expired' })

    page(`?ak_ref=${await signedReferral()}`)
    const offline = referralClient({ endpoint: 'http://127.0.0.1:1/r/-', key })
    offline.capture()
    expect(await offline.signup('offline@example.com')).toEqual({ signedUp: false, reason: 'unreachable' })
  })
})
