// The console's and the portal's Analytics pages in real Chromium (docs/admin.md "Analytics",
// docs/portal.md): no serious axe-core finding at 1280 px and at phone width (390 px), no page
// wider than the screen, the filters used through the form, the CSV downloaded equal to the table,
// the portal in English and German (its figures the affiliate's own, each page under 50 KB with its
// stylesheet and script), and the charts' labels readable without hovering. Screenshots go to
// test-output/screenshots/.
import { readFile } from 'node:fs/promises'
import { parse } from 'csv-parse/sync'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminFixture, type AdminFixture } from '../support/admin/helpers.js'
import { answerTotals } from '../support/analytics/page-figures.js'
import { clicksAndSales } from '../support/analytics/visits.js'
import { browserSite, screenshot, seriousViolations, type BrowserSite } from '../support/browser-helpers.js'

const WIDTHS = [1280, 390] as const
const PAGE_BUDGET_BYTES = 50 * 1024

describe('analytics pages in Chromium', () => {
  let fixture: AdminFixture
  let site: BrowserSite
  let browser: Browser
  let annId: number

  beforeAll(async () => {
    fixture = await adminFixture()
    annId = (await clicksAndSales(fixture.program, fixture.storage, fixture.clock)).ann.id
    site = await browserSite((req, res) => (req.url?.startsWith('/admin') ? fixture.admin.node(req, res) : fixture.portal.node(req, res)))
    browser = site.browser
  }, 60_000)

  afterAll(async () => {
    await site?.close()
  })

  /** The page at each width: no serious axe finding, nothing wider than the screen, a screenshot; the chart's labels readable. */
  async function everyWidth(page: Page, name: string): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await page.reload()
      expect([name, width, await seriousViolations(page)]).toEqual([name, width, []])
      expect([name, width, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([name, width, width])
      const labels = await page.locator('.chart .count-axis span, .chart .date-axis span').evaluateAll((spans) =>
        spans.map((span) => ({ text: span.textContent, size: parseFloat(getComputedStyle(span).fontSize), visible: span.getBoundingClientRect().width > 0 })),
      )
      expect(labels.length).toBeGreaterThan(9)
      for (const label of labels) expect([label.text, label.size >= 12, label.visible]).toEqual([label.text, true, true])
      await screenshot(page, `${name}-${width}`)
    }
  }

  /** The text of each cell of the analytics table's body rows. */
  const tableCells = (page: Page) =>
    page.locator('table[data-analytics-table] tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim())))

  it('console: filters through the form, passes axe at both widths, and downloads the table as CSV', async () => {
    const context = await browser.newContext({ acceptDownloads: true })
    const page = await context.newPage()
    await page.goto(`${site.base}/admin/sign-in`)
    await page.getByLabel('Admin API key').fill(fixture.adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${site.base}/admin/`)
    await page.getByRole('link', { name: 'Analytics' }).click()
    await page.waitForURL(`${site.base}/admin/analytics`)
    await everyWidth(page, 'admin-analytics')

    await page.getByLabel('From', { exact: true }).fill('2026-03-01')
    await page.getByLabel('To', { exact: true }).fill('2026-03-09')
    await page.getByLabel('Group by').selectOption('link')
    await page.getByRole('button', { name: 'Show' }).click()
    await page.waitForURL(/group_by=link/)
    const answer = await fixture.program.analytics.query({ from: '2026-03-01', to: '2026-03-10', interval: 'day' })
    expect(await page.locator('[data-total="clicks"]').innerText()).toBe(answerTotals(answer).clicks)
    expect(await page.locator('[data-total="revenue"]').innerText()).toBe('359.99 USD')
    const shown = await tableCells(page)
    expect(shown.map((row) => row[0])).toEqual(['bob-promo', 'ann-youtube', 'ann-news', 'No link: the referral code, or no click'])
    await everyWidth(page, 'admin-analytics-links')

    // The chart's figures are a table a click away, no hovering.
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByText('Figures by day').click()
    expect((await page.getByRole('row', { name: /2026-03-02/ }).innerText()).split(/\s+/)).toEqual(['2026-03-02', '3', '0', '0'])

    const downloading = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export CSV' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe('analytics-2026-03-10.csv')
    const [header, ...rows] = parse(await readFile((await download.path())!, 'utf8')) as string[][]
    expect(header).toEqual(['group', 'label', 'clicks', 'visitors', 'signups', 'conversions', 'conversion_rate', 'revenue', 'commission', 'currency'])
    expect(rows.map((row) => [row[1], row[2], row[3], row[4], row[5], row[6] || '–', `${row[7]} USD`, `${row[8]} USD`])).toEqual(shown)

    // A refused filter: the query's message, the form as typed, no error page.
    await page.goto(`${site.base}/admin/analytics?group_by=colour`)
    expect(await page.getByRole('alert').innerText()).toMatch(/^Group by: must be one of link, /)
    expect(await seriousViolations(page)).toEqual([])
    await context.close()
  }, 180_000)

  for (const { locale, lang, signIn, heading, show } of [
    { locale: 'en-US', lang: 'en', signIn: 'Sign in', heading: 'Analytics', show: 'Show' },
    { locale: 'de-DE', lang: 'de', signIn: 'Anmelden', heading: 'Analysen', show: 'Anzeigen' },
  ]) {
    it(`portal in ${lang}: the affiliate's own figures, axe at both widths, under 50 KB`, async () => {
      const context = await browser.newContext({ locale })
      const page = await context.newPage()
      await page.goto(`${site.base}${(await fixture.portal.createSignInLink('ann@example.com')).url}`)
      await page.getByRole('button', { name: signIn }).click()
      await page.waitForURL(`${site.base}/portal/`)
      await page.getByRole('link', { name: 'Analytics' }).click()
      await page.waitForURL(`${site.base}/portal/analytics`)
      expect(await page.locator('main [lang]').first().getAttribute('lang')).toBe(lang)
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(heading)
      const own = await fixture.program.analytics.query({ affiliate: annId, interval: 'day' })
      expect(await page.locator('[data-total="clicks"]').innerText()).toBe(String(own.totals.clicks))
      expect(await page.locator('[data-total="commission"]').innerText()).toBe('48.00 USD')
      await everyWidth(page, `portal-analytics-${lang}`)

      const response = await page.goto(`${site.base}/portal/analytics?group_by=utm_campaign&affiliate=bob%40example.com`)
      let bytes = (await response!.body()).byteLength
      for (const url of await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel=stylesheet], script[src]')].map((node) => ('href' in node ? node.href : node.src)))) {
        bytes += (await (await page.request.get(url)).body()).byteLength
      }
      expect(bytes).toBeLessThan(PAGE_BUDGET_BYTES)
      expect((await tableCells(page)).map((row) => row[0])).toEqual(['spring', 'winter', lang === 'de' ? 'Keine Angabe' : 'None'])
      await page.getByRole('button', { name: show }).click()
      await page.waitForURL(/group_by=utm_campaign/)
      expect(await seriousViolations(page)).toEqual([])
      await screenshot(page, `portal-analytics-campaigns-${lang}-1280`)
      await context.close()
    }, 180_000)
  }
})
