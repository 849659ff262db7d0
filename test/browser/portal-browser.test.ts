// The portal in real Chromium: sign in through a created link, the figures the API reports for
// that affiliate to the cent, payout settings changed, sign-out; the same with JavaScript off;
// axe-core on every page, each page's weight (HTML + CSS + JS) under 50 KB, screenshots.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { browserSite, type BrowserSite, screenshot, seriousViolations } from '../support/browser-helpers.js'
import { affiliateWithHistory, portalFixture, type PortalFixture } from '../support/portal/helpers.js'

const PAGE_BUDGET_BYTES = 50 * 1024

/** Exact cents of a decimal amount (string or the API's JSON number), without float arithmetic on money. */
function cents(amount: string | number): bigint {
  const text = typeof amount === 'number' ? amount.toFixed(2) : amount.replace(/ [A-Z]{3}$/, '')
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text)
  if (!match) throw new Error(`not an amount: ${text}`)
  const value = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '0').padEnd(2, '0'))
  return match[1] ? -value : value
}

describe('affiliate portal in Chromium', () => {
  let fixture: PortalFixture
  let site: BrowserSite
  let base: string
  let apiKey: string
  let browser: Browser
  let annId: number

  const api = async (path: string) => {
    const response = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${apiKey}` } })
    expect(response.status).toBe(200)
    return ((await response.json()) as { data: unknown }).data
  }

  beforeAll(async () => {
    fixture = await portalFixture({ referralLink: (code) => `https://shop.example/?ref=${code}` })
    const { program, clock, portal } = fixture
    annId = (await affiliateWithHistory(program, clock, 'ann@example.com', 'ANN')).affiliate.id
    await affiliateWithHistory(program, clock, 'bob@example.com', 'BOB')
    for (let n = 0; n < 30; n += 1) {
      await program.conversions.create({ type: 'purchase', affiliateId: annId, email: `many${n}@example.com`, baseValue: 3.33 + n, reference: `many-${n}` })
    }
    await program.trackClick({ referralCode: 'ANN' })
    apiKey = (await program.keys.create({ name: 'browser test' })).key
    const handler = createHandler(program)
    site = await browserSite((req, res) => (req.url?.startsWith('/portal') ? portal.node(req, res) : handler.node(req, res)))
    base = site.base
    browser = site.browser
  }, 60_000)

  afterAll(async () => {
    await site?.close()
  })

  /** Loads `path`, checks axe and the page's weight, writes a screenshot; resolves with the weight. */
  async function visit(page: Page, path: string, name: string): Promise<number> {
    const response = await page.goto(`${base}${path}`)
    expect(response!.status()).toBe(200)
    const html = (await response!.body()).byteLength
    const assets = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel=stylesheet], script[src]')].map((node) => ('href' in node ? node.href : node.src)),
    )
    let bytes = html
    for (const url of assets) bytes += (await (await page.request.get(url)).body()).byteLength
    expect(bytes).toBeLessThan(PAGE_BUDGET_BYTES)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, name)
    return bytes
  }

  async function signIn(page: Page, email: string) {
    const { url } = await fixture.portal.createSignInLink(email)
    await page.goto(`${base}${url}`)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/portal/`)
  }

  it('signs in through a link, shows the API figures to the cent, saves payout settings and signs out', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const weights: Record<string, number> = {}
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    // CSP refusals are console errors; failed loads are checked by status, the browser's own favicon request aside.
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && errors.push(message.text()))
    page.on('response', (response) => response.status() >= 400 && !response.url().endsWith('/favicon.ico') && errors.push(`${response.status()} ${response.url()}`))

    weights.signIn = await visit(page, (await fixture.portal.createSignInLink('ann@example.com')).url, 'portal-sign-in')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/portal/`)

    weights.overview = await visit(page, '/portal/', 'portal-overview')
    const figure = (name: string) => page.locator(`[data-figure="${name}"]`).innerText()
    const reported = (await api(`/affiliates/${encodeURIComponent('ann@example.com')}`)) as Record<string, string | number | null>
    expect(cents(await figure('held'))).toBe(cents(reported.held_earnings as string))
    // Payable now is the ledger's payable balance (no payout terms here: the eligible one).
    const balances = (await api(`/affiliates/${encodeURIComponent('ann@example.com')}/balances?as_of=${encodeURIComponent(fixture.clock.now().toISOString())}`)) as Record<string, string>
    expect(cents(await figure('payable'))).toBe(cents(balances.payable_earnings!))
    expect(cents(await figure('payable'))).toBe(cents(reported.eligible_earnings as string))
    expect(cents(await figure('unpaid'))).toBe(cents(reported.unpaid_earnings as string))
    expect(cents(await figure('paid'))).toBe(cents(reported.total_earnings as string) - cents(reported.unpaid_earnings as string))
    expect(await figure('next-release')).toBe(reported.next_release_date)
    expect(Number(await figure('clicks'))).toBe(reported.clicks)
    expect(Number(await figure('signups'))).toBe(reported.signups)
    expect(Number(await figure('purchases'))).toBe(reported.purchases)
    expect(cents(await figure('held'))).toBeGreaterThan(0n)
    expect(await page.getByRole('textbox', { name: 'Referral link' }).inputValue()).toBe('https://shop.example/?ref=ANN')
    await expect(page.getByRole('button', { name: 'Copy link' }).isVisible()).resolves.toBe(true) // shown by the script

    weights.conversions = await visit(page, '/portal/conversions', 'portal-conversions')
    const listed = (await api(`/conversions?affiliate_id=${annId}&limit=25`)) as Array<{ id: number; value: number }>
    const rows = await page.locator('td[data-value]').evaluateAll((cells) => cells.map((cell) => [Number(cell.getAttribute('data-value')), cell.textContent]))
    expect(rows.map(([id]) => id)).toEqual(listed.map((conversion) => conversion.id))
    for (const [index, [, text]] of rows.entries()) expect(cents(text as string)).toBe(cents(listed[index]!.value))
    await expect(page.getByText('Page 1 of 2')).toBeDefined()
    await page.getByRole('link', { name: 'Next' }).click()
    await page.waitForURL(`${base}/portal/conversions?page=2`)
    expect(await page.getByText('Refunded', { exact: true }).count()).toBe(1)
    expect(await page.getByText(/Partly refunded: 33\.33 USD/).count()).toBe(1)
    await screenshot(page, 'portal-conversions-page-2')
    const refunded = await page.locator('tr', { has: page.getByText('Refunded', { exact: true }) }).getByRole('link').getAttribute('href')
    weights.conversion = await visit(page, refunded!, 'portal-conversion')
    expect(await page.getByText('customer asked').count()).toBe(1)

    weights.payouts = await visit(page, '/portal/payouts', 'portal-payouts')
    const payouts = (await api(`/payouts?affiliate_id=${annId}`)) as Array<{ id: number; amount: string }>
    const shown = await page.locator('td[data-payout]').evaluateAll((cells) => cells.map((cell) => [Number(cell.getAttribute('data-payout')), cell.textContent]))
    expect(shown.map(([id]) => id)).toEqual(payouts.map((payout) => payout.id))
    for (const [index, [, text]] of shown.entries()) expect(cents(text as string)).toBe(cents(payouts[index]!.amount))

    weights.settings = await visit(page, '/portal/settings', 'portal-settings')
    await page.getByLabel('Payout method').selectOption('paypal')
    await page.getByLabel('PayPal email').fill('ann.paypal@example.com')
    await page.getByLabel('Payment details').fill('Pay me on Fridays')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.waitForURL(`${base}/portal/settings?saved=1`)
    expect(await page.getByRole('status').innerText()).toContain('saved')
    await screenshot(page, 'portal-settings-saved')
    const saved = await fixture.program.affiliates.get('ann@example.com')
    expect([saved.payoutMethod, saved.paypalEmail, saved.paymentDetails]).toEqual(['paypal', 'ann.paypal@example.com', 'Pay me on Fridays'])

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${base}/portal/sign-in?signed_out=1`)
    expect(await page.getByText('You are signed out').count()).toBe(1)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'portal-signed-out')
    await page.goto(`${base}/portal/`)
    expect(page.url()).toBe(`${base}/portal/sign-in`)
    expect(errors).toEqual([]) // the CSP blocked nothing the pages need
    console.log(`portal page weights (bytes, HTML + CSS + JS): ${JSON.stringify(weights)}`)
    await context.close()
  }, 120_000)

  it('works with JavaScript turned off: sign in, read, change settings, sign out', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await signIn(page, 'bob@example.com')
    expect(await page.locator('[data-figure="referral-code"]').innerText()).toBe('BOB')
    expect(await page.getByRole('button', { name: 'Copy link' }).isVisible()).toBe(false) // no script, no dead button
    await page.goto(`${base}/portal/settings`)
    await page.getByLabel('Payout method').selectOption('wise')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.waitForURL(`${base}/portal/settings?saved=1`)
    expect((await fixture.program.affiliates.get('bob@example.com')).payoutMethod).toBe('wise')
    await page.getByLabel('PayPal email').fill('bob@localhost') // the browser lets it through; the server refuses it
    await page.getByRole('button', { name: 'Save settings' }).click()
    expect(await page.getByRole('alert').innerText()).toContain('PayPal email')
    await screenshot(page, 'portal-settings-error')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${base}/portal/sign-in?signed_out=1`)
    await context.close()
  }, 60_000)
})
