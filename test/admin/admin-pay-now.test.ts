// The console's Pay now page (docs/payouts.md "Payout runs"): the batch shown before anything is
// sent, sent by a CSRF-checked POST only while it is the batch that was shown, the result per
// affiliate, this period's run payouts, and the audit entry; against the local PayPal and Stripe.
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAdminConsole } from '../../src/admin/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { payPalClient } from '../../src/payouts/paypal/client.js'
import { payoutRunner } from '../../src/payouts/runs.js'
import { signInWithKey } from '../support/admin/helpers.js'
import { Agent } from '../support/portal/helpers.js'
import { earnings } from '../support/payouts/earnings.js'
import { CLIENT_ID, CLIENT_SECRET, startFakePayPal } from '../support/payouts/paypal-fake.js'
import { SECRET_KEY, startFakeStripe } from '../support/payouts/stripe-fake.js'

const SETTINGS = { holdPeriodDays: 0, commission: { purchase: { type: 'percentage' as const, rate: 30 } }, payouts: { automatic: { paypal: true, stripe: true } } }
const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0)) await close()
})

async function setUp(withRuns = true) {
  const paypal = await startFakePayPal({ statusFor: () => 'SUCCESS' })
  const stripe = await startFakeStripe({ accounts: ['acct_bob1'] })
  closing.push(() => paypal.close(), () => stripe.close())
  const storage = memoryStorage()
  const program = await createAffiliateProgram({ storage, clock: testClock('2026-12-06T10:00:00Z'), settings: SETTINGS })
  const ann = await program.affiliates.create({ email: 'ann@example.com', paypalEmail: 'ann.paypal@example.com' })
  const bob = await program.affiliates.create({ email: 'bob@example.com' })
  await program.providerPayouts.saveConnectedAccount(bob.id, 'acct_bob1')
  await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 150 })
  await program.conversions.create({ type: 'purchase', affiliateId: bob.id, baseValue: 200 })
  const runner = payoutRunner(program, { paypal: payPalClient({ baseUrl: paypal.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }), stripe: { secretKey: SECRET_KEY, baseUrl: stripe.url } })
  const admin = createAdminConsole(program, { sessions: storage, auditLog: storage, ...(withRuns ? { payoutRuns: runner } : {}) })
  const { key } = await program.keys.create({ name: 'Owner', scopes: ['*'] })
  const agent = new Agent(admin)
  expect((await signInWithKey(agent, key)).status).toBe(303)
  return { program, storage, paypal, stripe, agent, ann, bob }
}

const batchOf = (page: string) => /name="batch" value="([0-9a-f]+)"/.exec(page)?.[1]

describe('admin console: Pay now', () => {
  it('shows the batch before sending, sends it on a confirmed POST, and lists the result per affiliate', async () => {
    const { program, storage, paypal, stripe, agent, ann, bob } = await setUp()
    const page = await (await agent.get('/admin/pay-now')).text()
    expect(page).toContain('Pay now</a>')
    expect(page).toMatch(/data-run-item="ann@example.com"><td>ann@example.com<\/td><td class="num">45.00 USD<\/td><td>PayPal Payouts<\/td><td data-outcome="would_send">to send/)
    expect(page).toMatch(/data-run-item="bob@example.com">.*60.00 USD.*Stripe Connect.*to send/)
    expect(page).toContain('Send 2 payouts')
    expect(page).toContain('No run has paid anybody for 2026-12 yet.')
    expect(paypal.batches.size + stripe.transfers.length).toBe(0)

    // Without the CSRF token nothing is sent.
    const forged = await agent.post('/admin/pay-now', { batch: batchOf(page)! })
    expect(forged.status).toBe(403)
    expect(paypal.batches.size + stripe.transfers.length).toBe(0)

    const csrf = await agent.csrfOf('/admin/pay-now')
    const sent = await agent.post('/admin/pay-now', { csrf, batch: batchOf(page)! })
    expect(sent.status).toBe(200)
    const result = await sent.text()
    expect(result).toContain('2 paid, 0 processing, 0 failed, 0 not sent.')
    expect(result).toMatch(/data-run-item="ann@example.com">.*data-outcome="paid"/)
    expect(await earnings(program, ann.id)).toEqual({ paid: '45.00', unpaid: '0.00', credit: '0.00' })
    expect(await earnings(program, bob.id)).toEqual({ paid: '60.00', unpaid: '0.00', credit: '0.00' })
    const entries = (await storage.auditLog.list(program.projectId, { limit: 5, offset: 0 })).items
    expect(entries[0]).toMatchObject({ action: 'payouts.run', target: 'payout_run:2026-12', detail: '2 paid, 0 processing, 0 failed, 0 not sent' })

    // The period's run payouts are listed; nobody is due any more, so there is nothing to send.
    const after = await (await agent.get('/admin/pay-now')).text()
    expect(after).toMatch(/data-period-payout="ann@example.com">.*45.00 USD.*PayPal Payouts<\/td><td data-state>paid/)
    expect(after).toContain('Nobody is due a payout right now.')
    expect(after).not.toContain('name="batch"')
  })

  it('refuses (409) a batch that changed since it was shown, sends nothing, and shows the new one', async () => {
    const { program, paypal, stripe, agent, ann } = await setUp()
    const page = await (await agent.get('/admin/pay-now')).text()
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 10 })
    const csrf = await agent.csrfOf('/admin/pay-now')
    const refused = await agent.post('/admin/pay-now', { csrf, batch: batchOf(page)! })
    expect(refused.status).toBe(409)
    const text = await refused.text()
    expect(text).toContain('The batch changed since it was shown: nothing was sent.')
    expect(text).toMatch(/data-run-item="ann@example.com">.*48.00 USD/)
    expect(paypal.batches.size + stripe.transfers.length).toBe(0)
    const sent = await agent.post('/admin/pay-now', { csrf: await agent.csrfOf('/admin/pay-now'), batch: batchOf(text)! })
    expect(sent.status).toBe(200)
    expect(await earnings(program, ann.id)).toEqual({ paid: '48.00', unpaid: '0.00', credit: '0.00' })
  })

  it('without payout providers the page says how to configure them, and a POST sends nothing', async () => {
    const { agent, paypal } = await setUp(false)
    const page = await (await agent.get('/admin/pay-now')).text()
    expect(page).toContain('Automatic payouts are not configured')
    expect(page).toContain('payoutProviders')
    const refused = await agent.post('/admin/pay-now', { csrf: await agent.csrfOf('/admin/pay-now'), batch: 'x' })
    expect(refused.status).toBe(404)
    expect(paypal.batches.size).toBe(0)
  })
})
