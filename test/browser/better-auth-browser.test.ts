// The Better Auth example in Chromium (docs/embed.md "Better Auth"): a visitor follows Ann's
// referral link, signs up in the app, and is then a referred user of Ann; the dashboard page of
// the app frames the new user's own referral dashboard, the user enrolled as an affiliate on demand.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { start } from '../../examples/better-auth/server.js'
import { launchBrowser, screenshot } from '../support/browser-helpers.js'

/** Headless Chromium names itself HeadlessChrome, which the links count as a bot. */
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

describe('Better Auth example in Chromium', () => {
  let app: Awaited<ReturnType<typeof start>>
  let browser: Browser

  beforeAll(async () => {
    app = await start(0)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await app?.close()
  })

  it("makes a sign-up through Ann's link a referred user of Ann, and opens the new user's dashboard in the app", async () => {
    const ann = await app.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const context = await browser.newContext({ userAgent: USER_AGENT })
    const page = await context.newPage()
    await page.goto(`${app.url}/r/ANN`)
    expect(new URL(page.url()).pathname).toBe('/')
    await page.click('text=Create your account')
    await page.fill('input[name=name]', 'Cy')
    await page.fill('input[name=email]', 'cy@example.com')
    await page.fill('input[name=password]', 'a long password')
    await page.click('button[type=submit]')
    await page.waitForURL(`${app.url}/dashboard`)
    expect(await app.program.referrals.get('cy@example.com')).toMatchObject({ affiliateId: ann.id })
    expect((await app.program.affiliates.get(ann.id)).signups).toBe(1)

    await expect.poll(() => page.frames().some((frame) => frame.url().includes('/portal/embed')), { timeout: 15_000 }).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().includes('/portal/embed'))!
    await frame.waitForSelector('[data-section="earnings"]')
    const cy = await app.program.affiliates.get('cy@example.com')
    expect(cy).toMatchObject({ name: 'Cy', status: 'active', externalId: expect.stringMatching(/^\S+$/) })
    expect(await frame.$eval('[data-referral-link]', (input) => (input as HTMLInputElement).value)).toBe(`${app.url}/?ref=${cy.referralCode}`)
    expect(await frame.content()).not.toContain('ANN')
    await screenshot(page, 'better-auth-dashboard')
    await context.close()
  })

  it('records no referral for a sign-up without a link, or with a forged referral cookie, and needs a session for a token', async () => {
    const context = await browser.newContext({ userAgent: USER_AGENT })
    await context.addCookies([{ name: 'ak_ref', value: 'ANN.9999999999', url: app.url }])
    const page = await context.newPage()
    await page.goto(`${app.url}/signup`)
    await page.fill('input[name=name]', 'Dee')
    await page.fill('input[name=email]', 'dee@example.com')
    await page.fill('input[name=password]', 'a long password')
    await page.click('button[type=submit]')
    await page.waitForURL(`${app.url}/dashboard`)
    await expect(app.program.referrals.get('dee@example.com')).rejects.toMatchObject({ code: 'not_found' })
    expect((await fetch(`${app.url}/api/auth/affiliate-kit/embed-token`, { method: 'POST' })).status).toBe(401)
    await context.close()
  })
})
