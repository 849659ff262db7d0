// Tax details and GDPR erase in real Chromium: the affiliate fills in the portal's tax form (a bad
// value is shown, the tax id only by its last four afterwards, never in the page's HTML); the
// owner sees it masked in the console, sees who cannot be paid without tax details, erases the affiliate through the confirm page (a form, not
// a script dialog), and its totals stay. axe-core on every page.
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage, memoryStoredText } from '../../src/adapters/memory/index.js'
import { createAdminConsole } from '../../src/admin/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { createPortal } from '../../src/portal/index.js'
import { browserSite, type BrowserSite, screenshot, seriousViolations } from '../support/browser-helpers.js'

describe('tax form and erase in Chromium', () => {
  const storage = memoryStorage()
  let program: AffiliateProgram
  let portal: ReturnType<typeof createPortal>
  let adminKey: string
  let site: BrowserSite
  let base: string
  let browser: Browser
  let page: Page
  let annId: number

  beforeAll(async () => {
    program = await createAffiliateProgram({
      storage,
      clock: testClock('2026-02-01T00:00:00Z'),
      settings: { payouts: { requireTaxDetails: true } },
      taxIdKeys: { current: { id: 'k1', key: randomBytes(32).toString('base64') } },
    })
    portal = createPortal(program, { sessions: storage })
    const admin = createAdminConsole(program, { sessions: storage, auditLog: storage })
    adminKey = (await program.keys.create({ name: 'Owner', scopes: ['*'] })).key
    const ann = await program.affiliates.create({ email: 'ann.tax@example.com', name: 'Ann Taxpayer', referralCode: 'ANNTAX' })
    annId = ann.id
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'buyer@example.com', baseValue: '100.00' })
    const bob = await program.affiliates.create({ email: 'bob.notax@example.com' })
    await program.conversions.create({ type: 'purchase', affiliateId: bob.id, baseValue: '50.00' })
    site = await browserSite((req, res) => (req.url?.startsWith('/admin') ? admin.node(req, res) : portal.node(req, res)))
    base = site.base
    browser = site.browser
    page = await browser.newPage()
  }, 60_000)

  afterAll(async () => {
    await site?.close()
  })

  async function check(name: string) {
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, name)
  }

  it('the affiliate saves tax details in the portal; the tax id is shown masked only', async () => {
    const { url } = await portal.createSignInLink('ann.tax@example.com')
    await page.goto(`${base}${url}`)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/portal/`)
    await page.getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('link', { name: 'Your tax details' }).click()
    await page.waitForURL(`${base}/portal/tax`)
    await check('portal-tax-empty')
    await page.getByLabel('Legal name').fill('Ann Taxpayer LLC')
    await page.getByLabel('Country').fill('fr')
    await page.getByLabel('Form').selectOption('W-9')
    await page.getByLabel('Tax id').fill('12-3456789')
    await page.getByRole('button', { name: 'Save tax details' }).click()
    await page.getByRole('alert').waitFor()
    expect(await page.getByRole('alert').textContent()).toBe('a W-9 is for US persons: choose W-8BEN outside the US')
    await check('portal-tax-refused')
    expect(await program.taxDetails.get(annId)).toBeNull()

    await page.getByLabel('Country').fill('US')
    await page.getByLabel('Tax id').fill('12-3456789')
    await page.getByRole('button', { name: 'Save tax details' }).click()
    await page.getByText('Your tax details are saved.').waitFor()
    expect(await page.locator('[data-tax-id]').textContent()).toBe('****6789')
    expect(await page.content()).not.toContain('123456789')
    await check('portal-tax-saved')
    expect(memoryStoredText(storage)).not.toContain('123456789')
  })

  it('the owner sees the tax id masked, and erases the affiliate after confirming; its totals stay', async () => {
    const before = await program.affiliates.get(annId)
    await page.goto(`${base}/admin/sign-in`)
    await page.getByLabel('Admin API key').fill(adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/admin/`)
    // Payouts: whoever has no tax details on file is owed but cannot be selected for payment.
    await page.goto(`${base}/admin/payouts`)
    expect(await page.locator('tr[data-owed="bob.notax@example.com"] [data-no-tax-details]').textContent()).toBe('No tax details')
    expect(await page.locator('tr[data-owed="bob.notax@example.com"] input[type=checkbox]').count()).toBe(0)
    expect(await page.locator('tr[data-owed="ann.tax@example.com"] input[type=checkbox]').count()).toBe(1)
    await check('admin-payouts-tax')
    await page.goto(`${base}/admin/affiliates/${annId}`)
    expect(await page.locator('[data-tax-id]').textContent()).toBe('****6789')
    expect(await page.content()).not.toContain('123456789')
    await check('admin-affiliate-tax')
    await page.getByRole('link', { name: "Erase this affiliate's personal data" }).click()
    await page.waitForURL(`${base}/admin/affiliates/${annId}/erase`)
    await check('admin-erase-confirm')
    // Nothing is erased by opening the page.
    expect((await program.affiliates.get(annId)).email).toBe('ann.tax@example.com')
    await page.getByRole('button', { name: 'Erase ann.tax@example.com' }).click()
    await page.getByText("The affiliate's personal data is erased; its amounts stay.").waitFor()
    await check('admin-erased')
    const after = await program.affiliates.get(annId)
    expect(after.email).toBe(`erased-${annId}@erased.invalid`)
    expect(after.earnings).toEqual(before.earnings)
    expect(await program.taxDetails.get(annId)).toBeNull()
    const stored = memoryStoredText(storage)!.toLowerCase()
    for (const gone of ['ann.tax@example.com', 'ann taxpayer', 'anntax']) expect(stored).not.toContain(gone)
  })
})
