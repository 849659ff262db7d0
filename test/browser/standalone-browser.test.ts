// The standalone server end to end, as a new user runs it: the built `affiliate-kit serve` with
// only a config file (embedded PGlite in a temporary directory), a publishable key made with the
// CLI, a shop's landing page on another site (localhost, while tracking and the portal are on
// 127.0.0.1) that loads the served snippet. In Chromium a visitor clicks /r/ANN, lands on the shop
// with the referral carried along, signs up through the snippet and buys (the shop's back end
// records the purchase through the REST API by email): Ann is credited. Ann then signs in to the
// portal through a link made with `affiliate-kit portal link` and sees the purchase.
// Runs dist/cli/main.js: build first (npx tsup, or npm run build).
import { existsSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, screenshot, seriousViolations } from '../support/browser-helpers.js'
import { api, freePort, run, type Running } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'

const BUILT_CLI = fileURLToPath(new URL('../../.test-build/cli/main.js', import.meta.url))
const tempDir = tempDirs('affiliate-kit-standalone-browser')

/** The built command, run in the server's directory. */
const builtCli = (args: string[], cwd: string): Running => run(args, { cwd, command: [process.execPath, BUILT_CLI] })

async function cliOutput(args: string[], cwd: string): Promise<string> {
  const child = builtCli(args, cwd)
  const code = await child.exited
  if (code !== 0) throw new Error(`affiliate-kit ${args.join(' ')} exited ${code}: ${child.output()}`)
  return child.output().trim()
}

/** The shop's landing page: the snippet from the tracking host, and a signup form that reports through it. */
function landingPage(snippetUrl: string, publishableKey: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme shop</title>
<script src="${snippetUrl}" data-key="${publishableKey}"></script></head>
<body><main><h1>Welcome to Acme</h1>
<form id="signup"><label for="email">Email</label> <input id="email" type="email" required> <button type="submit">Create account</button></form>
<p id="status" role="status"></p></main>
<script>
document.getElementById('signup').addEventListener('submit', function (event) {
  event.preventDefault()
  window.affiliateKit.signup(document.getElementById('email').value).then(function (result) {
    document.getElementById('status').textContent = result.signedUp ? 'Account created' : 'Account created (no referral reported: ' + result.reason + ')'
  })
})
</script></body></html>`
}

describe('the standalone server from a config file alone, in Chromium', () => {
  let browser: Browser
  let landing: Server
  let serverProcess: Running | undefined
  beforeAll(async () => {
    if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: build first (npx tsup)`)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await serverProcess?.stop()
    await new Promise((resolve) => (landing ? landing.close(resolve) : resolve(undefined)))
  })

  it('credits a visitor who clicks a referral link, signs up on another site and buys, and the affiliate sees it after signing in by a CLI link', async () => {
    const dir = tempDir()
    let publishableKey = ''
    // The shop: a landing page on localhost, another site than the server's 127.0.0.1.
    landing = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(landingPage(`${trackingOrigin}/r/-/affiliate-kit.js`, publishableKey))
    })
    await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve))
    const landingUrl = `http://localhost:${(landing.address() as AddressInfo).port}/welcome`
    const port = await freePort()
    const trackingOrigin = `http://127.0.0.1:${port}`
    writeFileSync(
      join(dir, 'affiliate.config.json'),
      JSON.stringify({
        currency: 'USD',
        commission: { purchase: { type: 'percentage', rate: 30 } },
        tracking: { landingUrl },
        portal: { enabled: true, publicUrl: trackingOrigin },
      }),
    )

    // Only the config file: the data lands in ./affiliate-data of the server's directory.
    serverProcess = builtCli(['serve', '--port', String(port), '--config', 'affiliate.config.json'], dir)
    // A first start creates the PGlite database: slow on a busy machine.
    const [, apiUrl] = await serverProcess.waitFor(/listening on (http:\/\/\S+)/, 240_000)
    const [, secretKey] = await serverProcess.waitFor(/shown once, keep it\): (rgk_\w+)/, 60_000)
    expect(existsSync(join(dir, 'affiliate-data'))).toBe(true)
    const ann = await api(apiUrl!, secretKey!, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
    expect(ann.status).toBe(201)
    publishableKey = (await cliOutput(['keys', 'create', '--publishable', '--name', 'shop'], dir)).match(/^rgp_\w+$/m)![0]

    // The visitor: a referral link on the tracking host, then the shop on another site.
    // A browser's user agent: tracking drops bots, and headless Chromium names itself one.
    const visitor = await browser.newContext({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' })
    const page = await visitor.newPage()
    await page.goto(`${trackingOrigin}/r/ANN`)
    expect(new URL(page.url()).origin).toBe(new URL(landingUrl).origin)
    await page.waitForFunction(() => 'affiliateKit' in window)
    const referral = await page.evaluate(() => (window as unknown as { affiliateKit: { getReferral(): string | null } }).affiliateKit.getReferral())
    expect(referral, `the redirect to the landing page on another host must carry the referral to the snippet (landed on ${page.url()})`).toBe('ANN')
    await page.getByLabel('Email').fill('bob@example.com')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect.poll(() => page.locator('#status').textContent()).toBe('Account created')
    const referred = await api(apiUrl!, secretKey!, 'GET', '/referrals/bob%40example.com')
    expect(referred).toMatchObject({ status: 200, body: { data: { affiliate_id: ann.body!.data.id } } })

    // The purchase, from the shop's back end: by the customer's email, 30 % of 49.00.
    const purchase = await api(apiUrl!, secretKey!, 'POST', '/conversions', { type: 'purchase', email: 'bob@example.com', base_value: 49, reference: 'order-1' })
    expect(purchase).toMatchObject({ status: 201, body: { data: { affiliate_id: ann.body!.data.id, value: 14.7 }, attribution: { matched_by: 'email' } } })
    // serve's click buffer writes the click within its second (tracking.clicks.flushMilliseconds).
    await expect.poll(async () => (await api(apiUrl!, secretKey!, 'GET', '/affiliates/ann%40example.com')).body?.data?.clicks, { timeout: 5000 }).toBe(1)
    const credited = await api(apiUrl!, secretKey!, 'GET', '/affiliates/ann%40example.com')
    expect(credited.body!.data).toMatchObject({ clicks: 1, signups: 1, purchases: 1, total_earnings: '14.70' })

    // The affiliate: a sign-in link made with the CLI, opened in their own browser.
    const link = (await cliOutput(['portal', 'link', 'ann@example.com'], dir)).split('\n')[0]!
    expect(link.startsWith(`${trackingOrigin}/portal/sign-in?token=`)).toBe(true)
    const affiliate = await browser.newContext()
    const portal = await affiliate.newPage()
    await portal.goto(link)
    await portal.getByRole('button', { name: 'Sign in' }).click()
    await portal.waitForURL(`${trackingOrigin}/portal/`)
    await portal.getByRole('link', { name: 'Conversions' }).click()
    const row = portal.locator('tbody tr').first()
    await expect.poll(() => row.textContent()).toMatch(/Purchase[\s\S]*14\.70/)
    expect(await seriousViolations(portal)).toEqual([])
    await screenshot(portal, 'standalone-portal-conversions')

    await visitor.close()
    await affiliate.close()
    expect(await serverProcess.stop()).toBe(0)
  }, 480_000)
})
