// A payment in a currency without an exchange rate waits (listed with the reason) instead of being
// ignored for good; once the rate is there, an operator replays it from the event log and it
// applies, with the refund that waited for it. Replaying is idempotent: twice, at once, or of an
// applied event, it credits nothing twice. On memory and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAdminConsole } from '../../src/admin/index.js'
import { createHandler } from '../../src/http/index.js'
import { pgliteStorage } from '../../src/adapters/pglite/index.js'
import { createAffiliateProgram, testClock, type StoragePort } from '../../src/index.js'
import { providerEventReplay } from '../../src/providers/replay.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { adminFixture, signedInAgent } from '../support/admin/helpers.js'
import { run } from '../support/cli/process.js'
import { snapshot } from '../conformance/helpers.js'
import { migratedDataDir } from '../support/pglite-template.js'
import { SCENARIO_SETTINGS } from '../support/providers/scenario.js'
import { customerCreated, invoicePaid, legacyChargeRefunded, legacyInvoicePaid, unusedEvent } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import { DATABASE_URL, freshPostgresStorage } from '../support/sql/pg-schema.js'

const storages: Array<[string, () => { storage: StoragePort; cleanup(): Promise<void> }]> = [['memory', () => ({ storage: memoryStorage(), cleanup: async () => undefined })]]
if (DATABASE_URL) storages.push(['postgres', () => freshPostgresStorage()])

const dan = { customer: 'cus_Dan', email: 'dan@example.com' }
// 100.00 EUR, no tax; half of it refunded later.
const euroInvoice = legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_DanEur', ...dan, subtotal: 10000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_DanEur', charge: 'ch_DanEur', currency: 'eur' })
const halfRefund = legacyChargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_DanEur', customer: dan.customer, paymentIntent: 'pi_DanEur', invoice: 'in_DanEur', amount: 10000, refundedSoFar: 5000 })

/** A USD program whose exchange rates are whatever `rates` holds when asked. */
async function setup(storage: StoragePort) {
  const rates = new Map<string, string>()
  const clock = testClock('2026-02-01T00:00:00Z')
  const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS, exchangeRates: (from, to) => rates.get(`${from}->${to}`) ?? null })
  await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
  await program.referrals.create({ email: dan.email, referralCode: 'ANN' })
  const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
  return { program, clock, rates, handler, replay: providerEventReplay({ program, storage }).replay }
}

const conversions = async (program: Awaited<ReturnType<typeof setup>>['program']) =>
  (await program.conversions.list()).items.map((c) => [c.reference, c.baseValue, c.baseValueCurrency, c.refundedBaseValue, c.value, c.currency])

for (const [name, fresh] of storages) {
  describe(`${name}: a payment without an exchange rate`, () => {
    it('waits, listed with the reason; replayed once the rate exists it applies, and the refund that waited for it follows', async () => {
      const { storage, cleanup } = fresh()
      try {
        const { program, clock, rates, handler, replay } = await setup(storage)
        expect(await (await deliverStripe(handler, euroInvoice, clock)).json()).toMatchObject({ status: 'waiting' })
        expect(await (await deliverStripe(handler, halfRefund, clock)).json()).toMatchObject({ status: 'waiting' })
        const [waiting] = (await program.providerEvents.list({ reference: 'in_DanEur', status: 'waiting' })).items.filter((event) => event.type === 'invoice.paid')
        expect(waiting).toMatchObject({ waitingFor: 'rate:EUR->USD:in_DanEur', detail: expect.stringContaining('in_DanEur: no exchange rate available for EUR->USD (yet): waiting for the rate') })
        expect(await conversions(program)).toEqual([])

        // No rate yet: a replay leaves it waiting.
        expect(await replay(waiting!.id)).toMatchObject({ replayed: true, event: { status: 'waiting', waitingFor: 'rate:EUR->USD:in_DanEur' } })
        rates.set('EUR->USD', '1.1')
        const replayed = await replay(waiting!.id)
        expect(replayed).toMatchObject({ replayed: true, event: { id: waiting!.id, status: 'applied' } })
        // 100.00 EUR at 1.1 is 110.00 USD; 30% is 33.00, half of it refunded: 16.50.
        expect(await conversions(program)).toEqual([['in_DanEur', '100.00', 'EUR', '50.00', '16.50', 'USD']])
        expect((await program.providerEvents.list({ status: 'waiting' })).total).toBe(0)

        const before = await snapshot(program)
        expect(await replay(waiting!.id)).toMatchObject({ replayed: false, message: expect.stringContaining('was applied already') })
        const refundEvent = (await program.providerEvents.list({ reference: 'in_DanEur' })).items.find((event) => event.type === 'charge.refunded')!
        expect(refundEvent.status).toBe('applied')
        expect(await replay(refundEvent.id)).toMatchObject({ replayed: false })
        expect(await snapshot(program)).toBe(before)
      } finally {
        await cleanup()
      }
    }, 60_000)

    it('payments waiting for a rate do not re-check one another: each new one asks for the rate a bounded number of times', async () => {
      const { storage, cleanup } = fresh()
      try {
        const clock = testClock('2026-02-01T00:00:00Z')
        let asked = 0
        const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS, exchangeRates: () => ((asked += 1), null) })
        await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
        await program.referrals.create({ email: dan.email, referralCode: 'ANN' })
        const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
        const payments = 10
        for (let n = 1; n <= payments; n += 1) {
          const invoice = legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: `in_DanEur${n}`, ...dan, subtotal: 1000, tax: 0, billingReason: 'manual', paymentIntent: `pi_DanEur${n}`, charge: `ch_DanEur${n}`, currency: 'eur' })
          expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'waiting' })
        }
        // Applied once and re-checked once after its save: a key shared by the currency pair had every payment re-check all earlier ones (65 asks).
        expect(asked).toBeLessThanOrEqual(2 * payments)
        expect((await program.providerEvents.list({ status: 'waiting' })).total).toBe(payments)
      } finally {
        await cleanup()
      }
    }, 60_000)

    it('two replays of one waiting event at once apply it once', async () => {
      const { storage, cleanup } = fresh()
      try {
        const { program, clock, rates, handler, replay } = await setup(storage)
        await deliverStripe(handler, euroInvoice, clock)
        const [waiting] = (await program.providerEvents.list({ status: 'waiting' })).items
        rates.set('EUR->USD', '1.1')
        const results = await Promise.allSettled([replay(waiting!.id), replay(waiting!.id), replay(waiting!.id)])
        // One applies it; the others find it taken (or being applied: a conflict, try later).
        const outcomes = results.map((result) => (result.status === 'fulfilled' ? (result.value.replayed ? 'replayed' : 'taken') : (result.reason as { code: string }).code))
        expect(outcomes.filter((outcome) => outcome === 'replayed')).toHaveLength(1)
        expect(outcomes.filter((outcome) => outcome !== 'replayed').every((outcome) => outcome === 'taken' || outcome === 'conflict')).toBe(true)
        expect(await conversions(program)).toEqual([['in_DanEur', '100.00', 'EUR', '0.00', '33.00', 'USD']])
        expect((await program.affiliates.get('ann@affiliates.example')).earnings.total).toBe('33.00')
      } finally {
        await cleanup()
      }
    }, 60_000)

    it('an ignored payment keeps what it needs to be replayed; an unused event type, an unknown id or another project cannot be, and change nothing', async () => {
      const { storage, cleanup } = fresh()
      try {
        const { program, clock, handler, replay } = await setup(storage)
        await deliverStripe(handler, customerCreated({ at: '2026-01-31T09:00:00Z', ...dan }), clock)
        // The app used in_DanSignup as a signup's reference: the invoice's conversion is refused.
        await program.conversions.create({ type: 'signup', email: dan.email, reference: 'in_DanSignup' })
        const refused = invoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_DanSignup', ...dan, subtotal: 1000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_x' })
        expect(await (await deliverStripe(handler, refused, clock)).json()).toMatchObject({ status: 'ignored' })
        const [ignored] = (await program.providerEvents.list({ reference: 'in_DanSignup' })).items
        expect(await replay(ignored!.id)).toMatchObject({ replayed: true, event: { status: 'ignored', detail: expect.stringContaining('different payload') } })

        await deliverStripe(handler, unusedEvent('2026-01-31T12:00:00Z'), clock)
        const [unused] = (await program.providerEvents.list({ reference: 'pi_unused' })).items
        const before = await snapshot(program)
        await expect(replay(unused!.id)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('cannot be replayed') })
        await expect(replay(999_999)).rejects.toMatchObject({ code: 'not_found' })
        await expect(replay(0)).rejects.toMatchObject({ code: 'invalid_request', field: 'id' })
        const other = providerEventReplay({ program, storage, project: 'other-project' })
        await expect(other.replay(ignored!.id)).rejects.toMatchObject({ code: 'not_found' })
        expect(await snapshot(program)).toBe(before)
      } finally {
        await cleanup()
      }
    }, 60_000)
  })
}

describe('affiliate-kit providers replay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-replay-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("applies an invoice that waited for a referral the owner added since (nothing else would wake it); again, it applies nothing", async () => {
    const dataDir = migratedDataDir(join(dir, 'data'))
    const storage = pgliteStorage({ dataDir })
    const clock = testClock('2026-02-01T00:00:00Z')
    const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
    await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
    const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
    const gus = { customer: 'cus_Gus', email: 'gus@example.com' }
    const invoice = invoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Gus1', ...gus, subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Gus1' })
    expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'waiting' })
    // The owner learns Gus came through Ann and records it by hand.
    await program.referrals.create({ email: gus.email, referralCode: 'ANN' })
    await storage.close()

    const database = `pglite:${dataDir}`
    const listed = run(['providers', 'events', '--database', database, '--status', 'waiting'], { cwd: dir })
    expect(await listed.exited).toBe(0)
    const id = /^(\d+)\t\S+\tstripe\tinvoice\.paid\tin_Gus1\twaiting\t/m.exec(listed.output())?.[1]
    expect(id, listed.output()).toBeDefined()

    const replayed = run(['providers', 'replay', id!, '--database', database], { cwd: dir })
    expect(await replayed.exited, replayed.output()).toBe(0)
    expect(replayed.output()).toContain(`event ${id} (stripe ${invoice.id}) replayed: applied`)
    expect(replayed.output()).toMatch(/\tin_Gus1\tapplied\tin_Gus1: created conversion \d+ \(purchase, commission 15\.00 USD\)/)
    const again = run(['providers', 'replay', id!, '--database', database], { cwd: dir })
    expect(await again.exited).toBe(0)
    expect(again.output()).toContain('was applied already; nothing was applied again')

    const refused = run(['providers', 'replay', 'evt_1', '--database', database], { cwd: dir })
    expect(await refused.exited).toBe(1)
    expect(refused.output()).toContain('providers replay <event-id> needs the numeric id')

    const after = await createAffiliateProgram({ storage: pgliteStorage({ dataDir }) })
    try {
      expect((await after.affiliates.get('ann@affiliates.example')).earnings.total).toBe('15.00')
      expect((await after.conversions.list()).total).toBe(1)
    } finally {
      await after.close()
    }
  }, 120_000)
})

describe('admin console: replay on the provider events page', () => {
  it('shows why an event waits and a Replay button on waiting events; replaying applies it once and is in the audit log', async () => {
    const fixture = await adminFixture()
    const { program, storage, clock } = fixture
    const admin = createAdminConsole(program, { sessions: storage, auditLog: storage, providerEvents: providerEventReplay({ program, storage }) })
    const agent = await signedInAgent({ ...fixture, admin })
    await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
    const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
    const gus = { customer: 'cus_Gus', email: 'gus@example.com' }
    await deliverStripe(handler, invoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Gus1', ...gus, subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Gus1' }), clock)
    await deliverStripe(handler, unusedEvent('2026-01-31T11:00:00Z'), clock)
    const [waiting] = (await program.providerEvents.list({ status: 'waiting' })).items
    const row = (page: string, id: number) => new RegExp(`<tr data-provider-event="${id}">.*?</tr>`, 's').exec(page)?.[0] ?? ''

    const page = await (await agent.get('/admin/provider-events')).text()
    expect(row(page, waiting!.id)).toContain('for customer:cus_Gus')
    expect(row(page, waiting!.id)).toContain(`aria-label="Replay event ${waiting!.id}"`)
    const [unused] = (await program.providerEvents.list({ reference: 'pi_unused' })).items
    // An ignored event shows the button too; this one kept nothing to replay, and says so.
    expect(row(page, unused!.id)).toContain('Replay')

    await program.referrals.create({ email: gus.email, referralCode: 'ANN' })
    const csrf = await agent.csrfOf('/admin/provider-events')
    const replayed = await agent.post(`/admin/provider-events/${waiting!.id}/replay`, { csrf })
    expect(replayed.status).toBe(200)
    expect(await replayed.text()).toContain(`data-replay-status="applied">event ${waiting!.id} (stripe `)
    const again = await agent.post(`/admin/provider-events/${waiting!.id}/replay`, { csrf })
    expect(await again.text()).toContain('was applied already; nothing was applied again')
    // 30% of 50.00, once.
    expect((await program.affiliates.get('ann@affiliates.example')).earnings.total).toBe('15.00')
    expect(row(await (await agent.get('/admin/provider-events')).text(), waiting!.id)).not.toContain('Replay')

    const refused = await agent.post(`/admin/provider-events/${unused!.id}/replay`, { csrf })
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain('cannot be replayed')
    expect((await agent.post('/admin/provider-events/987654/replay', { csrf })).status).toBe(404)
    expect((await agent.post(`/admin/provider-events/${waiting!.id}/replay`, { csrf: 'forged' })).status).toBe(403)

    const audit = await storage.auditLog.list(program.projectId, { limit: 10, offset: 0 })
    expect(audit.items.filter((entry) => entry.action === 'provider_event.replay').map((entry) => [entry.target, entry.detail])).toEqual([
      [`provider_event:${waiting!.id}`, 'not replayed: applied'],
      [`provider_event:${waiting!.id}`, 'replayed: applied'],
    ])
  })

  it('without the providerEvents option the page has no Replay button', async () => {
    const fixture = await adminFixture()
    const agent = await signedInAgent(fixture)
    const handler = stripeHandler({ program: fixture.program, storage: fixture.storage, webhookSecret: STRIPE_SECRET })
    await deliverStripe(handler, invoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Gus1', customer: 'cus_Gus', email: 'gus@example.com', subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Gus1' }), fixture.clock)
    const page = await (await agent.get('/admin/provider-events')).text()
    expect(page).toContain('in_Gus1')
    expect(page).not.toContain('Replay')
  })
})

describe('REST: POST /provider-events/{id}/replay', () => {
  it('replays in both shapes with conversions:write; a second replay applies nothing; 501 without a replayer, 403 without the scope, 404 for an unknown id', async () => {
    const storage = memoryStorage()
    const { program, clock, rates, handler } = await setup(storage)
    await deliverStripe(handler, euroInvoice, clock)
    const [waiting] = (await program.providerEvents.list({ status: 'waiting' })).items
    rates.set('EUR->USD', '1.1')
    const { key } = await program.keys.create({ name: 'ops', scopes: ['conversions:write'] })
    const { key: reader } = await program.keys.create({ name: 'reader', scopes: ['conversions:read'] })
    const providerEvents = providerEventReplay({ program, storage })
    const post = (api: (request: Request) => Promise<Response>, id: number | string, apiKey = key) =>
      api(new Request(`https://api.example/api/v1/provider-events/${id}/replay`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } }))
    const primary = createHandler(program, { providerEvents, rateLimit: false })
    const alternative = createHandler(program, { providerEvents, rateLimit: false, shape: 'alternative' })

    expect((await post(primary, waiting!.id, reader)).status).toBe(403)
    expect((await post(createHandler(program, { rateLimit: false }), waiting!.id)).status).toBe(501)
    const first = await post(primary, waiting!.id)
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({ success: true, data: { replayed: true, event: { id: waiting!.id, status: 'applied', waiting_for: null, reference: 'in_DanEur' } } })
    const second = await post(alternative, waiting!.id)
    expect(await second.json()).toMatchObject({ success: true, data: { replayed: false, message: expect.stringContaining('applied already'), providerEvent: { id: waiting!.id, status: 'applied' } } })
    expect((await post(primary, 987_654)).status).toBe(404)
    expect((await post(primary, 'abc')).status).toBe(400)
    expect((await program.affiliates.get('ann@affiliates.example')).earnings.total).toBe('33.00')
  })
})
