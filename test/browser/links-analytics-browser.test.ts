// Issue 46's walk through, against `affiliate-kit serve` and real Chromium (docs/links.md,
// docs/analytics.md): Ann has three links with different UTM defaults, one a deep link to another
// site; visitors click them from browsers with varied user agents and countries (the proxy's
// CF-IPCountry header, trusted by the config); one signs up on the shop through the snippet and
// buys. The API's analytics, the console's chart and table, and the portal show clicks -> signups
// -> revenue per link and campaign equal to what was sent; the portal shows Ann only her links.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, freePort, run, runToEnd, type Running } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { launchBrowser, seriousViolations } from '../support/browser-helpers.js'

const tempDir = tempDirs('affiliate-kit-links-analytics')
const KEY = `rgk_${'LnkAna1Test2'.repeat(3)}xyz0`
const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
}

/** The visits sent: link key, browser, country. */
const VISITS = [
  ['ann-youtube', UA.iphone, 'DE'],
  ['ann-youtube', UA.windows, 'US'],
  ['ann-youtube', UA.mac, 'FR'],
  ['ann-newsletter', UA.windows, 'DE'],
  ['ann-newsletter', UA.ipad, 'GB'],
  ['ann-docs', UA.mac, 'US'],
] as const

describe('links and analytics in Chromium, on affiliate-kit serve', () => {
  let server: Running
  let shop: Server
  let docs: Server
  let browser: Browser
  let url = ''
  let origin = ''
  let shopOrigin = ''
  const links = new Map<string, number>()

  beforeAll(async () => {
    // The shop (landing page, with the snippet) and the docs site: other sites than the links' host.
    shop = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><html lang="en"><head><title>Shop</title><script src="${origin}/r/-/affiliate-kit.js" data-key="${publishable}"></script></head><body><h1>Shop</h1></body></html>`)
    })
    docs = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end('<!doctype html><html lang="en"><head><title>Docs</title></head><body><h1>Docs</h1></body></html>')
    })
    await new Promise<void>((resolve) => shop.listen(0, 'localhost', resolve))
    await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve))
    shopOrigin = `http://localhost:${(shop.address() as AddressInfo).port}`
    const docsOrigin = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`

    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    const dir = tempDir()
    const config = {
      allowPrivateNetworks: true,
      commission: { purchase: { type: 'percentage', rate: 20 } },
      tracking: { landingUrl: `${shopOrigin}/`, allowedOrigins: [docsOrigin], publicUrl: origin, visitorsPerAddress: false, country: { header: 'CF-IPCountry' }, clicks: { flushMilliseconds: 200 } },
      portal: { enabled: true, publicUrl: origin },
      admin: { enabled: true },
    }
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
    // The embedded PGlite in dir: `keys create` reaches the running server through its key socket.
    server = run(['serve', '--port', String(port), '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    ;[, url] = (await server.waitFor(/listening on (http:\/\/\S+)/)) as unknown as [string, string]
    for (const email of ['ann@example.com', 'bob@example.com']) expect((await api(url, KEY, 'POST', '/affiliates', { email, referral_code: email.slice(0, 3) })).status).toBe(201)
    const create = async (body: Record<string, unknown>) => {
      const created = await api(url, KEY, 'POST', '/links', body)
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      links.set(String(body.key), created.body!.data.id)
    }
    await create({ affiliate: 'ann@example.com', key: 'ann-youtube', utm_source: 'youtube', utm_medium: 'video', utm_campaign: 'spring' })
    await create({ affiliate: 'ann@example.com', key: 'ann-newsletter', utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring' })
    await create({ affiliate: 'ann@example.com', key: 'ann-docs', destination: `${docsOrigin}/guide?lang=en`, utm_source: 'blog', utm_campaign: 'docs' })
    await create({ affiliate: 'bob@example.com', key: 'bob-podcast', utm_campaign: 'podcast' })
    const keys = await runToEnd(['keys', 'create', '--publishable', '--name', 'shop'], { cwd: dir })
    publishable = /rgp_\w+/.exec(keys.output)?.[0] ?? keys.output
    browser = await launchBrowser()
  }, 120_000)
  let publishable = ''

  afterAll(async () => {
    await browser?.close()
    if (server) await server.stop()
    await new Promise((resolve) => shop?.close(resolve))
    await new Promise((resolve) => docs?.close(resolve))
  })

  it('clicks, a signup and a purchase through one link show per link and campaign in the API, the console and the portal', async () => {
    expect(publishable).toMatch(/^rgp_/)
    // Each visit: a browser of its own, its country as the proxy in front would say it.
    for (const [key, userAgent, country] of VISITS) {
      const context = await browser.newContext({ userAgent })
      // The proxy's header on the link's request only (on the page's own fetches it would need CORS).
      await context.route(`${origin}/r/${key}`, (route) => route.continue({ headers: { ...route.request().headers(), 'cf-ipcountry': country } }))
      const page = await context.newPage()
      await page.goto(`${origin}/r/${key}`)
      const landed = new URL(page.url())
      if (key === 'ann-docs') expect([landed.pathname, landed.searchParams.get('lang'), landed.searchParams.get('utm_campaign')]).toEqual(['/guide', 'en', 'docs'])
      else expect([landed.origin, landed.searchParams.get('utm_source')]).toEqual([shopOrigin, key === 'ann-youtube' ? 'youtube' : 'newsletter'])
      // The first newsletter reader signs up on the shop: the snippet sends the signed referral of its click.
      if (key === 'ann-newsletter' && country === 'DE') {
        await page.waitForFunction(() => 'affiliateKit' in window)
        const signup = await page.evaluate(() => (window as unknown as { affiliateKit: { signup(email: string): Promise<{ signedUp: boolean }> } }).affiliateKit.signup('reader@example.com'))
        expect(signup).toMatchObject({ signedUp: true })
      }
      await context.close()
    }
    // The shop's server records the reader's purchase.
    expect((await api(url, KEY, 'POST', '/conversions', { type: 'purchase', email: 'reader@example.com', base_value: 120, reference: 'order-1' })).status).toBe(201)

    // The click buffer writes within its interval.
    const query = (params: string, metric = 'clicks,signups,conversions,revenue,commission') => api(url, KEY, 'GET', `/analytics?metric=${metric}&${params}`)
    await expect.poll(async () => (await query('')).body?.data?.totals?.clicks, { timeout: 10_000 }).toBe(VISITS.length)
    const byLink = Object.fromEntries((await query('group_by=link')).body!.data.rows.map((row: Record<string, unknown>) => [row.group, row]))
    expect(byLink).toEqual({
      [links.get('ann-youtube')!]: { group: String(links.get('ann-youtube')), clicks: 3, signups: 0, conversions: 0, revenue: '0.00', commission: '0.00' },
      [links.get('ann-newsletter')!]: { group: String(links.get('ann-newsletter')), clicks: 2, signups: 1, conversions: 1, revenue: '120.00', commission: '24.00' },
      [links.get('ann-docs')!]: { group: String(links.get('ann-docs')), clicks: 1, signups: 0, conversions: 0, revenue: '0.00', commission: '0.00' },
    })
    const byCampaign = Object.fromEntries((await query('group_by=utm_campaign')).body!.data.rows.map((row: Record<string, unknown>) => [row.group, [row.clicks, row.signups, row.revenue]]))
    expect(byCampaign).toEqual({ spring: [5, 1, '120.00'], docs: [1, 0, '0.00'] })
    const byCountry = Object.fromEntries((await query('group_by=country', 'clicks')).body!.data.rows.map((row: Record<string, unknown>) => [row.group, row.clicks]))
    expect(byCountry).toEqual({ DE: 2, US: 2, FR: 1, GB: 1 })
    const byDevice = Object.fromEntries((await query('group_by=device', 'clicks')).body!.data.rows.map((row: Record<string, unknown>) => [row.group, row.clicks]))
    expect(byDevice).toEqual({ mobile: 1, desktop: 4, tablet: 1 })

    // The console: the chart and the table grouped by link.
    const admin = await (await browser.newContext()).newPage()
    await admin.goto(`${origin}/admin/sign-in`)
    await admin.getByLabel('Admin API key').fill(KEY)
    await admin.getByRole('button', { name: 'Sign in' }).click()
    await admin.waitForURL(`${origin}/admin/`)
    await admin.goto(`${origin}/admin/analytics?group_by=link&interval=day`)
    expect(await seriousViolations(admin)).toEqual([])
    expect(await admin.locator('svg[data-metric="clicks"]').count()).toBe(1)
    expect(await admin.locator('[data-total="clicks"]').innerText()).toBe(String(VISITS.length))
    expect(await admin.locator('[data-total="signups"]').innerText()).toBe('1')
    expect(await admin.locator('[data-total="revenue"]').innerText()).toBe('120.00 USD')
    const consoleRows = await admin.locator('table[data-analytics-table] tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim())))
    const newsletterRow = consoleRows.find((cells) => cells[0]!.includes('ann-newsletter'))!
    expect(newsletterRow.slice(1, 5)).toEqual(['2', expect.any(String), '1', '1'])

    // The portal: Ann sees her three links, not Bob's, and her figures by link.
    const signIn = await api(url, KEY, 'POST', '/affiliates/ann%40example.com/portal-link', {})
    const portal = await (await browser.newContext()).newPage()
    await portal.goto(signIn.body!.data.url)
    await portal.getByRole('button', { name: 'Sign in' }).click()
    await portal.waitForURL(`${origin}/portal/`)
    await portal.goto(`${origin}/portal/links`)
    const shown = await portal.locator('main').innerText()
    for (const key of ['ann-youtube', 'ann-newsletter', 'ann-docs']) expect(shown).toContain(key)
    expect(shown).not.toContain('bob-podcast')
    await portal.goto(`${origin}/portal/analytics`)
    expect(await seriousViolations(portal)).toEqual([])
    const portalText = await portal.locator('main').innerText()
    expect(portalText).toContain('ann-newsletter')
    expect(portalText).not.toContain('bob-podcast')
    expect(await portal.locator('[data-total="clicks"]').innerText()).toBe(String(VISITS.length))
    expect(await portal.locator('[data-total="revenue"]').innerText()).toMatch(/120\.00/)
  }, 120_000)
})
