// Stripe Connect onboarding in real Chromium (docs/payouts.md "Stripe Connect"): the portal's
// Payouts page offers "Connect with Stripe", the button leads to a page linking to Stripe's hosted
// onboarding (made at the local Stripe), and back from Stripe the page names the account. axe-core
// on every page.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stripeConnect } from '../../src/payouts/stripe/connect.js'
import { browserSite, type BrowserSite, screenshot, seriousViolations } from '../support/browser-helpers.js'
import { SECRET_KEY, startFakeStripe } from '../support/payouts/stripe-fake.js'
import { portalFixture, type PortalFixture } from '../support/portal/helpers.js'

describe('Stripe Connect onboarding in Chromium', () => {
  let fixture: PortalFixture
  let fake: Awaited<ReturnType<typeof startFakeStripe>>
  let site: BrowserSite
  let base: string
  let browser: Browser

  beforeAll(async () => {
    fake = await startFakeStripe({ accounts: [] })
    const holder: { connect?: ReturnType<typeof stripeConnect> } = {}
    // The site first: Stripe's return address is built on the portal's public URL, which is the site's.
    site = await browserSite((req, res) => fixture.portal.node(req, res))
    base = site.base
    browser = site.browser
    fixture = await portalFixture({ publicUrl: base, stripeConnect: { onboardingLink: (id, urls) => holder.connect!.onboardingLink(id, urls) } })
    holder.connect = stripeConnect(fixture.program, { secretKey: SECRET_KEY, baseUrl: fake.url })
    const settings = await fixture.program.settings()
    await fixture.program.projects.updateSettings(fixture.program.projectId, { ...settings, payouts: { automatic: { stripe: true } } } as Parameters<typeof fixture.program.projects.updateSettings>[1])
    await fixture.program.affiliates.create({ email: 'ivy@example.com' })
  }, 60_000)

  afterAll(async () => {
    await site?.close()
    await fake?.close()
  })

  async function check(page: Page, name: string) {
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, name)
  }

  it('connects: the button, the link to Stripe, and the account named on return', async () => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(new URL((await fixture.portal.createSignInLink('ivy@example.com')).url, base).href)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/portal/`)
    await page.getByRole('link', { name: 'Payouts' }).click()
    expect(await page.locator('[data-stripe-connect]').textContent()).toContain('Connect a Stripe account to receive your payouts there.')
    await check(page, 'portal-stripe-connect')

    await page.getByRole('button', { name: 'Connect with Stripe' }).click()
    await page.waitForURL(`${base}/portal/payouts/stripe`)
    const link = page.getByRole('link', { name: 'Continue to Stripe' })
    expect(await link.getAttribute('href')).toBe('https://connect.stripe.com/setup/e/acct_1001/link1')
    await check(page, 'portal-stripe-continue')
    // The return address is on the portal's public URL.
    expect(fake.accountLinks).toEqual([{ account: 'acct_1001', returnUrl: `${base}/portal/payouts?stripe=return`, refreshUrl: `${base}/portal/payouts?stripe=refresh` }])

    await page.goto(fake.accountLinks[0]!.returnUrl)
    expect(await page.locator('[data-stripe-connect]').textContent()).toContain('Payouts go to your Stripe account ending in 1001.')
    expect(await page.getByRole('button', { name: 'Continue on Stripe' }).count()).toBe(1)
    await check(page, 'portal-stripe-connected')
  })
})
