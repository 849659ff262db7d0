// The performance tier in the pages: the portal's overview in real Chromium (axe-core) and the
// console's affiliate page show the tier held, the period's figures and the next tier (docs/commissions.md).
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserSite, type BrowserSite, seriousViolations } from '../support/browser-helpers.js'
import { portalFixture, type PortalFixture } from '../support/portal/helpers.js'
import { adminFixture, signedInAgent } from '../support/admin/helpers.js'

const pct = (rate: number) => ({ type: 'percentage' as const, rate })

describe('performance tier in the portal (Chromium)', () => {
  let fixture: PortalFixture
  let site: BrowserSite
  let base: string
  let browser: Browser

  beforeAll(async () => {
    fixture = await portalFixture()
    const { program, portal } = fixture
    await program.projects.updateSettings(program.projectId, {
      currency: 'USD',
      commission: { purchase: pct(30), tiers: [{ name: 'Silver', minCustomers: 2, purchase: pct(35) }, { name: 'Gold', minRevenue: '1000.00', purchase: pct(40) }] },
    })
    const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'one@example.com', baseValue: '100.00' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'two@example.com', baseValue: '50.00' })
    site = await browserSite((req, res) => portal.node(req, res))
    base = site.base
    browser = site.browser
  }, 60_000)

  afterAll(async () => {
    await site?.close()
  })

  it('shows Silver, 150.00 and 2 customers this month, and what Gold needs', async () => {
    const page = await browser.newPage()
    const { url } = await fixture.portal.createSignInLink('ann@example.com')
    await page.goto(`${base}${url}`)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/portal/`)
    const figure = (name: string) => page.locator(`[data-figure="${name}"]`).textContent()
    expect(await figure('tier')).toBe('Silver')
    expect(await figure('tier-revenue')).toBe('150.00 USD')
    expect(await figure('tier-customers')).toBe('2')
    expect(await figure('tier-next')).toBe('Gold: 1000.00 USD revenue this month')
    expect(await page.getByRole('heading', { name: 'Performance tier' }).isVisible()).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    const api = await fixture.program.affiliates.get('ann@example.com')
    expect(api).toMatchObject({ tier: 'Silver', tierProgress: { revenue: '150.00', customers: 2 } })
    await page.close()
  })
})

describe('performance tier in the console (plain fetch)', () => {
  it("the affiliate's page shows its tier card; none without tiers", async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const agent = await signedInAgent(fixture)
    expect(await (await agent.get(`/admin/affiliates/${ann.id}`)).text()).not.toContain('Performance tier')
    await program.projects.updateSettings(program.projectId, { commission: { purchase: pct(30), tiers: [{ name: 'Gold', minRevenue: '100.00', purchase: pct(40) }] } })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'one@example.com', baseValue: '120.00' })
    const page = await (await agent.get(`/admin/affiliates/${ann.id}`)).text()
    expect(page).toContain('Performance tier')
    expect(page).toMatch(/data-figure="tier">Gold</)
    expect(page).toMatch(/data-figure="tier-revenue">120\.00 USD</)
    expect(page).toMatch(/data-figure="tier-next">Top tier reached</)
  })
})
