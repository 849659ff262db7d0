// The admin console in real Chromium: sign in with an admin key, approve a pending affiliate,
// reject a conversion in review, export a PayPal batch for three affiliates (rows and total to
// the cent), mark it paid and see the balances drop, retry a failed delivery against a receiver
// that now answers 200, create and revoke a key and see the API refuse it, refund part of a
// conversion, edit an affiliate; axe-core on every page and a screenshot of each.
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { createWebhookDispatcher, type WebhookDispatcher } from '../../src/webhooks/index.js'
import { adminFixture, owedAffiliate, type AdminFixture } from '../support/admin/helpers.js'
import { browserSite, type BrowserSite, screenshot, seriousViolations } from '../support/browser-helpers.js'

/** Exact cents of a decimal amount, without float arithmetic on money. */
const cents = (amount: string): bigint => {
  const match = /^(\d+)\.(\d{2})$/.exec(amount)
  if (!match) throw new Error(`not an amount: ${amount}`)
  return BigInt(match[1]!) * 100n + BigInt(match[2]!)
}

describe('admin console in Chromium', () => {
  let fixture: AdminFixture
  let site: BrowserSite
  let receiver: Server
  let receiverStatus = 500
  let base: string
  let browser: Browser
  let page: Page
  const ids: Record<string, number> = {}
  let dispatcher: WebhookDispatcher

  const apiStatus = async (path: string, key: string) => (await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } })).status

  beforeAll(async () => {
    receiver = createServer((_req, res) => {
      res.statusCode = receiverStatus
      res.end(receiverStatus === 200 ? 'thanks' : 'receiver down')
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
    fixture = await adminFixture({
      webhooks: {
        dispatch: () => dispatcher.dispatch(),
        sendTest: (projectId, endpointId, type) => dispatcher.sendTest(projectId, endpointId, type),
      },
    })
    dispatcher = createWebhookDispatcher({ storage: fixture.storage, clock: fixture.clock })
    const { program, clock, storage } = fixture
    const settings = await program.settings()
    await program.projects.updateSettings(program.projectId, { ...settings, allowPrivateNetworks: true } as Parameters<typeof program.projects.updateSettings>[1])
    await program.webhooks.create({ url: hookUrl, events: ['payout.created'], secret: 'whsec_test' })
    ids.ann = (await owedAffiliate(program, 'ann@example.com', [49, 100.1], { paypalEmail: 'ann@paypal.test', name: 'Ann' })).id // 44.73
    ids.bob = (await owedAffiliate(program, 'bob@example.com', [99.99], { name: 'Bob' })).id // 30.00
    ids.cy = (await owedAffiliate(program, 'cy@example.com', [0.05, 33.35], { name: 'Cy' })).id // 0.02 + 10.01
    ids.pending = (await program.affiliates.create({ email: 'pending@example.com', status: 'pending' })).id
    const self = await program.affiliates.create({ email: 'self@example.com' })
    ids.review = (await program.conversions.create({ type: 'purchase', affiliateId: self.id, email: 'self@example.com', baseValue: 10 })).conversion.id
    clock.advance({ days: 31 })
    ids.dee = (await owedAffiliate(program, 'dee@example.com', [80])).id // 24.00, on hold, so in no payout
    const api = createHandler(program, { auditLog: storage })
    site = await browserSite((req, res) => (req.url?.startsWith('/admin') ? fixture.admin.node(req, res) : api.node(req, res)))
    base = site.base
    browser = site.browser
    page = await browser.newPage({ acceptDownloads: true })
  }, 60_000)

  afterAll(async () => {
    await site?.close()
    await new Promise((resolve) => receiver?.close(resolve))
  })

  async function check(name: string) {
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, `admin-${name}`)
  }

  it('signs in with the admin key and approves a pending affiliate', async () => {
    await page.goto(`${base}/admin/`)
    await page.waitForURL(`${base}/admin/sign-in`)
    await check('sign-in')
    await page.getByLabel('Admin API key').fill(fixture.adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/admin/`)
    await check('affiliates')
    await page.getByRole('button', { name: 'Approve pending@example.com' }).click()
    await page.getByText("The affiliate's status is saved.").waitFor()
    expect(await page.locator('tr[data-affiliate="pending@example.com"] [data-status]').textContent()).toBe('active')
    expect((await fixture.program.affiliates.get(ids.pending!)).status).toBe('active')
  })

  it('rejects a conversion in review, showing why it was held', async () => {
    await page.getByRole('link', { name: 'Review' }).click()
    const row = page.locator(`tr[data-conversion="${ids.review}"]`)
    expect(await row.locator('[data-reason]').textContent()).toContain('Self-referral')
    await check('review')
    await row.getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Reject selected' }).click()
    await page.getByText('1 conversion decided.').waitFor()
    expect((await fixture.program.conversions.get(ids.review!)).status).toBe('rejected')
  })

  it('exports a PayPal batch for three affiliates to the cent, marks it paid, and the balances drop', async () => {
    await page.getByRole('link', { name: 'Payouts' }).click()
    await check('payouts')
    const downloading = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export PayPal Payouts CSV' }).click()
    const download = await downloading
    const rows = (await readFile((await download.path())!, 'utf8')).split('\r\n').filter(Boolean).map((line) => line.split(','))
    expect(rows.map((row) => [row[0], row[1], row[2], row[3]]).sort()).toEqual([
      ['ann@paypal.test', '44.73', 'USD', `aff_${ids.ann}`],
      ['bob@example.com', '30.00', 'USD', `aff_${ids.bob}`],
      ['cy@example.com', '10.03', 'USD', `aff_${ids.cy}`],
    ])
    expect(rows.reduce((sum, row) => sum + cents(row[1]!), 0n)).toBe(8476n)
    for (const id of [ids.ann!, ids.bob!, ids.cy!]) expect((await fixture.program.affiliates.get(id)).earnings.eligible).not.toBe('0.00')
    await page.getByLabel('Paid with').selectOption('paypal')
    await page.getByRole('button', { name: 'Mark selected paid' }).click()
    await page.getByText('3 payouts recorded.').waitFor()
    await page.getByText('Nothing is payable right now.').waitFor()
    for (const id of [ids.ann!, ids.bob!, ids.cy!]) {
      const after = await fixture.program.affiliates.get(id)
      expect([after.earnings.eligible, after.earnings.unpaid]).toEqual(['0.00', '0.00'])
    }
    expect((await fixture.program.payouts.list()).items.reduce((sum, payout) => sum + cents(payout.amount), 0n)).toBe(8476n)
  })

  it('retries a failed delivery once the receiver answers 200', async () => {
    expect(await dispatcher.dispatch()).toBe(3)
    const failed = (await fixture.program.webhooks.deliveries({})).items[0]!
    expect(failed.lastStatusCode).toBe(500)
    receiverStatus = 200
    await page.getByRole('link', { name: 'Webhooks' }).click()
    const row = page.locator(`tr[data-delivery="${failed.id}"]`)
    expect(await row.textContent()).toContain('receiver down')
    await check('webhooks')
    await row.getByRole('button', { name: `Retry delivery ${failed.id}` }).click()
    await page.getByText(`Delivery #${failed.id} is queued again and was sent.`).waitFor()
    expect(await page.locator(`tr[data-delivery="${failed.id}"] [data-delivery-status]`).textContent()).toBe('succeeded')
    expect((await fixture.program.webhooks.delivery(failed.id)).status).toBe('succeeded')
  })

  it('creates a key shown once, revokes it, and the API refuses it', async () => {
    await page.getByRole('link', { name: 'API keys' }).click()
    await check('keys')
    await page.getByLabel('Name').fill('partner export')
    await page.getByLabel('affiliates:read').check()
    await page.getByRole('button', { name: 'Create key' }).click()
    const key = await page.locator('[data-new-key]').inputValue()
    await check('key-created')
    expect(await apiStatus('/affiliates', key)).toBe(200)
    await page.getByRole('link', { name: 'Back to API keys' }).click()
    await page.getByRole('button', { name: `Revoke key ${key.slice(0, 8)}` }).click()
    await page.getByText('The key is revoked').waitFor()
    expect(await apiStatus('/affiliates', key)).toBe(401)
  })

  it('filters conversions by affiliate and refunds part of one, showing a refused amount in place', async () => {
    await page.getByRole('link', { name: 'Conversions' }).click()
    await check('conversions')
    await page.getByLabel('Affiliate (email or id)').fill('dee@example.com')
    await page.getByRole('button', { name: 'Filter' }).click()
    const [conversion] = (await fixture.program.conversions.list({ affiliateId: ids.dee! })).items
    expect(await page.locator('tr[data-conversion]').count()).toBe(1)
    await page.getByRole('link', { name: `#${conversion!.id}` }).click()
    await check('conversion')
    await page.getByLabel('Amount to refund (USD)').fill('eighty')
    await page.getByRole('button', { name: 'Refund' }).click()
    await page.getByRole('alert').waitFor()
    expect(await page.getByLabel('Amount to refund (USD)').inputValue()).toBe('eighty')
    await check('conversion-refused')
    expect((await fixture.program.conversions.get(conversion!.id)).refundedBaseValue).toBe('0.00')
    await page.getByLabel('Amount to refund (USD)').fill('20')
    await page.getByLabel('Reason (optional)').fill('one seat less')
    await page.getByRole('button', { name: 'Refund' }).click()
    await page.getByText('The refund is saved.').waitFor()
    expect(await page.getByRole('row', { name: /Commission/ }).textContent()).toContain('18.00 USD')
    const after = await fixture.program.conversions.get(conversion!.id)
    expect([after.value, after.refundedBaseValue, after.refundReason]).toEqual(['18.00', '20.00', 'one seat less'])
  })

  it("edits an affiliate's name and PayPal email, and shows a refused email in place", async () => {
    await page.getByRole('link', { name: 'Affiliates' }).click()
    await page.getByRole('link', { name: 'Edit dee@example.com' }).click()
    await check('affiliate-edit')
    await page.getByLabel('Name', { exact: true }).fill('Dee Doe')
    await page.getByLabel('Preferred payout method').selectOption('paypal')
    await page.getByLabel('PayPal email').fill('dee@paypal.test')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('The affiliate is saved.').waitFor()
    expect(await fixture.program.affiliates.get(ids.dee!)).toMatchObject({ name: 'Dee Doe', payoutMethod: 'paypal', paypalEmail: 'dee@paypal.test' })
    await page.getByLabel('Email', { exact: true }).fill('bob@example.com')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('alert').waitFor()
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true')
    await check('affiliate-edit-refused')
    expect((await fixture.program.affiliates.get(ids.dee!)).email).toBe('dee@example.com')
  })

  it('lists provider events and an audit log of every action above', async () => {
    // The check runs on the page the link leads to, once it has loaded (not on the one it leaves).
    await Promise.all([page.waitForURL(/\/admin\/provider-events$/), page.getByRole('link', { name: 'Provider events' }).click()])
    await check('provider-events')
    await Promise.all([page.waitForURL(/\/admin\/audit-log$/), page.getByRole('link', { name: 'Audit log' }).click()])
    await check('audit-log')
    const actions = await page.locator('tr[data-audit]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-audit')))
    expect(actions).toEqual(['affiliate.update', 'conversion.refund', 'api_key.revoke', 'api_key.create', 'webhook_delivery.retry', 'payouts.batch_paid', 'payouts.export_paypal', 'conversion.reject', 'affiliate.approve', 'console.sign_in'])
  })
})
