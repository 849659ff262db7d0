// What carries over from the tool after an import (Rewardful's, through its local API): an
// imported customer's next Stripe invoice (a signed event through the Stripe handler) credits the
// imported affiliate at the recurring rate whatever its billing reason, within the recurring
// rule's duration counted from the tool's first purchase; old link tokens, the referral code's and
// the other ones (link aliases), keep attributing through /r/, POST /clicks and the snippet's
// ?via= in Chromium; the tool's paid payouts become payouts over their commissions.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { importProgram, rewardfulSource } from '../../src/importers/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { createTrackingHandler } from '../../src/tracking/index.js'
import { launchBrowser } from '../support/browser-helpers.js'
import { ledger } from '../support/importers/ledger.js'
import { API_SECRET, startFakeRewardful, type FakeRewardful } from '../support/importers/rewardful-server.js'
import { invoicePaid } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'

let rewardful: FakeRewardful
beforeAll(async () => {
  rewardful = await startFakeRewardful()
})
afterAll(() => rewardful.close())

const source = () => rewardfulSource({ apiKey: API_SECRET, apiUrl: rewardful.url })
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** 30 % on a first purchase, 10 % on renewals for two months from it; on 2026-03-10. */
async function imported(clock = testClock('2026-03-10T12:00:00.000Z')): Promise<{ program: AffiliateProgram; clock: ReturnType<typeof testClock> }> {
  const program = await createAffiliateProgram({
    storage: memoryStorage(),
    clock,
    settings: { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 }, recurring: { rate: 10, durationMonths: 2 } } },
  })
  // Q was entered by hand before the switch, with another code: its Rewardful token becomes an alias.
  await program.affiliates.create({ email: 'q@example.com', name: 'Q Branch', referralCode: 'q-old' })
  const report = await importProgram(program, source())
  expect(report.errors).toBe(0)
  return { program, clock }
}

describe('after an import', () => {
  it("an imported customer's next Stripe invoice credits the imported affiliate at the recurring rate, whatever its billing reason", async () => {
    const { program, clock } = await imported()
    const handler = stripeHandler({ program, webhookSecret: STRIPE_SECRET })
    const q = await program.affiliates.get('q@example.com')
    const james = await program.affiliates.get('james@example.com')

    // Dave first paid on 2026-01-15 (Rewardful's became_conversion_at): inside two months, a
    // subscription's first invoice is still a renewal here. Its email is not on the invoice:
    // the Stripe customer id the import kept names him.
    const dave = invoicePaid({ at: '2026-03-10T09:00:00Z', id: 'in_dave_1', customer: 'cus_dave', email: 'dave@example.com', subtotal: 20000, tax: 0, subscription: 'sub_dave', billingReason: 'subscription_create', paymentIntent: 'pi_dave_1' })
    ;(dave.data.object as { customer_email: string | null }).customer_email = null
    expect(await (await deliverStripe(handler, dave, clock)).json()).toMatchObject({ status: 'applied' })
    // Alice first paid on 2026-01-05: two months are over, her renewal earns nothing.
    const alice = invoicePaid({ at: '2026-03-10T09:00:00Z', id: 'in_alice_9', customer: 'cus_alice', email: 'alice@example.com', subtotal: 10000, tax: 0, subscription: 'sub_alice', billingReason: 'subscription_cycle', paymentIntent: 'pi_alice_9' })
    expect(await (await deliverStripe(handler, alice, clock)).json()).toMatchObject({ status: 'applied' })

    const byReference = Object.fromEntries((await program.conversions.list({ limit: 100 })).items.map((c) => [c.reference, c]))
    expect(byReference.in_dave_1).toMatchObject({ affiliateId: q.id, basis: 'recurring', value: '20.00' })
    expect(byReference.in_alice_9).toMatchObject({ affiliateId: james.id, basis: 'recurring_expired', value: '0.00' })
    // Q: 50.00 imported (paid) + 20.00.
    expect(await ledger(program, 'q@example.com')).toEqual({ total: '70.00', paid: '50.00', unpaid: '20.00' })
  })

  it('old link tokens resolve to the imported affiliate: the referral code, a second link and a token that was not free as a code', async () => {
    const { program } = await imported()
    const james = await program.affiliates.get('james@example.com')
    const q = await program.affiliates.get('q@example.com')
    expect(james.referralCode).toBe('jb007')
    expect(await program.affiliates.aliases(james.id)).toEqual(['bond'])
    expect(q.referralCode).toBe('q-old')
    expect(await program.affiliates.aliases(q.id)).toEqual(['qbranch'])

    const tracking = createTrackingHandler(program, { landingUrl: 'https://www.example.com/' })
    const visit = await tracking(new Request('https://links.example/r/qbranch', { headers: { 'user-agent': BROWSER } }), { clientAddress: '203.0.113.7' })
    expect(visit.status).toBe(302)
    // The cookie names the affiliate by its referral code.
    expect(visit.headers.get('set-cookie')).toMatch(/^ak_ref=q-old\./)

    const key = (await program.keys.create()).key
    const api = createHandler(program)
    const click = await api(new Request('https://api.example/api/v1/clicks', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ referral_code: 'BOND' }) }))
    expect(click.status).toBe(201)
    expect(await click.json()).toMatchObject({ data: { affiliate_id: james.id } })
    expect((await program.affiliates.get(q.id)).clicks).toBe(1)
    expect((await program.affiliates.get(james.id)).clicks).toBe(1)
  })

  it("the tool's paid payouts are payouts over their commissions; balances do not change, and a second run records none again", async () => {
    const { program } = await imported()
    const before = await ledger(program, 'james@example.com')
    const payouts = (await program.payouts.list()).items.map(({ affiliateEmail, amount, paymentDate, conversionsSettled }) => ({ affiliateEmail, amount, paymentDate, conversionsSettled }))
    expect(payouts).toEqual(
      expect.arrayContaining([
        { affiliateEmail: 'q@example.com', amount: '50.00', paymentDate: new Date('2026-02-16T09:00:00.000Z'), conversionsSettled: 1 },
        { affiliateEmail: 'james@example.com', amount: '30.00', paymentDate: new Date('2026-02-05T09:00:00.000Z'), conversionsSettled: 1 },
      ]),
    )
    expect(payouts).toHaveLength(2)

    const again = await importProgram(program, source())

    expect(again.counts.payouts).toMatchObject({ created: 0, existing: 2 })
    expect(again.resumed).toMatchObject({ payouts: 2, commissions: 6, affiliates: 2 })
    expect((await program.payouts.list()).total).toBe(2)
    expect(await ledger(program, 'james@example.com')).toEqual(before)
  })
})

describe('an old ?via= link on the landing page, in Chromium', () => {
  let browser: Browser
  let server: Server
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    server?.close()
  })

  it("the snippet attributes a new visitor to the imported affiliate through a Rewardful ?via= token that is a link alias", async () => {
    // The browser's own time: the signed referral's expiry is the program clock's.
    const { program } = await imported(testClock(new Date()))
    const james = await program.affiliates.get('james@example.com')
    const publishable = (await program.keys.createPublishable({ name: 'site' })).key
    server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    // Rewardful's ?via=, Tolt's ?ref= and FirstPromoter's ?fpr= (docs/migrating.md).
    const tracking = createTrackingHandler(program, { landingUrl: `${origin}/`, queryParams: ['via', 'ref', 'fpr'] }).node
    server.on('request', (req, res) => {
      if ((req.url ?? '/').startsWith('/r/')) return tracking(req, res)
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><html lang="en"><head><title>Landing</title>
<script src="/r/-/affiliate-kit.js" data-key="${publishable}"></script></head><body><h1>Landing</h1></body></html>`)
    })
    type Kit = { getReferral(): string | null; signup(email: string): Promise<{ signedUp: boolean; reason: string }> }

    const context = await browser.newContext({ userAgent: `${BROWSER} visitor-via` })
    const page = await context.newPage()
    await page.goto(`${origin}/pricing?via=bond`)
    await expect.poll(async () => (await program.affiliates.get(james.id)).clicks).toBe(1)
    await expect.poll(() => page.evaluate(() => (window as unknown as { affiliateKit: Kit }).affiliateKit.getReferral())).toBe('jb007')
    expect(await page.evaluate(() => (window as unknown as { affiliateKit: Kit }).affiliateKit.signup('newcomer@example.com'))).toEqual({ signedUp: true, reason: 'created' })
    expect((await program.referrals.get('newcomer@example.com')).affiliateId).toBe(james.id)
    await context.close()
  }, 60_000)
})
