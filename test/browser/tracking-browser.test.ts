// Referral tracking in a real browser (Debian's Chromium through playwright-core): a local shop
// page with the served snippet, reached through referral links; signup through the snippet and
// payment through the local REST API credit the right affiliate, under first and last click.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext } from 'playwright-core'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, type AffiliateProgram } from '../../src/index.js'
import { createTrackingHandler } from '../../src/tracking/index.js'
import { launchBrowser } from '../support/browser-helpers.js'

type Model = 'first_click' | 'last_click'

interface Shop {
  program: AffiliateProgram
  origin: string
  server: Server
}

function readJson(req: IncomingMessage): Promise<{ email: string; ref: string | null }> {
  return new Promise((resolve, reject) => {
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    req.once('end', () => resolve(JSON.parse(text) as { email: string; ref: string | null }))
    req.once('error', reject)
  })
}

/** A shop on 127.0.0.1: /shop with the snippet, /checkout (the shop's back end), the API and the links. */
async function openShop(model: Model): Promise<Shop> {
  const program = await createAffiliateProgram({ storage: memoryStorage(), settings: { attribution: { model, windowDays: 30 } } })
  await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
  const secret = (await program.keys.create()).key
  const publishable = (await program.keys.createPublishable({ name: 'shop' })).key
  const api = createHandler(program).node
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const tracking = createTrackingHandler(program, { landingUrl: `${origin}/shop` }).node
  server.on('request', (req, res) => {
    const url = req.url ?? '/'
    if (url.startsWith('/r/') || url === '/r') return tracking(req, res)
    if (url.startsWith('/api/')) return api(req, res)
    if (url === '/checkout' && req.method === 'POST') {
      // The shop's server: records the payment through the local REST API with its secret key.
      void readJson(req).then(async ({ email, ref }) => {
        const response = await fetch(`${origin}/api/v1/conversions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'purchase', email, ...(ref ? { referral_code: ref } : {}), base_value: 49, reference: `order-${email}` }),
        })
        res.writeHead(response.status, { 'content-type': 'application/json' })
        res.end(await response.text())
      })
      return
    }
    if (url.startsWith('/shop')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><html lang="en"><head><title>Shop</title>
<script src="/r/-/affiliate-kit.js" data-key="${publishable}" data-model="${model}"></script></head>
<body><h1>Shop</h1></body></html>`)
      return
    }
    res.writeHead(404)
    res.end()
  })
  return { program, origin, server }
}

describe('referral tracking in Chromium', () => {
  let browser: Browser
  const shops: Shop[] = []
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    for (const shop of shops) shop.server.close()
  })

  /** A browser of its own; headless Chromium names itself HeadlessChrome, which counts as a bot. */
  async function visitor(name: string): Promise<BrowserContext> {
    return browser.newContext({ userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 visitor-${name}` })
  }

  async function pay(context: BrowserContext, shop: Shop, email: string): Promise<{ status: number; body: { attribution: { affiliate_id: number } } }> {
    const page = context.pages()[0]!
    return page.evaluate(
      async ([url, customer]) => {
        const ref = (window as unknown as { affiliateKit: { getReferral(): string | null } }).affiliateKit.getReferral()
        const response = await fetch(url!, { method: 'POST', body: JSON.stringify({ email: customer, ref }) })
        return { status: response.status, body: await response.json() }
      },
      [`${shop.origin}/checkout`, email],
    )
  }

  for (const model of ['first_click', 'last_click'] as const) {
    it(`${model}: link, cookie, click, signup and payment credit the right affiliate; a second link moves the referral only under last click`, async () => {
      const shop = await openShop(model)
      shops.push(shop)
      const { program, origin } = shop
      const ann = await program.affiliates.get('ann@example.com')
      const bob = await program.affiliates.get('bob@example.com')

      // Visitor 1: ANN's link, signup through the snippet, payment through the shop's API call.
      const first = await visitor('one')
      const page = await first.newPage()
      const landed = await page.goto(`${origin}/r/ANN?to=%2Fshop%3Ffrom%3Dlink`)
      const redirect = await landed!.request().redirectedFrom()!.response()
      expect(redirect!.status()).toBe(302)
      const [cookie] = await first.cookies(origin)
      expect(cookie).toMatchObject({ name: 'ak_ref', sameSite: 'Lax', httpOnly: false, secure: false })
      expect(cookie!.value).toMatch(/^ANN\.\d+\.[\w-]{16}\.[\w-]{16}\.[\w-]{22}$/)
      // The snippet took the referral the redirect carried and removed it from the address bar.
      expect(redirect!.headers().location).toBe(`${origin}/shop?from=link&ak_ref=${cookie!.value}`)
      expect(page.url()).toBe(`${origin}/shop?from=link`)
      expect((await program.affiliates.get('ann@example.com')).clicks).toBe(1)
      expect(await page.evaluate(() => (window as unknown as { affiliateKit: { signup(email: string): Promise<{ signedUp: boolean; reason: string }> } }).affiliateKit.signup('one@example.com'))).toEqual({ signedUp: true, reason: 'created' })
      expect((await program.referrals.get('one@example.com')).affiliateId).toBe(ann.id)
      const paid = await pay(first, shop, 'one@example.com')
      expect(paid.status).toBe(201)
      expect(paid.body.attribution.affiliate_id).toBe(ann.id)

      // Visitor 2: ANN's link and signup, then BOB's link inside the window, then payment.
      const second = await visitor('two')
      const page2 = await second.newPage()
      await page2.goto(`${origin}/r/ANN`)
      await page2.evaluate(() => (window as unknown as { affiliateKit: { signup(email: string): Promise<{ signedUp: boolean; reason: string }> } }).affiliateKit.signup('two@example.com'))
      await page2.goto(`${origin}/r/BOB`)
      const [cookie2] = await second.cookies(origin)
      expect(cookie2!.value).toMatch(model === 'last_click' ? /^BOB\./ : /^ANN\./)
      expect((await program.affiliates.get('bob@example.com')).clicks).toBe(1)
      const paid2 = await pay(second, shop, 'two@example.com')
      expect(paid2.status).toBe(201)
      const credited = model === 'last_click' ? bob.id : ann.id
      expect(paid2.body.attribution.affiliate_id).toBe(credited)
      expect((await program.referrals.get('two@example.com')).affiliateId).toBe(credited)

      // Visitor 3: lands with ?ref= (no link): the snippet stores the referral and reports the click.
      const third = await visitor('three')
      const page3 = await third.newPage()
      await page3.goto(`${origin}/shop?ref=BOB`)
      await expect.poll(async () => (await program.affiliates.get('bob@example.com')).clicks).toBe(2)
      // The click report answered with the signed referral, which the snippet stored.
      await expect.poll(() => page3.evaluate(() => localStorage.getItem('ak_ref'))).toMatch(/^BOB\.\d+\.[\w-]{16}\.[\w-]{16}\.[\w-]{22}$/)
      expect(await page3.evaluate(() => (window as unknown as { affiliateKit: { getReferral(): string | null } }).affiliateKit.getReferral())).toBe('BOB')
      expect(await page3.evaluate(() => (window as unknown as { affiliateKit: { signup(email: string): Promise<{ signedUp: boolean; reason: string }> } }).affiliateKit.signup('three@example.com'))).toEqual({ signedUp: true, reason: 'created' })
      expect((await program.referrals.get('three@example.com')).affiliateId).toBe(bob.id)

      const stats = await program.stats.program()
      expect(stats.totals).toMatchObject({ clicks: 4, visitors: 4, signups: model === 'last_click' ? 4 : 3, purchases: 2 })
      await Promise.all([first.close(), second.close(), third.close()])
    }, 60_000)
  }

  it('links on one host, the site on another (127.0.0.1 and localhost): the referral reaches the site, and its snippet signs up through the tracking host', async () => {
    const program = await createAffiliateProgram({ storage: memoryStorage(), settings: { attribution: { model: 'first_click', windowDays: 30 } } })
    const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
    const publishable = (await program.keys.createPublishable({ name: 'shop' })).key
    // The site: its own server, reached as localhost (another site than 127.0.0.1 to the browser).
    const site = createServer()
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    const siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`
    // The links, the snippet and the reports: the tracking host, 127.0.0.1.
    const links = createServer()
    await new Promise<void>((resolve) => links.listen(0, '127.0.0.1', resolve))
    const linksOrigin = `http://127.0.0.1:${(links.address() as AddressInfo).port}`
    shops.push({ program, origin: siteOrigin, server: site }, { program, origin: linksOrigin, server: links })
    links.on('request', createTrackingHandler(program, { landingUrl: `${siteOrigin}/shop` }).node)
    site.on('request', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><html lang="en"><head><title>Shop</title>
<script src="${linksOrigin}/r/-/affiliate-kit.js" data-key="${publishable}"></script></head><body><h1>Shop</h1></body></html>`)
    })
    type Kit = { getReferral(): string | null; signup(email: string): Promise<{ signedUp: boolean; reason: string }> }

    const first = await visitor('cross-one')
    const page = await first.newPage()
    await page.goto(`${linksOrigin}/r/ANN`)
    expect(page.url()).toBe(`${siteOrigin}/shop`)
    expect(await page.evaluate(() => (window as unknown as { affiliateKit: Kit }).affiliateKit.getReferral())).toBe('ANN')
    // A first-party cookie on the site, the same signed referral as the tracking host's own.
    const [siteCookie] = await first.cookies(siteOrigin)
    const [linksCookie] = await first.cookies(linksOrigin)
    expect(siteCookie).toMatchObject({ name: 'ak_ref', domain: 'localhost' })
    expect(siteCookie!.value).toMatch(/^ANN\.\d+\.[\w-]{16}\.[\w-]{16}\.[\w-]{22}$/)
    expect(siteCookie!.value).toBe(linksCookie!.value)
    expect((await program.affiliates.get('ann@example.com')).clicks).toBe(1)
    expect(await page.evaluate(() => (window as unknown as { affiliateKit: Kit }).affiliateKit.signup('cross@example.com'))).toEqual({ signedUp: true, reason: 'created' })
    expect((await program.referrals.get('cross@example.com')).affiliateId).toBe(ann.id)
    // An unsigned referral of the same code (a visit past its address's bound) leaves the signed one in place.
    await page.goto(`${siteOrigin}/shop?ak_ref=ANN.${Math.floor(Date.now() / 1000) + 86_400}`)
    expect(page.url()).toBe(`${siteOrigin}/shop`)
    expect(await page.evaluate(() => localStorage.getItem('ak_ref'))).toBe(siteCookie!.value)

    // A link straight to the site (?ref=): the snippet reports the click to the tracking host and keeps the signed answer.
    const second = await visitor('cross-two')
    const page2 = await second.newPage()
    await page2.goto(`${siteOrigin}/shop?ref=BOB`)
    await expect.poll(() => page2.evaluate(() => localStorage.getItem('ak_ref'))).toMatch(/^BOB\.\d+\.[\w-]{16}\.[\w-]{16}\.[\w-]{22}$/)
    expect(await page2.evaluate(() => (window as unknown as { affiliateKit: Kit }).affiliateKit.signup('direct-link@example.com'))).toEqual({ signedUp: true, reason: 'created' })
    expect((await program.referrals.get('direct-link@example.com')).affiliateId).toBe(bob.id)
    await Promise.all([first.close(), second.close()])
  }, 60_000)
})
