// Payouts due and payout requests in real Chromium (docs/payouts.md): the portal shows the next
// payout or how far below the minimum the affiliate is, and an affiliate at the minimum asks to be
// paid; the console's Due page lists who is due, how much and which conversions, with the request,
// and marks them paid. axe-core on every page.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminFixture, owedAffiliate, type AdminFixture } from '../support/admin/helpers.js'
import { browserSite, type BrowserSite, screenshot, seriousViolations } from '../support/browser-helpers.js'

describe('payouts due and payout requests in Chromium', () => {
  let fixture: AdminFixture
  let site: BrowserSite
  let base: string
  let browser: Browser
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    fixture = await adminFixture()
    const { program, clock } = fixture
    const settings = await program.settings()
    const payouts = { minimumAmount: '20.00', termsDays: 0, schedule: { day: 1 }, requests: true }
    await program.projects.updateSettings(program.projectId, { ...settings, payouts } as Parameters<typeof program.projects.updateSettings>[1])
    ids.ann = (await owedAffiliate(program, 'ann@example.com', [100])).id // 30.00, hold ends March 3rd: payable April 1st
    ids.bob = (await owedAffiliate(program, 'bob@example.com', [50])).id // 15.00: 5.00 below the minimum
    ids.annSale = (await program.conversions.list({ affiliateId: ids.ann })).items[0]!.id
    clock.set('2026-04-02T09:00:00Z')
    site = await browserSite((req, res) => (req.url?.startsWith('/admin') ? fixture.admin.node(req, res) : fixture.portal.node(req, res)))
    base = site.base
    browser = site.browser
  }, 60_000)

  afterAll(async () => {
    await site?.close()
  })

  async function check(page: Page, name: string) {
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, name)
  }

  async function portalPage(email: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${base}${(await fixture.portal.createSignInLink(email)).url}`)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/portal/`)
    await page.getByRole('link', { name: 'Payouts' }).click()
    return page
  }

  it('shows an affiliate below the minimum how far it is, and lets one at the minimum request a payout', async () => {
    const bob = await portalPage('bob@example.com')
    expect(await bob.locator('[data-next-payout]').textContent()).toContain('5.00 USD below the minimum payout of 20.00 USD: 15.00 USD will be payable on 2026-05-01.')
    expect(await bob.getByRole('button', { name: 'Request payout' }).count()).toBe(0)
    await check(bob, 'portal-payouts-below-minimum')

    const ann = await portalPage('ann@example.com')
    expect(await ann.locator('[data-next-payout]').textContent()).toContain('30.00 USD on 2026-05-01.')
    await check(ann, 'portal-payouts-due')
    await ann.getByRole('button', { name: 'Request payout' }).click()
    await ann.getByText('Your payout request is sent.').waitFor()
    expect(await ann.locator('[data-request-status]').textContent()).toContain('You asked for 30.00 USD on')
    await check(ann, 'portal-payout-requested')
    const [request] = (await fixture.program.payouts.requests()).items
    expect(request).toMatchObject({ affiliateId: ids.ann, amount: '30.00', status: 'open' })
  })

  it('lists who is due with their conversions and requests on the Due page, and marks them paid', async () => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${base}/admin/sign-in`)
    await page.getByLabel('Admin API key').fill(fixture.adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/admin/`)
    await page.getByRole('link', { name: 'Due', exact: true }).click()
    await page.waitForURL(`${base}/admin/due`)
    expect(await page.locator('nav [aria-current="page"]').textContent()).toBe('Due')
    const row = page.locator('tr[data-due="ann@example.com"]')
    expect(await row.locator('[data-due-amount]').textContent()).toBe('30.00 USD')
    expect(await row.getByRole('link', { name: `#${ids.annSale}` }).count()).toBe(1)
    expect(await page.locator('tr[data-due="bob@example.com"]').count()).toBe(0)
    expect(await page.locator('tr[data-request="ann@example.com"] [data-request-status]').textContent()).toBe('open')
    await check(page, 'admin-due')
    await page.getByLabel('Paid with').selectOption('paypal')
    await page.getByRole('button', { name: 'Mark selected paid' }).click()
    await page.getByText('1 payout recorded.').waitFor()
    expect((await fixture.program.affiliates.get(ids.ann!)).earnings).toMatchObject({ unpaid: '0.00', paid: '30.00' })
    await page.getByRole('link', { name: 'Due', exact: true }).click()
    await page.getByText('Nobody is due a payout right now.').waitFor()
    expect(await page.locator('tr[data-request="ann@example.com"] [data-request-status]').textContent()).toBe('paid on 2026-04-02')
    await check(page, 'admin-due-paid')
  })
})
