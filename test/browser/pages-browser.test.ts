// Every page of the admin console and the affiliate portal in real Chromium, at 1280 px and at
// phone width (390 px): each passes axe-core, none is wider than the screen (tables scroll inside
// their card), and each is written to test-output/screenshots/ as <app>-<page>-<width>.png. Also:
// an empty program leads to its first affiliate, a coupon is created and turned off, the
// conversions filters sit in one row above a full-width table, a CSV export downloads, and the
// portal chart's axis labels and figures are readable without hovering.
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { adminFixture, owedAffiliate, type AdminFixture } from '../support/admin/helpers.js'
import { launchBrowser, screenshot, seriousViolations } from '../support/browser-helpers.js'

const WIDTHS = [1280, 390] as const

describe('console and portal pages in Chromium at 1280 px and 390 px', () => {
  let fixture: AdminFixture
  let server: Server
  let base: string
  let browser: Browser
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    fixture = await adminFixture({}, { publicUrl: 'https://go.example' })
    const api = createHandler(fixture.program, { auditLog: fixture.storage })
    server = createServer((req, res) =>
      req.url?.startsWith('/admin') ? fixture.admin.node(req, res) : req.url?.startsWith('/portal') ? fixture.portal.node(req, res) : api.node(req, res),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launchBrowser()
    context = await browser.newContext({ acceptDownloads: true })
    page = await context.newPage()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  /** The page at each width: status 200, no serious axe violation, no sideways scrolling of the page, a screenshot. */
  async function everyWidth(on: Page, path: string, name: string): Promise<void> {
    for (const width of WIDTHS) {
      await on.setViewportSize({ width, height: 800 })
      const response = await on.goto(`${base}${path}`)
      expect([name, response!.status()]).toEqual([name, 200])
      expect(on.url()).toBe(`${base}${path}`) // the page itself, not the sign-in page it could redirect to
      expect([name, width, await seriousViolations(on)]).toEqual([name, width, []])
      expect([name, width, await on.evaluate(() => document.documentElement.scrollWidth)]).toEqual([name, width, width])
      await screenshot(on, `${name}-${width}`)
    }
    await on.setViewportSize({ width: 1280, height: 800 })
  }

  async function signIn() {
    await page.goto(`${base}/admin/sign-in`)
    await page.getByLabel('Admin API key').fill(fixture.adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/admin/`)
  }

  it('leads an empty program to its first affiliate, and creates it from the form', async () => {
    await signIn()
    await everyWidth(page, '/admin/', 'admin-affiliates-empty')
    await everyWidth(page, '/admin/dashboard', 'admin-dashboard-empty')
    await page.getByRole('link', { name: 'Create your first affiliate' }).click()
    await page.waitForURL(`${base}/admin/affiliates/new`)
    await page.getByLabel('Email').fill('ann@example.com')
    await page.getByLabel('Name (optional)').fill('Ann Example')
    await page.getByLabel('Referral code (optional)').fill('ANN')
    await page.getByRole('button', { name: 'Create affiliate' }).click()
    await page.getByText('The affiliate is created.').waitFor()
    expect(await fixture.program.affiliates.get('ann@example.com')).toMatchObject({ name: 'Ann Example', referralCode: 'ANN', status: 'active' })
  })

  it('creates a coupon for the affiliate and turns it off', async () => {
    await page.getByRole('link', { name: 'Coupons' }).click()
    await page.getByLabel('Code').fill('ANN10')
    await page.getByLabel('Affiliate (email or id)', { exact: true }).last().fill('ann@example.com')
    await page.getByLabel('Discount', { exact: true }).selectOption('percentage')
    await page.getByLabel('Discount value (optional)').fill('10')
    await page.getByRole('button', { name: 'Create coupon' }).click()
    await page.getByText('The coupon is created.').waitFor()
    await page.getByRole('button', { name: 'Turn off coupon ANN10' }).click()
    await page.getByText('The coupon is turned off').waitFor()
    expect((await fixture.program.coupons.list({ code: 'ANN10' })).items[0]!.status).toBe('inactive')
  })

  it('shows every console page at both widths, passing axe', async () => {
    const { program, clock } = fixture
    const ann = await program.affiliates.get('ann@example.com')
    await program.coupons.create({ affiliateId: ann.id, code: 'ANNSPRING', discountType: 'fixed', discountValue: '5.00', processorCouponId: 'promo_1Qx2' })
    for (let n = 0; n < 12; n += 1) await program.trackClick({ referralCode: 'ANN' })
    for (let n = 0; n < 6; n += 1) {
      await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: `buyer${n}@example.com`, baseValue: `${19 + n * 10}.99`, reference: `order-${n}` })
    }
    await owedAffiliate(program, 'bob@example.com', [99.99, 49], { name: 'Bob Builder', paypalEmail: 'bob@paypal.test' })
    await program.affiliates.create({ email: 'pending@example.com', name: 'Pat Pending', status: 'pending' })
    const self = await program.affiliates.create({ email: 'self@example.com' })
    await program.conversions.create({ type: 'purchase', affiliateId: self.id, email: 'self@example.com', baseValue: 10, reference: 'self' })
    clock.advance({ days: 33 })
    await program.payouts.create({ affiliateId: ann.id, amount: '10.00', method: 'paypal' })
    for (let n = 0; n < 4; n += 1) await program.trackClick({ referralCode: 'ANN' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'march@example.com', baseValue: 120, reference: 'order-march' })
    await program.webhooks.create({ url: 'https://hooks.example.com/affiliates', events: ['payout.created'], secret: 'whsec_test' })
    await program.links.create({ affiliate: ann.id, key: 'ann-youtube', destination: 'https://shop.example/pricing?plan=pro', utmSource: 'youtube', utmMedium: 'video', utmCampaign: 'spring-launch' })
    await program.affiliates.addAlias(ann.id, 'ann-old')
    const [conversion] = (await program.conversions.list({ affiliateId: ann.id, limit: 1 })).items
    await signIn() // the session ended with the 33 days

    const pages: Array<[string, string]> = [
      ['/admin/dashboard', 'admin-dashboard'],
      ['/admin/', 'admin-affiliates'],
      ['/admin/affiliates/new', 'admin-affiliate-new'],
      [`/admin/affiliates/${ann.id}`, 'admin-affiliate-edit'],
      ['/admin/coupons', 'admin-coupons'],
      ['/admin/review', 'admin-review'],
      ['/admin/conversions', 'admin-conversions'],
      [`/admin/conversions/${conversion!.id}`, 'admin-conversion'],
      ['/admin/payouts', 'admin-payouts'],
      ['/admin/webhooks', 'admin-webhooks'],
      ['/admin/keys', 'admin-keys'],
      ['/admin/provider-events', 'admin-provider-events'],
      ['/admin/audit-log', 'admin-audit-log'],
      ['/admin/settings', 'admin-settings'],
    ]
    for (const [path, name] of pages) await everyWidth(page, path, name)
    const signedOut = await (await browser.newContext()).newPage()
    await everyWidth(signedOut, '/admin/sign-in', 'admin-sign-in')
    await signedOut.context().close()

    await page.goto(`${base}/admin/dashboard`)
    expect(await page.locator('[data-measure="clicks"] [data-month="current"]').innerText()).toBe('4')
    expect(await page.locator('[data-measure="clicks"] [data-month="previous"]').innerText()).toBe('12')
  }, 180_000)

  it('sets the conversions filters in one row above a table as wide as the page column', async () => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${base}/admin/conversions`)
    const boxes = await page.locator('form.filters .field').evaluateAll((fields) =>
      fields.map((field) => {
        const label = field.querySelector('label')!.getBoundingClientRect()
        const control = field.querySelector('input, select')!.getBoundingClientRect()
        return { top: Math.round(control.top), labelHeight: label.height, controlHeight: control.height }
      }),
    )
    expect(boxes).toHaveLength(5)
    expect(new Set(boxes.map((box) => box.top)).size).toBe(1) // one row
    const lineHeight = await page.locator('form.filters label').first().evaluate((label) => parseFloat(getComputedStyle(label).lineHeight))
    for (const box of boxes) expect(box.labelHeight).toBeLessThan(lineHeight * 1.5) // no label or date on two lines
    const dateFits = await page.locator('#filter-from').evaluate((input) => input.getBoundingClientRect().width)
    expect(dateFits).toBeGreaterThanOrEqual(150)
    const form = await page.locator('form.filters').boundingBox()
    const table = await page.locator('table').first().boundingBox()
    expect(table!.y).toBeGreaterThan(form!.y + form!.height)
    expect(table!.width).toBeGreaterThan(1100)
    expect(Math.abs(table!.width - form!.width)).toBeLessThan(60) // the table spans the card, as wide as the filters

    const downloading = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export CSV' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe('conversions-2026-03-06.csv')
    const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n').filter(Boolean)
    expect(lines[0]).toBe('id,created_at,affiliate_id,affiliate_email,type,customer_email,reference,sale_amount,sale_currency,refunded,commission,currency,status,hold_until,paid')
    expect(lines).toHaveLength(1 + (await fixture.program.conversions.list()).total)
  })

  it('shows every portal page at both widths, passing axe, with a chart whose axes and figures need no hovering', async () => {
    const portal = await (await browser.newContext()).newPage()
    await everyWidth(portal, (await fixture.portal.createSignInLink('ann@example.com')).url, 'portal-sign-in')
    await portal.getByRole('button', { name: 'Sign in' }).click()
    await portal.waitForURL(`${base}/portal/`)
    const [conversion] = (await fixture.program.conversions.list({ affiliateId: (await fixture.program.affiliates.get('ann@example.com')).id, limit: 1 })).items
    const pages: Array<[string, string]> = [
      ['/portal/', 'portal-overview'],
      ['/portal/?days=90', 'portal-overview-90'],
      ['/portal/conversions', 'portal-conversions'],
      [`/portal/conversions/${conversion!.id}`, 'portal-conversion'],
      ['/portal/links', 'portal-links'],
      ['/portal/payouts', 'portal-payouts'],
      ['/portal/settings', 'portal-settings'],
    ]
    for (const [path, name] of pages) await everyWidth(portal, path, name)

    for (const width of WIDTHS) {
      await portal.setViewportSize({ width, height: 800 })
      await portal.goto(`${base}/portal/`)
      const labels = await portal.locator('.count-axis span, .date-axis span').evaluateAll((spans) =>
        spans.map((span) => ({ text: span.textContent, size: parseFloat(getComputedStyle(span).fontSize), visible: span.getBoundingClientRect().width > 0 })),
      )
      expect(labels.map((label) => label.text)).toEqual(['4', '2', '0', '5 Feb', '12 Feb', '20 Feb', '27 Feb', '6 Mar'])
      for (const label of labels) expect([label.text, label.size >= 12, label.visible]).toEqual([label.text, true, true])
      // The date labels do not overlap at either width.
      const spans = await portal.locator('.date-axis span').evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect()).map((box) => [box.left, box.right]))
      for (let index = 1; index < spans.length; index += 1) expect(spans[index]![0]!).toBeGreaterThan(spans[index - 1]![1]!)
      expect(await portal.locator('[data-chart-total="clicks"]').innerText()).toBe('4')
      expect(await portal.locator('[data-chart-total="purchases"]').innerText()).toBe('1')
    }
    await portal.getByText('Figures by day').click()
    expect((await portal.getByRole('row', { name: /2026-03-06/ }).innerText()).split(/\s+/)).toEqual(['2026-03-06', '4', '1', '1'])
    await screenshot(portal, 'portal-overview-figures-1280')
    await portal.context().close()
  }, 180_000)
})
