// The console's Pay now page in real Chromium with axe-core (docs/payouts.md "Payout runs"): the
// batch shown before sending, Send, and the result per affiliate, against the local PayPal.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAdminConsole } from '../../src/admin/index.js'
import { payPalClient } from '../../src/payouts/paypal/client.js'
import { payoutRunner } from '../../src/payouts/runs.js'
import { adminFixture, type AdminFixture } from '../support/admin/helpers.js'
import { signedInConsole } from '../support/admin/browser-session.js'
import { screenshot, seriousViolations } from '../support/browser-helpers.js'
import { CLIENT_ID, CLIENT_SECRET, startFakePayPal } from '../support/payouts/paypal-fake.js'

describe('Pay now in the admin console (Chromium)', () => {
  let fixture: AdminFixture
  let fake: Awaited<ReturnType<typeof startFakePayPal>>
  let session: Awaited<ReturnType<typeof signedInConsole>>
  let page: Page

  beforeAll(async () => {
    const base = await adminFixture()
    const { program, clock, storage } = base
    await program.projects.updateSettings(program.projectId, { ...(await program.settings()), payouts: { automatic: { paypal: true } } } as Parameters<typeof program.projects.updateSettings>[1])
    fake = await startFakePayPal({ statusFor: (receiver) => (receiver === 'cy.pp@example.com' ? 'FAILED' : 'SUCCESS') })
    for (const email of ['bo@example.com', 'cy@example.com', 'di@example.com']) {
      const affiliate = await program.affiliates.create({ email, ...(email === 'di@example.com' ? {} : { paypalEmail: email.replace('@', '.pp@') }) })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 })
    }
    clock.advance({ days: 31 })
    const payoutRuns = payoutRunner(program, { paypal: payPalClient({ baseUrl: fake.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }) })
    fixture = { ...base, admin: createAdminConsole(program, { sessions: storage, auditLog: storage, payoutRuns }) }
    session = await signedInConsole(fixture)
    page = session.page
  }, 60_000)

  afterAll(async () => {
    await session?.close()
    await fake?.close()
  })

  const rowsOf = (region: string) =>
    page.getByRole('region', { name: region }).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())))

  it('shows the batch, sends it with one button, and shows what happened to each affiliate', async () => {
    await page.goto(`${session.base}/admin/`)
    await page.getByRole('link', { name: 'Pay now' }).click()
    expect(await rowsOf('The batch a run would send')).toEqual([
      ['bo@example.com', '30.00 USD', 'PayPal Payouts', 'to send', ''],
      ['cy@example.com', '30.00 USD', 'PayPal Payouts', 'to send', ''],
      ['di@example.com', '30.00 USD', 'none', 'not sent', 'no PayPal email on file'],
    ])
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'admin-pay-now')
    await page.getByRole('button', { name: 'Send 2 payouts' }).click()
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('1 paid, 0 processing, 1 failed, 1 not sent.')
    expect(await rowsOf('What the run did for each affiliate')).toEqual([
      ['bo@example.com', '30.00 USD', 'PayPal Payouts', 'paid', ''],
      ['cy@example.com', '30.00 USD', 'PayPal Payouts', 'failed', 'RECEIVER_UNREGISTERED: Receiver is unregistered'],
      ['di@example.com', '30.00 USD', 'none', 'not sent', 'no PayPal email on file'],
    ])
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'admin-pay-now-result')
  })
})
