// The referred customer's banner in a real browser (Debian's Chromium through playwright-core):
// a shop page with the served snippet, reached through Ann's link, shows the configured incentive
// in the browser's language, and its checkout gets the Stripe fields that apply the coupon and
// name Ann; a visitor who came with no link sees no banner and gets no fields.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, type AffiliateProgram } from '../../src/index.js'
import { createTrackingHandler } from '../../src/tracking/index.js'
import { launchBrowser } from '../support/browser-helpers.js'

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

describe('the incentive banner in Chromium', () => {
  let browser: Browser
  let server: Server
  let origin: string
  let program: AffiliateProgram

  beforeAll(async () => {
    browser = await launchBrowser()
    program = await createAffiliateProgram({
      storage: memoryStorage(),
      settings: { incentives: { customer: { percentOff: 20, duration: 'repeating', durationInMonths: 3, stripe: { couponId: 'REFERRED20' } } } },
    })
    await program.affiliates.create({ email: 'ann@example.com', name: 'Ann Lee', referralCode: 'ANN' })
    const publishable = (await program.keys.createPublishable({ name: 'shop' })).key
    server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const tracking = createTrackingHandler(program, { landingUrl: `${origin}/shop` }).node
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', origin)
      if (url.pathname.startsWith('/r/')) return tracking(req, res)
      if (url.pathname === '/checkout') {
        // The shop's server: the fields it would spread into stripe.checkout.sessions.create.
        void program.checkout.stripeParams({ referral: url.searchParams.get('ref') }).then((params) => {
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify(params))
        })
        return
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><html lang="en"><head><title>Shop</title>
<script src="/r/-/affiliate-kit.js" data-key="${publishable}"></script></head>
<body><p id="banner" hidden></p><h1>Shop</h1>
<script>affiliateKit.incentive().then(function (offer) { var b = document.getElementById('banner'); if (offer) { b.textContent = offer.text; b.hidden = false } b.dataset.done = '1' })</script>
</body></html>`)
    })
  })
  afterAll(async () => {
    await browser?.close()
    server?.close()
  })

  it("shows Ann's visitor the configured offer in its language, and the checkout applies the coupon and names Ann", async () => {
    const context = await browser.newContext({ userAgent: USER_AGENT, locale: 'fr-FR' })
    const page = await context.newPage()
    await page.goto(`${origin}/r/ANN`)
    await page.waitForSelector('#banner[data-done]', { state: 'attached' })
    expect((await page.textContent('#banner'))!.replace(/\s/g, ' ')).toBe('20 % de réduction pendant 3 mois grâce à Ann')
    const params = await page.evaluate(async () => {
      const ref = (window as unknown as { affiliateKit: { getReferral(): string | null } }).affiliateKit.getReferral()
      return (await fetch(`/checkout?ref=${ref}`)).json()
    })
    expect(params).toEqual({ client_reference_id: 'ANN', metadata: { referral: 'ANN' }, discounts: [{ coupon: 'REFERRED20' }] })
    await context.close()
  }, 60_000)

  it('shows a visitor with no referral nothing, and its checkout gets no fields', async () => {
    const context = await browser.newContext({ userAgent: USER_AGENT })
    const page = await context.newPage()
    await page.goto(`${origin}/shop`)
    await page.waitForSelector('#banner[data-done]', { state: 'attached' })
    expect(await page.isHidden('#banner')).toBe(true)
    expect(await page.evaluate(async () => (await fetch('/checkout?ref=')).json())).toEqual({})
    await context.close()
  }, 60_000)
})
