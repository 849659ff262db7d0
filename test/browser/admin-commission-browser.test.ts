// Commission rules in the admin console, in real Chromium with axe-core: an affiliate's own rules
// set in its edit form (a refused rule shown in place), a conversion showing the rule that earned
// it, and "What would this earn?" answering what the API's preview answers, recording nothing.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminFixture, type AdminFixture } from '../support/admin/helpers.js'
import { browserSite, type BrowserSite, screenshot, seriousViolations } from '../support/browser-helpers.js'

describe('commission rules in the admin console (Chromium)', () => {
  let fixture: AdminFixture
  let site: BrowserSite
  let base: string
  let browser: Browser
  let page: Page
  let maxId = 0

  beforeAll(async () => {
    fixture = await adminFixture()
    const { program } = fixture
    const settings = await program.settings()
    await program.projects.updateSettings(program.projectId, {
      ...settings,
      commission: { purchase: { type: 'percentage', rate: 30 }, products: { prod_pro: { purchase: { type: 'percentage', rate: 15 } }, prod_setup: { excluded: true } } },
    } as Parameters<typeof program.projects.updateSettings>[1])
    maxId = (await program.affiliates.create({ email: 'max@example.com', referralCode: 'MAX' })).id
    site = await browserSite((req, res) => fixture.admin.node(req, res))
    base = site.base
    browser = site.browser
    page = await browser.newPage()
    await page.goto(`${base}/admin/`)
    await page.getByLabel('Admin API key').fill(fixture.adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/admin/`)
  }, 60_000)

  afterAll(async () => {
    await site?.close()
  })

  async function check(name: string) {
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, `admin-${name}`)
  }

  it("sets an affiliate's own rules in its edit form, refusing a bad rule in place", async () => {
    await page.goto(`${base}/admin/affiliates/${maxId}`)
    const rules = page.getByLabel('Own commission rules (JSON)')
    await rules.fill('{"purchase": {"type": "percentage", "rate": 500}}')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('alert').waitFor()
    expect(await page.getByRole('alert').textContent()).toContain('commission.purchase.rate')
    expect(await rules.getAttribute('aria-invalid')).toBe('true')
    await check('affiliate-commission-refused')
    expect((await fixture.program.affiliates.get(maxId)).commission).toBeNull()
    await rules.fill('{"purchase": {"type": "percentage", "rate": 50}}')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('The affiliate is saved.').waitFor()
    expect((await fixture.program.affiliates.get(maxId)).commission).toEqual({ purchase: { type: 'percentage', rate: 50 } })
  })

  it('shows the rule that earned a conversion', async () => {
    const { conversion } = await fixture.program.conversions.create({ type: 'purchase', affiliateId: maxId, baseValue: '100.00', productId: 'prod_setup' })
    await page.goto(`${base}/admin/conversions/${conversion.id}`)
    expect(await page.getByRole('row', { name: /Rule/ }).textContent()).toContain('Product rule: excluded')
    expect(await page.getByRole('row', { name: /Product/ }).first().textContent()).toContain('prod_setup')
    await check('conversion-rule')
  })

  it('answers "what would this earn?" as the preview does, recording nothing', async () => {
    const before = (await fixture.program.conversions.list({ limit: 1 })).total
    await page.goto(`${base}/admin/conversions`)
    await page.getByRole('link', { name: 'What would a conversion earn?' }).click()
    await page.getByLabel('Affiliate (id or referral code; empty: found by the customer)').fill('MAX')
    await page.getByLabel('Sale amount').fill('99.00')
    await page.getByLabel('Product id').fill('prod_pro')
    await page.getByRole('button', { name: 'Preview' }).click()
    await page.getByRole('heading', { name: 'It would earn 49.50 USD' }).waitFor()
    expect(await page.getByRole('row', { name: /Rule/ }).textContent()).toContain("Affiliate's own rule: purchase, 50 %")
    await check('conversion-preview')
    const preview = await fixture.program.conversions.preview({ type: 'purchase', referralCode: 'MAX', baseValue: '99.00', productId: 'prod_pro' })
    expect(preview.value).toBe('49.50')
    await page.getByLabel('Affiliate (id or referral code; empty: found by the customer)').fill('NOBODY')
    await page.getByRole('button', { name: 'Preview' }).click()
    await page.getByRole('alert').waitFor()
    await check('conversion-preview-refused')
    expect((await fixture.program.conversions.list({ limit: 1 })).total).toBe(before)
  })
})
