// GET /r/-/incentive: what a referred visitor gets, for the page's banner. A publishable key,
// CORS for the allowed origins only, the visitor's rate limit; the answer holds the offer's text
// and terms and the affiliate's first name, nothing else of the affiliate; bad input is a 4xx.
import { beforeEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { testClock } from '../../src/core/model/clock.js'
import type { ProjectSettingsInput } from '../../src/core/model/schemas.js'
import { createAffiliateProgram, type AffiliateProgram } from '../../src/index.js'
import { referralClient } from '../../src/browser/referral-client.js'
import { createTrackingHandler, type TrackingHandler } from '../../src/tracking/index.js'

const SETTINGS: ProjectSettingsInput = {
  incentives: { customer: { percentOff: 20, duration: 'repeating', durationInMonths: 3, stripe: { couponId: 'REFERRED20' } } },
}
const ORIGIN = 'https://shop.example'

let program: AffiliateProgram
let tracking: TrackingHandler
let key: string

async function open(settings: ProjectSettingsInput, rateLimit = { limit: 30, windowSeconds: 60 }) {
  const storage = memoryStorage()
  program = await createAffiliateProgram({ storage, clock: testClock('2026-03-10T10:00:00Z'), settings })
  await program.affiliates.create({ email: 'ann.secret@example.com', name: 'Ann Example-Smith', referralCode: 'ANN', paypalEmail: 'ann.pay@example.com' })
  const bob = await program.affiliates.create({ email: 'bob@example.com', name: 'Bob', referralCode: 'BOB' })
  await program.affiliates.update(bob.id, { status: 'inactive' })
  tracking = createTrackingHandler(program, { landingUrl: `${ORIGIN}/`, rateLimit })
  key = (await program.keys.createPublishable({ name: 'site' })).key
}

const read = (query: string, headers: Record<string, string> = {}, init: { method?: string; address?: string } = {}) =>
  tracking(
    new Request(`https://links.example/r/-/incentive${query}`, { method: init.method ?? 'GET', headers: { authorization: `Bearer ${key}`, origin: ORIGIN, ...headers } }),
    { clientAddress: init.address ?? '203.0.113.7' },
  )

describe('GET /r/-/incentive', () => {
  beforeEach(async () => {
    await open(SETTINGS)
  })

  it("answers the banner's text and the discount's terms, with CORS for the site, and nothing else of the affiliate", async () => {
    const response = await read('?referral=ANN')
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    const body = await response.json()
    expect(body).toEqual({ text: '20% off for 3 months via Ann', percent_off: 20, amount_off: null, currency: null, duration: 'repeating', duration_in_months: 3, via: 'Ann' })
    const raw = JSON.stringify(body)
    for (const secret of ['ann.secret', 'ann.pay', 'Example-Smith', 'REFERRED20', '"id"', 'affiliate']) expect(raw).not.toContain(secret)
    // The referral cookie's value names its code too; the language follows locale, else Accept-Language.
    expect(((await (await read('?referral=ANN.1893456000&locale=fr')).json()) as { text: string }).text.replace(/\s/g, ' ')).toBe('20 % de réduction pendant 3 mois grâce à Ann')
    expect(((await (await read('?referral=ann', { 'accept-language': 'es-ES,es;q=0.9' })).json()) as { text: string }).text.replace(/\s/g, ' ')).toBe('20 % de descuento durante 3 meses gracias a Ann')
  })

  it('answers text null for no referral, an unknown or inactive code, and a key of another project', async () => {
    for (const query of ['', '?referral=NOBODY', '?referral=BOB']) {
      const response = await read(query)
      expect(response.status, query).toBe(200)
      expect(await response.json()).toEqual({ text: null })
    }
    const other = await program.projects.create({ name: 'other', settings: SETTINGS })
    key = (await program.project(other.id).keys.createPublishable({ name: 'other site' })).key
    expect(await (await read('?referral=ANN')).json()).toEqual({ text: null })
  })

  it('leaves the name out when the project says so', async () => {
    await open({ incentives: { ...SETTINGS.incentives, showAffiliateName: false } })
    expect(await (await read('?referral=ANN')).json()).toMatchObject({ text: '20% off for 3 months', via: null })
  })

  it('answers the preflight for allowed origins only, and refuses bad keys, methods and parameters with 4xx', async () => {
    const preflight = await tracking(new Request('https://links.example/r/-/incentive', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } }))
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type')
    const foreign = await read('?referral=ANN', { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    expect(await foreign.text()).not.toContain('Ann')

    const secret = (await program.keys.create()).key
    expect((await read('?referral=ANN', { authorization: `Bearer ${secret}` })).status).toBe(401)
    expect((await read('?referral=ANN', { authorization: '' })).status).toBe(401)
    expect((await read('?referral=ANN', {}, { method: 'POST' })).status).toBe(405)
    const bad = async (query: string, message: RegExp) => {
      const response = await read(query)
      expect(response.status, query).toBe(400)
      expect(((await response.json()) as { error: string }).error).toMatch(message)
    }
    await bad('?referral=../ANN', /^referral:/)
    await bad(`?referral=${'A'.repeat(65)}`, /^referral:/)
    await bad('?referral=ANN&locale=xx', /^locale: must be one of en/)
    await bad('?referral=ANN&email=ann.secret@example.com', /unknown parameter "email"/)
  })

  it('is rate limited per visitor', async () => {
    await open(SETTINGS, { limit: 3, windowSeconds: 60 })
    for (let n = 0; n < 3; n += 1) expect((await read('?referral=ANN')).status).toBe(200)
    const limited = await read('?referral=ANN')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).not.toBeNull()
    expect((await read('?referral=ANN', {}, { address: '198.51.100.9' })).status).toBe(200)
  })
})

describe('the snippet: incentive()', () => {
  beforeEach(async () => {
    await open(SETTINGS)
  })

  /** A page's globals: its cookie jar, storage and location, and fetch reaching the tracking handler. */
  function page(cookie: string) {
    const stored = new Map<string, string>()
    const sent: Request[] = []
    Object.assign(globalThis, {
      document: { cookie },
      localStorage: { getItem: (name: string) => stored.get(name) ?? null, setItem: (name: string, value: string) => stored.set(name, value) },
      location: { href: `${ORIGIN}/pricing`, search: '', protocol: 'https:' },
    })
    const fetch = (url: string, init: RequestInit) => {
      const request = new Request(url, { ...init, headers: { ...(init.headers as Record<string, string>), origin: ORIGIN } })
      sent.push(request)
      return tracking(request, { clientAddress: '203.0.113.7' })
    }
    return { fetch, sent }
  }

  it("resolves the stored referral's offer, null without a referral or an incentive", async () => {
    const original = globalThis.fetch
    try {
      const { fetch, sent } = page(`ak_ref=ANN.${2_000_000_000}`)
      globalThis.fetch = fetch as typeof globalThis.fetch
      const client = referralClient({ endpoint: 'https://links.example/r/-', key })
      expect(await client.incentive()).toMatchObject({ text: '20% off for 3 months via Ann', percent_off: 20, via: 'Ann' })
      expect((await client.incentive('de'))!.text.replace(/\s/g, ' ')).toBe('20 % Rabatt für 3 Monate über Ann')
      expect(sent[0]!.headers.get('authorization')).toBe(`Bearer ${key}`)
      expect(sent[0]!.url).toBe('https://links.example/r/-/incentive?referral=ANN')

      page(`ak_ref=BOB.${2_000_000_000}`)
      expect(await client.incentive()).toBeNull()
      page('')
      expect(await client.incentive()).toBeNull()
      expect(await referralClient({}).incentive()).toBeNull()
    } finally {
      globalThis.fetch = original
      for (const name of ['document', 'localStorage', 'location']) delete (globalThis as Record<string, unknown>)[name]
    }
  })
})
