// The referral link the standalone server's portal shows, in Chromium: the server put together
// as `serve` does (API, tracking, portal from one config) on 127.0.0.1, the site with the snippet
// on localhost. The link an affiliate copies from the portal, opened by a new visitor, counts the
// click and leaves the referral with the site, for both kinds of link.
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import type { ServerConfig } from '../../src/cli/config.js'
import { configuredPortal, withPortal } from '../../src/cli/portal-mount.js'
import { withTracking } from '../../src/cli/tracking-mount.js'
import { createHandler } from '../../src/http/index.js'
import { toNodeHandler } from '../../src/server/node.js'
import { createAffiliateProgram } from '../../src/index.js'
import { launchBrowser } from '../support/browser-helpers.js'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

async function listen(): Promise<{ server: Server; port: number }> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

describe('the portal referral link on the standalone server, in Chromium', () => {
  let browser: Browser
  const servers: Server[] = []
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    for (const server of servers) server.close()
  })

  for (const kind of ['tracking', 'landing'] as const) {
    it(`${kind}: the link shown in the portal counts the visitor's click and the site keeps the referral`, async () => {
      const storage = memoryStorage()
      const program = await createAffiliateProgram({ storage })
      await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const publishable = (await program.keys.createPublishable({ name: 'site' })).key
      const app = await listen()
      const site = await listen()
      servers.push(app.server, site.server)
      const appOrigin = `http://127.0.0.1:${app.port}`
      const siteOrigin = `http://localhost:${site.port}`
      site.server.on('request', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        res.end(`<!doctype html><html lang="en"><head><title>Shop</title>
<script src="${appOrigin}/r/-/affiliate-kit.js" data-key="${publishable}"></script></head><body><h1>Shop</h1></body></html>`)
      })
      // As serve composes it; the "tracking" kind is the default once a public URL is configured.
      const config: ServerConfig = {
        tracking: { landingUrl: `${siteOrigin}/shop` },
        portal: { enabled: true, publicUrl: appOrigin, ...(kind === 'landing' ? { referralLink: 'landing' } : {}) },
      }
      const portal = configuredPortal(program, { sessions: storage.sessions, state: storage.keyedState }, config.portal!, config.tracking)
      const api = withTracking(program, storage.keyedState, config.tracking!, toNodeHandler(createHandler(program))).handler
      app.server.on('request', withPortal(api, portal, '/portal') as RequestListener)

      const affiliate = await browser.newContext({ userAgent: `${BROWSER} affiliate` })
      const page = await affiliate.newPage()
      await page.goto((await portal.createSignInLink('ann@example.com')).url)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${appOrigin}/portal/`)
      const link = await page.getByRole('textbox', { name: 'Referral link' }).inputValue()
      expect(link).toBe(kind === 'tracking' ? `${appOrigin}/r/ANN` : `${siteOrigin}/shop?ref=ANN`)

      const visitor = await browser.newContext({ userAgent: `${BROWSER} visitor` })
      const visit = await visitor.newPage()
      const landed = await visit.goto(link)
      expect(landed!.status()).toBe(200)
      expect(visit.url()).toBe(`${siteOrigin}/shop${kind === 'tracking' ? '' : '?ref=ANN'}`)
      // serve's click buffer writes the click within its second (tracking.clicks.flushMilliseconds): past the poll's default wait.
      await expect.poll(async () => (await program.affiliates.get('ann@example.com')).clicks, { timeout: 5000 }).toBe(1)
      // The referral the site keeps is signed: a signup from the site is credited to ANN.
      await expect.poll(() => visit.evaluate(() => localStorage.getItem('ak_ref'))).toMatch(/^ANN\.\d+\.[\w-]{16}\.[\w-]{16}\.[\w-]{22}$/)
      const signedUp = await visit.evaluate(() => (window as unknown as { affiliateKit: { signup(email: string): Promise<{ signedUp: boolean; reason: string }> } }).affiliateKit.signup('visitor@example.com'))
      expect(signedUp).toEqual({ signedUp: true, reason: 'created' })
      expect((await program.referrals.get('visitor@example.com')).affiliateId).toBe((await program.affiliates.get('ann@example.com')).id)
      await Promise.all([affiliate.close(), visitor.close()])
    }, 60_000)
  }
})
