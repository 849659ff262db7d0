// The payouts page in real Chromium with axe-core: payouts sent through PayPal Payouts (over HTTP
// to the local fake PayPal) show their ledger state, PayPal's item status and its reply.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payPalClient } from '../../src/payouts/paypal/client.js'
import { payPalPayouts } from '../../src/payouts/paypal/payouts.js'
import { adminFixture, type AdminFixture } from '../support/admin/helpers.js'
import { signedInConsole } from '../support/admin/browser-session.js'
import { screenshot, seriousViolations } from '../support/browser-helpers.js'
import { CLIENT_ID, CLIENT_SECRET, startFakePayPal } from '../support/payouts/paypal-fake.js'

describe('provider payouts in the admin console (Chromium)', () => {
  let fixture: AdminFixture
  let fake: Awaited<ReturnType<typeof startFakePayPal>>
  let session: Awaited<ReturnType<typeof signedInConsole>>
  let page: Page

  beforeAll(async () => {
    fixture = await adminFixture()
    const { program, clock } = fixture
    await program.projects.updateSettings(program.projectId, { ...(await program.settings()), payouts: { automatic: { paypal: true } } } as Parameters<typeof program.projects.updateSettings>[1])
    fake = await startFakePayPal({ statusFor: (receiver) => (receiver === 'cy@example.com' ? 'FAILED' : 'UNCLAIMED') })
    const paypal = payPalPayouts(program, payPalClient({ baseUrl: fake.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }))
    for (const email of ['bo@example.com', 'cy@example.com']) {
      const affiliate = await program.affiliates.create({ email })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 })
    }
    clock.advance({ days: 31 })
    await paypal.pay({ affiliate: 'bo@example.com', amount: '30.00' })
    await paypal.pay({ affiliate: 'cy@example.com', amount: '12.50' })
    await paypal.sync()
    session = await signedInConsole(fixture)
    page = session.page
  }, 60_000)

  afterAll(async () => {
    await session?.close()
    await fake?.close()
  })

  it("shows each provider payout's state, PayPal's item status and reply", async () => {
    await page.goto(`${session.base}/admin/payouts`)
    const card = page.getByRole('region', { name: 'Sent through a provider' })
    const rows = await card.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())))
    expect(rows.map((row) => [row[1], row[2], row[3], row[4], row[5], row[7]])).toEqual([
      ['cy@example.com', '12.50 USD', 'PayPal Payouts', 'failed', 'FAILED', 'RECEIVER_UNREGISTERED: Receiver is unregistered'],
      ['bo@example.com', '30.00 USD', 'PayPal Payouts', 'processing', 'UNCLAIMED', ''],
    ])
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'admin-provider-payouts')
  })
})
