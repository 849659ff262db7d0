// Payout runs (docs/payouts.md "Payout runs") over real HTTP against the local PayPal and Stripe
// servers: POST /payouts/runs with dry_run, Idempotency-Key, one payout per affiliate and period,
// a Stripe outage resumed by the next run under the same key, the ledger to the cent, both shapes.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { payPalClient } from '../../src/payouts/paypal/client.js'
import { payoutRunner, runScheduled, SCHEDULE_LEASE_MS, scheduleKey } from '../../src/payouts/runs.js'
import { recordAllEvents, recordedEvents } from '../conformance/helpers.js'
import { configuredPortal } from '../../src/cli/portal-mount.js'
import { earnings } from '../support/payouts/earnings.js'
import { Agent } from '../support/portal/helpers.js'
import { CLIENT_ID, CLIENT_SECRET, startFakePayPal } from '../support/payouts/paypal-fake.js'
import { SECRET_KEY, startFakeStripe } from '../support/payouts/stripe-fake.js'

const SETTINGS = { holdPeriodDays: 0, commission: { purchase: { type: 'percentage' as const, rate: 30 } }, payouts: { automatic: { paypal: true, stripe: true } } }

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0)) await close()
})

/** Ann (PayPal, 45.00), Bob (Stripe, 60.00) and Cat (no payout method, 3.00), a handler per shape serving runs. */
async function setUp(options: { stripeFailures?: number; withRuns?: boolean } = {}) {
  const paypal = await startFakePayPal({ statusFor: () => 'SUCCESS' })
  const stripe = await startFakeStripe({ accounts: ['acct_bob1'], failNext: options.stripeFailures ?? 0 })
  closing.push(() => paypal.close(), () => stripe.close())
  const clock = testClock('2026-12-06T10:00:00Z')
  const storage = memoryStorage()
  const program: AffiliateProgram = await createAffiliateProgram({ storage, clock, settings: SETTINGS })
  await recordAllEvents(program)
  const ann = await program.affiliates.create({ email: 'ann@example.com', paypalEmail: 'ann.paypal@example.com' })
  const bob = await program.affiliates.create({ email: 'bob@example.com' })
  await program.providerPayouts.saveConnectedAccount(bob.id, 'acct_bob1')
  const cat = await program.affiliates.create({ email: 'cat@example.com' })
  for (const [affiliateId, baseValue] of [[ann.id, 100], [ann.id, 50], [bob.id, 200], [cat.id, 10]] as const) {
    await program.conversions.create({ type: 'purchase', affiliateId, baseValue })
    clock.advance({ minutes: 1 })
  }
  const runner = payoutRunner(program, { paypal: payPalClient({ baseUrl: paypal.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }), stripe: { secretKey: SECRET_KEY, baseUrl: stripe.url } })
  const bases: Record<string, string> = {}
  for (const shape of ['primary', 'alternative'] as const) {
    const handler = createHandler(program, { shape, rateLimit: false, ...(options.withRuns === false ? {} : { payoutRuns: { run: (_project, input) => runner.run(input) } }) })
    const server: Server = createServer(handler.node)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    closing.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    bases[shape] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`
  }
  const key = (await program.keys.create({ scopes: ['*'] })).key
  const post = async (body: unknown, headers: Record<string, string> = {}, shape = 'primary', bearer = key) => {
    const response = await fetch(`${bases[shape]}/payouts/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    return { status: response.status, headers: response.headers, body: (await response.json()) as any }
  }
  return { program, storage, clock, paypal, stripe, ann, bob, cat, post, bases, key }
}

const postedBatches = (paypal: Awaited<ReturnType<typeof startFakePayPal>>) => paypal.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payments/payouts').length

describe('POST /payouts/runs', () => {
  it('dry_run answers the batch it would send and sends and writes nothing', async () => {
    const { program, paypal, stripe, ann, bob, cat, post } = await setUp()
    const dry = await post({ dry_run: true })
    expect(dry.status).toBe(200)
    expect(dry.body).toEqual({
      success: true,
      data: {
        period: '2026-12',
        dry_run: true,
        items: [
          { affiliate_id: ann.id, affiliate_email: 'ann@example.com', amount: '45.00', currency: 'USD', provider: 'paypal', outcome: 'would_send', payout_id: null, resumed: false, reason: null },
          { affiliate_id: bob.id, affiliate_email: 'bob@example.com', amount: '60.00', currency: 'USD', provider: 'stripe', outcome: 'would_send', payout_id: null, resumed: false, reason: null },
          { affiliate_id: cat.id, affiliate_email: 'cat@example.com', amount: '3.00', currency: 'USD', provider: null, outcome: 'skipped', payout_id: null, resumed: false, reason: 'no PayPal email or Stripe connected account on file' },
        ],
        counts: { paid: 0, processing: 0, failed: 0, skipped: 1, would_send: 2 },
      },
    })
    expect(postedBatches(paypal)).toBe(0)
    expect(stripe.transferRequests()).toBe(0)
    expect(await program.providerPayouts.listRun('2026-12')).toEqual([])
    expect(await earnings(program, ann.id)).toEqual({ paid: '0.00', unpaid: '45.00', credit: '0.00' })
  })

  it('pays each due affiliate once per period: a replayed Idempotency-Key answers the same run, a second run pays nobody again; the ledger to the cent', async () => {
    const { program, storage, clock, paypal, stripe, ann, bob, cat, post, bases, key } = await setUp()
    const first = await post({}, { 'Idempotency-Key': 'run-december' })
    expect(first.status).toBe(200)
    expect(first.body.data.items.map((item: any) => [item.affiliate_email, item.amount, item.provider, item.outcome])).toEqual([
      ['ann@example.com', '45.00', 'paypal', 'paid'],
      ['bob@example.com', '60.00', 'stripe', 'paid'],
      ['cat@example.com', '3.00', null, 'skipped'],
    ])
    expect(first.body.data.counts).toEqual({ paid: 2, processing: 0, failed: 0, skipped: 1, would_send: 0 })
    // The provider keys are the affiliate's and the period's.
    expect([...paypal.batches.values()].map((batch) => batch.senderBatchId)).toEqual([`${program.projectId}-run-2026-12-affiliate-${ann.id}`])
    expect(stripe.transfers.map((transfer) => [transfer.destination, transfer.amount])).toEqual([['acct_bob1', 6000]])
    // Each payout paid tells the webhooks (payout.created, as docs/webhooks.md describes it).
    const events = (await recordedEvents(storage, program)).filter((event) => event.type.startsWith('payout.'))
    expect(events.map((event) => [event.type, (event.body.payout as any).id, (event.body.payout as any).amount])).toEqual([
      ['payout.created', String(first.body.data.items[0].payout_id), '45.00'],
      ['payout.created', String(first.body.data.items[1].payout_id), '60.00'],
    ])

    const replay = await post({}, { 'Idempotency-Key': 'run-december' })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body).toEqual(first.body)
    const again = await post({})
    expect(again.body.data.items).toEqual([{ affiliate_id: cat.id, affiliate_email: 'cat@example.com', amount: '3.00', currency: 'USD', provider: null, outcome: 'skipped', payout_id: null, resumed: false, reason: 'no PayPal email or Stripe connected account on file' }])
    expect(postedBatches(paypal)).toBe(1)
    expect(stripe.transferRequests()).toBe(1)

    expect(await earnings(program, ann.id)).toEqual({ paid: '45.00', unpaid: '0.00', credit: '0.00' })
    expect(await earnings(program, bob.id)).toEqual({ paid: '60.00', unpaid: '0.00', credit: '0.00' })
    expect(await earnings(program, cat.id)).toEqual({ paid: '0.00', unpaid: '3.00', credit: '0.00' })
    const balances = await fetch(`${bases.primary}/ledger/balances?as_of=2026-12-31T00:00:00Z`, { headers: { authorization: `Bearer ${key}` } })
    expect(((await balances.json()) as any).data.totals).toMatchObject({ total_earnings: '108.00', paid_earnings: '105.00', unpaid_earnings: '3.00', credit: '0.00' })
    // The run's payouts are the period's; each sent the whole payable balance.
    expect((await program.providerPayouts.listRun('2026-12')).map((sent) => [sent.affiliateId, sent.state, sent.payout.amount, sent.runPeriod])).toEqual([
      [ann.id, 'paid', 4500n, '2026-12'],
      [bob.id, 'paid', 6000n, '2026-12'],
    ])

    // Next month's money is next month's run.
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 20 })
    expect((await post({})).body.data.items.filter((item: any) => item.outcome !== 'skipped')).toEqual([])
    clock.set('2027-01-01T09:00:00Z')
    const january = await post({})
    expect(january.body.data).toMatchObject({ period: '2027-01', counts: { paid: 1, skipped: 1 } })
    expect(await earnings(program, ann.id)).toEqual({ paid: '51.00', unpaid: '0.00', credit: '0.00' })
    expect([...paypal.batches.values()].map((batch) => batch.senderBatchId)).toEqual([
      `${program.projectId}-run-2026-12-affiliate-${ann.id}`,
      `${program.projectId}-run-2027-01-affiliate-${ann.id}`,
    ])
  })

  it('a transfer Stripe did not answer stays processing, its amount held; the next run sends it again under the same key and it is paid once', async () => {
    const { program, stripe, bob, post } = await setUp({ stripeFailures: 1 })
    const first = await post({})
    const bobs = (body: any) => body.data.items.find((item: any) => item.affiliate_email === 'bob@example.com')
    expect(bobs(first.body)).toMatchObject({ outcome: 'processing', reason: 'An unknown error occurred', resumed: false })
    expect(await earnings(program, bob.id)).toEqual({ paid: '60.00', unpaid: '0.00', credit: '60.00' })
    const dry = await post({ dry_run: true })
    expect(dry.body.data.items).toEqual([expect.objectContaining({ affiliate_email: 'bob@example.com', outcome: 'processing', resumed: true }), expect.objectContaining({ outcome: 'skipped' })])
    const second = await post({})
    expect(bobs(second.body)).toMatchObject({ outcome: 'paid', resumed: true, payout_id: bobs(first.body).payout_id })
    expect(stripe.transfers).toHaveLength(1)
    expect(await earnings(program, bob.id)).toEqual({ paid: '60.00', unpaid: '0.00', credit: '0.00' })
  })

  it('the alternative shape answers the same run under data.run', async () => {
    const { ann, post } = await setUp()
    const dry = await post({ dry_run: true }, {}, 'alternative')
    expect(dry.status).toBe(200)
    expect(dry.body.data.run.items[0]).toEqual({ affiliateId: `aff_${ann.id}`, affiliateEmail: 'ann@example.com', amount: 45, currency: 'USD', provider: 'paypal', outcome: 'would_send', payoutId: null, resumed: false, reason: null })
    expect(dry.body.data.run.counts).toEqual({ paid: 0, processing: 0, failed: 0, skipped: 1, wouldSend: 2 })
  })

  it('bad input is a 400 naming the field, a read-only key 403, no providers 501, with automatic payouts off 409; nothing is sent', async () => {
    const { program, paypal, stripe, ann, post } = await setUp()
    const bad = await post({ dry_run: 'yes' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain('dry_run')
    const unknown = await post({ period: '2026-11' })
    expect(unknown.status).toBe(400)
    expect(JSON.stringify(unknown.body)).toContain('period')
    const reader = (await program.keys.create({ scopes: ['payouts:read'] })).key
    expect((await post({}, {}, 'primary', reader)).status).toBe(403)
    await program.projects.updateSettings(program.projectId, { ...SETTINGS, payouts: { automatic: { paypal: false, stripe: false } } })
    await new Promise((resolve) => setTimeout(resolve, 1100)) // settings are re-read at most once a second
    const off = await post({})
    expect(off.status).toBe(409)
    expect(JSON.stringify(off.body)).toContain('payouts.automatic')
    expect(postedBatches(paypal)).toBe(0)
    expect(stripe.transferRequests()).toBe(0)
    expect(await earnings(program, ann.id)).toEqual({ paid: '0.00', unpaid: '45.00', credit: '0.00' })

    const none = await setUp({ withRuns: false })
    const refused = await none.post({})
    expect(refused.status).toBe(501)
    expect(JSON.stringify(refused.body)).toContain('payoutProviders')
  })

  it("serve's portal offers Stripe Connect with payoutProviders.stripe; the run then pays the account the affiliate connected", async () => {
    const stripe = await startFakeStripe({ accounts: [] })
    closing.push(() => stripe.close())
    const storage = memoryStorage()
    const program = await createAffiliateProgram({ storage, settings: { ...SETTINGS, payouts: { automatic: { stripe: true } } } })
    const ivy = await program.affiliates.create({ email: 'ivy@example.com' })
    await program.conversions.create({ type: 'purchase', affiliateId: ivy.id, baseValue: 100 })
    const portal = configuredPortal(program, { sessions: storage.sessions, state: storage.keyedState }, { enabled: true, publicUrl: 'https://partners.example.com' }, undefined, undefined, { secretKey: SECRET_KEY, baseUrl: stripe.url })
    const agent = new Agent(portal)
    await agent.signIn((await portal.createSignInLink('ivy@example.com')).url)
    expect(await (await agent.get('/portal/payouts')).text()).toContain('Connect with Stripe')
    expect((await agent.post('/portal/payouts/stripe', { csrf: await agent.csrfOf('/portal/payouts') })).status).toBe(200)
    expect(await program.providerPayouts.connectedAccount(ivy.id)).toBe('acct_1001')
    const result = await payoutRunner(program, { stripe: { secretKey: SECRET_KEY, baseUrl: stripe.url } }).run()
    expect(result.items).toMatchObject([{ affiliateEmail: 'ivy@example.com', provider: 'stripe', outcome: 'paid', amount: '30.00' }])
    expect(stripe.transfers).toMatchObject([{ destination: 'acct_1001', amount: 3000 }])
  })

  it('the schedule: waits for payouts.schedule.day, runs the period once, and takes over a run whose process died once its lease ran out', async () => {
    const paypal = await startFakePayPal({ statusFor: () => 'SUCCESS' })
    closing.push(() => paypal.close())
    const storage = memoryStorage()
    const clock = testClock('2026-11-20T10:00:00Z')
    const program = await createAffiliateProgram({ storage, clock, settings: { ...SETTINGS, payouts: { schedule: { day: 8 }, automatic: { paypal: true } } } })
    const ann = await program.affiliates.create({ email: 'ann@example.com', paypalEmail: 'ann.paypal@example.com' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 100 }) // payable on December 1
    const runner = payoutRunner(program, { paypal: payPalClient({ baseUrl: paypal.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }) })
    const tick = () => runScheduled(program, storage.keyedState, runner, () => clock.now())

    clock.set('2026-12-07T23:00:00Z')
    expect(await tick()).toEqual({ status: 'waiting', period: '2026-12' })
    clock.set('2026-12-08T00:00:00Z')
    // A process that claimed December's run and died before paying anybody.
    expect(await storage.keyedState.claim({ projectId: program.projectId, key: scheduleKey('2026-12'), fingerprint: 'scheduled payout run', response: null, createdAt: clock.now(), leaseUntil: new Date(clock.now().getTime() + SCHEDULE_LEASE_MS), expiresAt: new Date('2027-03-01T00:00:00Z') })).toBeNull()
    expect(await tick()).toEqual({ status: 'running', period: '2026-12' })
    expect(paypal.batches.size).toBe(0)
    clock.advance({ seconds: 61 })
    const ran = await tick()
    expect(ran).toMatchObject({ status: 'ran', period: '2026-12', result: { counts: { paid: 1 } } })
    expect(await tick()).toEqual({ status: 'done', period: '2026-12' })
    clock.set('2026-12-28T00:00:00Z')
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 50, occurredAt: '2026-11-30T00:00:00Z' })
    expect(await tick()).toEqual({ status: 'done', period: '2026-12' })
    expect(paypal.batches.size).toBe(1)
    expect(await earnings(program, ann.id)).toEqual({ paid: '30.00', unpaid: '15.00', credit: '0.00' })
    // January's run pays what came since.
    clock.set('2027-01-08T00:00:00Z')
    expect(await tick()).toMatchObject({ status: 'ran', period: '2027-01', result: { counts: { paid: 1 } } })
    expect(await earnings(program, ann.id)).toEqual({ paid: '45.00', unpaid: '0.00', credit: '0.00' })
  })
})
