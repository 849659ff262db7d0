// Visits through affiliates' links (docs/links.md, docs/analytics.md "What a click records"): a
// link's destination with its UTM defaults, deep links on allowed origins only, short domains, the
// click each visit records (link, campaign, referrer, device, country; bots apart), the lookup kept
// for linkCacheSeconds, and a purchase carrying the link's click reported by link and campaign.
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { testClock } from '../../src/core/model/clock.js'
import { createAffiliateProgram } from '../../src/index.js'
import { createTrackingHandler, type TrackingOptions } from '../../src/tracking/index.js'

const LANDING = 'https://shop.example/'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

async function setup(options: Partial<TrackingOptions> = {}) {
  const clock = testClock('2026-03-10T10:00:00Z')
  const program = await createAffiliateProgram({
    storage: memoryStorage(),
    clock,
    settings: { commission: { purchase: { type: 'percentage', rate: 20 } } },
    links: { publicUrl: 'https://links.example', prefix: '/r', allowedOrigins: ['https://shop.example', 'https://docs.example'], domains: ['go.example'] },
  })
  await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  const youtube = await program.links.create({ affiliate: 'ann@example.com', key: 'ann-youtube', utmSource: 'youtube', utmMedium: 'video', utmCampaign: 'spring' })
  const docs = await program.links.create({ affiliate: 'ann@example.com', key: 'ann-docs', destination: 'https://docs.example/setup?step=2', utmCampaign: 'docs' })
  const tracking = createTrackingHandler(program, {
    landingUrl: LANDING,
    allowedOrigins: ['https://docs.example'],
    country: { header: 'CF-IPCountry' },
    linkDomains: ['go.example'],
    visitorsPerAddress: false,
    ...options,
  })
  const visit = (url: string, headers: Record<string, string> = {}, address = '203.0.113.7') =>
    tracking(new Request(url, { headers: { 'user-agent': WINDOWS, ...headers } }), { clientAddress: address })
  const clicks = (groupBy: 'link' | 'utm_campaign' | 'country' | 'device' | 'referrer' | 'sub1') =>
    program.analytics.query({ groupBy, metrics: ['clicks', 'visitors', 'bot_clicks', 'signups', 'conversions', 'revenue'], from: '2026-03-01', to: '2026-03-11' })
  return { program, clock, tracking, visit, clicks, youtube, docs }
}

const location = (response: Response) => new URL(response.headers.get('location')!)

describe('visits through links', () => {
  it("go to the link's destination with its UTM defaults, the referral carried along", async () => {
    const { visit } = await setup()
    const deep = location(await visit('https://links.example/r/ann-docs'))
    expect(`${deep.origin}${deep.pathname}`).toBe('https://docs.example/setup')
    expect(deep.searchParams.get('step')).toBe('2')
    expect(deep.searchParams.get('utm_campaign')).toBe('docs')
    expect(deep.searchParams.get('ak_ref')).toMatch(/^ANN\.\d+\.[\w-]{16}\.[\w-]{16}\.[\w-]{22}$/)
    const video = location(await visit('https://links.example/r/ANN-YOUTUBE'))
    expect([video.origin, video.searchParams.get('utm_source'), video.searchParams.get('utm_medium'), video.searchParams.get('utm_campaign')]).toEqual(['https://shop.example', 'youtube', 'video', 'spring'])
  })

  it('follow ?to= only to an allowed origin, keeping the UTM defaults', async () => {
    const { visit } = await setup()
    expect(location(await visit('https://links.example/r/ann-youtube?to=https%3A%2F%2Fdocs.example%2Fa')).href).toMatch(/^https:\/\/docs\.example\/a\?utm_source=youtube&utm_medium=video&utm_campaign=spring&ak_ref=/)
    expect(location(await visit('https://links.example/r/ann-youtube?to=https%3A%2F%2Fevil.example%2F')).origin).toBe('https://shop.example')
  })

  it('on a short domain, answer /<key> at its root; other hosts do not', async () => {
    const { visit } = await setup()
    const short = await visit('https://go.example/ann-docs')
    expect(short.status).toBe(302)
    expect(location(short).origin).toBe('https://docs.example')
    expect((await visit('https://elsewhere.example/ann-docs')).status).toBe(404)
    expect((await visit('https://go.example/ann-docs/more')).status).toBe(404)
    // The prefix still works on the short domain.
    expect((await visit('https://go.example/r/ann-docs')).status).toBe(302)
  })

  it('record each click with its link, campaign (the query over the defaults), referrer, device and country; bots apart', async () => {
    const { visit, clicks, youtube, docs } = await setup()
    await visit('https://links.example/r/ann-youtube?utm_campaign=summer&sub1=video-42', { 'user-agent': IPHONE, 'cf-ipcountry': 'de', referer: 'https://m.youtube.com/watch?v=1' }, '198.51.100.1')
    await visit('https://links.example/r/ann-youtube', { 'cf-ipcountry': 'FR' }, '198.51.100.2')
    // The same visitor through the same link within the hour: one click.
    await visit('https://links.example/r/ann-youtube', { 'cf-ipcountry': 'FR' }, '198.51.100.2')
    await visit('https://links.example/r/ann-docs', { 'cf-ipcountry': 'FR' }, '198.51.100.2')
    await visit('https://links.example/r/ANN', {}, '198.51.100.3')
    await visit('https://links.example/r/ann-docs', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })

    const byLink = await clicks('link')
    expect(byLink.rows.map(({ group, clicks, visitors, botClicks }) => ({ group, clicks, visitors, botClicks }))).toEqual([
      { group: String(youtube.id), clicks: 2, visitors: 2, botClicks: 0 },
      { group: String(docs.id), clicks: 1, visitors: 0, botClicks: 1 },
      { group: null, clicks: 1, visitors: 1, botClicks: 0 },
    ])
    const byCampaign = Object.fromEntries((await clicks('utm_campaign')).rows.map((row) => [row.group, row.clicks]))
    expect(byCampaign).toEqual({ summer: 1, spring: 1, docs: 1, null: 1 })
    expect(Object.fromEntries((await clicks('country')).rows.map((row) => [row.group, row.clicks]))).toEqual({ FR: 2, DE: 1, null: 1 })
    expect(Object.fromEntries((await clicks('device')).rows.map((row) => [row.group, row.clicks]))).toEqual({ desktop: 3, mobile: 1 })
    expect(Object.fromEntries((await clicks('referrer')).rows.map((row) => [row.group, row.clicks]))).toEqual({ 'm.youtube.com': 1, null: 3 })
    expect(Object.fromEntries((await clicks('sub1')).rows.map((row) => [row.group, row.clicks]))).toEqual({ 'video-42': 1, null: 3 })
  })

  it("report a signup and a purchase through the link's click by link and campaign", async () => {
    const { program, visit, clicks, youtube } = await setup()
    const response = await visit('https://links.example/r/ann-youtube', { 'cf-ipcountry': 'DE' })
    const click = location(response).searchParams.get('ak_ref')!
    await program.tracking.browserSignup({ email: 'buyer@example.com', referralCode: 'ANN', click })
    await program.conversions.create({ type: 'purchase', email: 'buyer@example.com', baseValue: '80.00', reference: 'order-1' })
    const byLink = (await clicks('link')).rows.find((row) => row.group === String(youtube.id))!
    expect({ clicks: byLink.clicks, signups: byLink.signups, conversions: byLink.conversions, revenue: byLink.revenue }).toEqual({ clicks: 1, signups: 1, conversions: 1, revenue: 8000n })
    expect((await clicks('utm_campaign')).rows.find((row) => row.group === 'spring')).toMatchObject({ signups: 1, conversions: 1, revenue: 8000n })
  })

  it('keep a lookup for linkCacheSeconds: a deleted link resolves until then, then sends visitors to the landing page', async () => {
    const { program, clock, visit, docs } = await setup({ linkCacheSeconds: 10 })
    expect(location(await visit('https://links.example/r/ann-docs')).origin).toBe('https://docs.example')
    await program.links.delete(docs.id)
    expect(location(await visit('https://links.example/r/ann-docs', {}, '198.51.100.9')).origin).toBe('https://docs.example')
    clock.advance({ seconds: 11 })
    const gone = await visit('https://links.example/r/ann-docs', {}, '198.51.100.10')
    expect(location(gone).href).toBe(LANDING)
    expect(gone.headers.get('x-affiliate-kit-counted')).toBe('unknown-code')
  })
})
