// A program's own fraudCheck sends a conversion created over REST to review: the API answers its
// review_reason (both shapes), and the console's review queue, in real Chromium, shows that reason
// and approves it; axe-core on the queue.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAdminConsole, type AdminConsole } from '../../src/admin/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { browserSite, type BrowserSite, screenshot, seriousViolations } from '../support/browser-helpers.js'

const REASON = 'manual check: first order above 400.00 from a new country'

describe('fraudCheck in the console (Chromium)', () => {
  let program: AffiliateProgram
  let admin: AdminConsole
  let site: BrowserSite
  let base: string
  let key: string
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    const storage = memoryStorage()
    program = await createAffiliateProgram({
      storage,
      clock: testClock('2026-05-01T09:00:00Z'),
      fraudCheck: (conversion) => (conversion.baseValue !== null && Number(conversion.baseValue) > 400 ? { action: 'review', reason: REASON } : 'allow'),
    })
    admin = createAdminConsole(program, { sessions: storage, auditLog: storage })
    key = (await program.keys.create({ name: 'Owner', scopes: ['*'] })).key
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const primary = createHandler(program)
    const alternative = createHandler(program, { shape: 'alternative', basePath: '/alt/v1' })
    site = await browserSite((req, res) => (req.url?.startsWith('/admin') ? admin.node(req, res) : req.url?.startsWith('/alt') ? alternative.node(req, res) : primary.node(req, res)))
    base = site.base
    browser = site.browser
    page = await browser.newPage()
  }, 60_000)

  afterAll(async () => {
    await site?.close()
  })

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> & { conversion?: Record<string, unknown> } } }
  }

  it('answers review_reason over REST in both shapes: the reason when held, null when not', async () => {
    const held = await post('/api/v1/conversions', { type: 'purchase', referral_code: 'ANN', email: 'big@example.com', base_value: 450, reference: 'order-big' })
    expect(held.status).toBe(201)
    expect(held.body.data).toMatchObject({ status: 'review', review_reason: REASON })
    const fine = await post('/api/v1/conversions', { type: 'purchase', referral_code: 'ANN', email: 'small@example.com', base_value: 40 })
    expect(fine.body.data).toMatchObject({ status: 'active', review_reason: null })
    const alternative = await post('/alt/v1/conversions', { customer_email: 'huge@example.com', amount: 900, referral_code: 'ANN' })
    expect(alternative.status).toBe(201)
    expect(alternative.body.data?.conversion).toMatchObject({ status: 'review', review_reason: REASON })
  })

  it("shows the fraudCheck's reason in the review queue and approves the conversion", async () => {
    await page.goto(`${base}/admin/sign-in`)
    await page.getByLabel('Admin API key').fill(key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/admin/`)
    await page.getByRole('link', { name: 'Review' }).click()
    const held = (await program.conversions.list({})).items.find((item) => item.reference === 'order-big')!
    const row = page.locator(`tr[data-conversion="${held.id}"]`)
    expect(await row.locator('[data-reason]').textContent()).toBe('Manual check: first order above 400.00 from a new country')
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'admin-review-fraud-check')
    await row.getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Approve selected' }).click()
    await page.getByText('1 conversion decided.').waitFor()
    expect(await program.conversions.get(held.id)).toMatchObject({ status: 'active', reviewReason: REASON })
  })
})
