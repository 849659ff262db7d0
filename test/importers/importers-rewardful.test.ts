// Importing a Rewardful program through its REST API (a local server implementing the documented
// endpoints and paging): the ledger per affiliate matches the commissions to the cent, old link
// tokens become referral codes, a second run creates nothing, a dry run writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { importProgram, ImportSourceError, rewardfulSource } from '../../src/importers/index.js'
import { createTrackingHandler } from '../../src/tracking/index.js'
import { API_SECRET, startFakeRewardful, type FakeRewardful } from '../support/importers/rewardful-server.js'
import { DATABASE_URL, freshPostgresStorage } from '../support/sql/pg-schema.js'
import { ledger } from '../support/importers/ledger.js'

let rewardful: FakeRewardful
beforeAll(async () => {
  rewardful = await startFakeRewardful()
})
afterAll(() => rewardful.close())

/** A program on 2026-03-01 with Rewardful's 30-day hold, and 10 % on renewals. */
async function program(): Promise<AffiliateProgram> {
  return createAffiliateProgram({
    storage: memoryStorage(),
    clock: testClock('2026-03-01T00:00:00.000Z'),
    settings: { currency: 'USD', holdPeriodDays: 30, commission: { purchase: { type: 'percentage', rate: 30 }, recurring: { rate: 10 } } },
  })
}

const source = () => rewardfulSource({ apiKey: API_SECRET, apiUrl: rewardful.url })

describe('import rewardful', () => {
  it('imports affiliates, codes, coupons, customers and commissions; the ledger matches the commissions to the cent', async () => {
    const target = await program()
    // Present before the import, with another name: reported, not overwritten.
    await target.affiliates.create({ email: 'q@example.com', name: 'Quartermaster', referralCode: 'qbranch' })

    const report = await importProgram(target, source())

    expect(report.counts.affiliates).toMatchObject({ created: 2, differs: 1, error: 0 })
    expect(report.records).toContainEqual(expect.objectContaining({ entity: 'affiliates', sourceId: '95d48f70-f1d4-42d9-b929-21996b6d9eb4', outcome: 'differs', field: 'name' }))
    expect((await target.affiliates.get('q@example.com')).name).toBe('Quartermaster')
    expect(report.counts.coupons).toMatchObject({ created: 1, error: 0 })
    expect(report.counts.customers).toMatchObject({ created: 4, skipped: 1, error: 0 })
    expect(report.counts.commissions).toMatchObject({ created: 6, error: 0 })

    // By hand: james 30.00 paid + 30.00 due + 14.99 pending (25.00 voided earns nothing);
    // eve 12.34 due (disabled in Rewardful, approved here); q 50.00 paid.
    expect(await ledger(target, 'james@example.com')).toEqual({ total: '74.99', paid: '30.00', unpaid: '44.99' })
    expect(await ledger(target, 'eve@example.com')).toEqual({ total: '12.34', paid: '0.00', unpaid: '12.34' })
    expect(await ledger(target, 'q@example.com')).toEqual({ total: '50.00', paid: '50.00', unpaid: '0.00' })
    expect(report.affiliates).toContainEqual({ email: 'james@example.com', commissions: 4, currency: 'USD', total: '74.99', unpaid: '44.99', ledgerTotal: '74.99', ledgerUnpaid: '44.99' })

    const james = await target.affiliates.get('james@example.com')
    expect(james).toMatchObject({ name: 'James Bond', referralCode: 'jb007', status: 'active', paypalEmail: 'james.paypal@example.com' })
    expect(await target.affiliates.get('eve@example.com')).toMatchObject({ referralCode: 'eve', status: 'inactive' })
    const statuses = Object.fromEntries((await target.conversions.list({ limit: 100 })).items.map((c) => [c.reference, c.status]))
    expect(statuses).toEqual({
      'import:rewardful:c1': 'active',
      'import:rewardful:c2': 'active',
      'import:rewardful:c3': 'pending',
      'import:rewardful:c4': 'rejected',
      'import:rewardful:c5': 'active',
      'import:rewardful:c6': 'active',
    })
    expect((await target.coupons.list({ code: 'JB007SAVE' })).items[0]).toMatchObject({ affiliateId: james.id, processorCouponId: 'promo_1a2b3c' })
    expect((await target.referrals.get('bob@example.com')).affiliateId).toBe(james.id)

    // Alice's first purchase is her oldest commission: her next payment is a renewal (10 %).
    const renewal = await target.conversions.create({ type: 'purchase', email: 'alice@example.com', baseValue: '100.00' })
    expect(renewal.conversion).toMatchObject({ affiliateId: james.id, basis: 'recurring', value: '10.00' })
    // Rewardful paged: every list was read page after page (2 objects a page).
    expect(rewardful.requests.filter((path) => path.startsWith('/v1/commissions'))).toHaveLength(3)
  })

  it('an old Rewardful link token keeps attributing: /r/<token> counts for the imported affiliate and sets its referral cookie', async () => {
    const target = await program()
    await importProgram(target, source())
    const tracking = createTrackingHandler(target, { landingUrl: 'https://www.example.com/' })

    const response = await tracking(new Request('https://links.example/r/jb007', { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' } }), { clientAddress: '203.0.113.7' })

    expect(response.status).toBe(302)
    expect(response.headers.get('set-cookie')).toMatch(/^ak_ref=jb007\./)
    expect((await target.affiliates.get('james@example.com')).clicks).toBe(1)
    const sale = await target.conversions.create({ type: 'purchase', referralCode: 'jb007', email: 'new@example.com', baseValue: '50.00' })
    expect(sale.conversion).toMatchObject({ affiliateId: (await target.affiliates.get('james@example.com')).id, value: '15.00' })
  })

  it('creates nothing twice: a second run finds every record and leaves the ledger as it was', async () => {
    const target = await program()
    await importProgram(target, source())
    const before = await Promise.all(['james@example.com', 'eve@example.com', 'q@example.com'].map((email) => ledger(target, email)))

    const again = await importProgram(target, source())

    for (const entity of ['affiliates', 'coupons', 'customers', 'commissions'] as const) expect(again.counts[entity].created).toBe(0)
    expect(again.counts.commissions.existing).toBe(6)
    expect(again.counts.affiliates.existing).toBe(3)
    expect(await Promise.all(['james@example.com', 'eve@example.com', 'q@example.com'].map((email) => ledger(target, email)))).toEqual(before)
    expect((await target.conversions.list({ limit: 100 })).total).toBe(6)
    expect((await target.affiliates.list()).total).toBe(3)
  })

  it('finishes a run that stopped between creating a voided commission and rejecting it', async () => {
    const target = await program()
    await importProgram(target, source())
    const voided = (await target.conversions.list({ limit: 100 })).items.find((c) => c.reference === 'import:rewardful:c4')!
    // As if the first run died after the create: approve it back (rejected is final, so build the state anew).
    await target.conversions.delete(voided.id)
    await target.conversions.create({ type: 'purchase', affiliateId: voided.affiliateId, email: 'alice@example.com', value: '25.00', baseValue: '100.00', baseValueCurrency: 'USD', paid: false, reference: 'import:rewardful:c4', occurredAt: '2026-02-10T10:00:00.000Z' })
    expect((await ledger(target, 'james@example.com')).total).toBe('99.99')

    const again = await importProgram(target, source())

    expect(again.counts.commissions).toMatchObject({ created: 0, existing: 6, error: 0 })
    expect(await ledger(target, 'james@example.com')).toEqual({ total: '74.99', paid: '30.00', unpaid: '44.99' })
  })

  it('update: an existing affiliate that differs takes the tool\'s name, status and PayPal email', async () => {
    const target = await program()
    await target.affiliates.create({ email: 'q@example.com', name: 'Quartermaster', referralCode: 'qbranch' })

    const report = await importProgram(target, source(), { update: true })

    expect(report.counts.affiliates).toMatchObject({ created: 2, updated: 1, differs: 0 })
    expect((await target.affiliates.get('q@example.com')).name).toBe('Q Branch')
  })

  it('dry run: reports what it would create and writes nothing', async () => {
    const target = await program()

    const report = await importProgram(target, source(), { dryRun: true })

    expect(report.dryRun).toBe(true)
    expect(report.counts.affiliates.created).toBe(3)
    expect(report.counts.commissions.created).toBe(6)
    expect(report.affiliates.find((line) => line.email === 'james@example.com')).toEqual({ email: 'james@example.com', commissions: 4, currency: 'USD', total: '74.99', unpaid: '44.99' })
    expect((await target.affiliates.list()).total).toBe(0)
    expect((await target.referrals.list()).total).toBe(0)
    expect((await target.conversions.list()).total).toBe(0)
    expect((await target.coupons.list()).total).toBe(0)
  })

  it('retries a 429 after Retry-After, and says so', async () => {
    const target = await program()
    rewardful.rateLimit('/v1/affiliates', 2)
    const retries: string[] = []

    const report = await importProgram(target, rewardfulSource({ apiKey: API_SECRET, apiUrl: rewardful.url, onRetry: (line) => retries.push(line) }))

    expect(report.counts.affiliates.created).toBe(3)
    expect(retries).toEqual([
      'Rewardful rate limit (429) on /affiliates page 1: retry 1 of 4 in 0s',
      'Rewardful rate limit (429) on /affiliates page 1: retry 2 of 4 in 0s',
    ])
  })

  it('a refused API key stops the import with one line, before writing anything', async () => {
    const target = await program()
    const run = importProgram(target, rewardfulSource({ apiKey: 'wrong', apiUrl: rewardful.url }))
    await expect(run).rejects.toThrow(ImportSourceError)
    await expect(importProgram(target, rewardfulSource({ apiKey: 'wrong', apiUrl: rewardful.url }))).rejects.toThrow('Rewardful refused the API key (401): use the API Secret from Company Settings')
    expect((await target.affiliates.list()).total).toBe(0)
  })
})

describe.skipIf(!DATABASE_URL)('import rewardful on PostgreSQL', () => {
  it('two imports at once, each with its own pool: every record exactly once, the ledger to the cent', async () => {
    const first = freshPostgresStorage()
    const settings = { currency: 'USD', holdPeriodDays: 30 } as const
    const clock = testClock('2026-03-01T00:00:00.000Z')
    const a = await createAffiliateProgram({ storage: first.storage, clock, settings })
    const second = postgresStorage({ connectionString: DATABASE_URL!, schema: first.schema })
    const b = await createAffiliateProgram({ storage: second, clock, settings })
    try {
      const reports = await Promise.all([importProgram(a, source()), importProgram(b, source())])

      for (const [entity, records] of [['affiliates', 3], ['coupons', 1], ['customers', 4], ['commissions', 6]] as const) {
        const [x, y] = reports.map((report) => report.counts[entity])
        expect(x!.created + y!.created, entity).toBe(records)
        expect([...reports[0]!.records, ...reports[1]!.records].filter((r) => r.outcome === "error"), entity).toEqual([])
      }
      expect((await a.affiliates.list()).total).toBe(3)
      expect((await a.conversions.list({ limit: 100 })).total).toBe(6)
      expect(await ledger(a, 'james@example.com')).toEqual({ total: '74.99', paid: '30.00', unpaid: '44.99' })
      expect(await ledger(a, 'eve@example.com')).toEqual({ total: '12.34', paid: '0.00', unpaid: '12.34' })
      expect(await ledger(a, 'q@example.com')).toEqual({ total: '50.00', paid: '50.00', unpaid: '0.00' })
    } finally {
      await second.close()
      await first.cleanup()
    }
  })
})

describe('import: records the program refuses', () => {
  const list = <T>(...items: T[]) => ({ async *[Symbol.asyncIterator]() { yield* items } })
  const commission = { customerEmail: null, currency: 'USD', state: 'due' as const, occurredAt: new Date('2026-01-02T00:00:00.000Z'), saleAmountMinor: 1000, saleCurrency: 'USD' }

  it('each is an error naming the record and the field; the others are imported, no affiliate is half written', async () => {
    const target = await program()
    const report = await importProgram(target, {
      name: 'test',
      affiliates: () =>
        list(
          { sourceId: 'a-bad', email: 'not-an-email', name: 'Bad', status: 'active' as const, paypalEmail: null, tokens: ['bad1'], group: null },
          { sourceId: 'a-ok', email: 'ok@example.com', name: 'Ok', status: 'active' as const, paypalEmail: 'also-bad', tokens: ['ok1'], group: null },
          { sourceId: 'a-good', email: 'good@example.com', name: 'Good', status: 'active' as const, paypalEmail: null, tokens: ['x'], group: 'Unknown campaign' },
        ),
      coupons: () => list({ sourceId: 'k-bad', affiliateSourceId: 'a-good', code: 'has space', providerCouponId: null }),
      customers: () => list({ sourceId: 'r-orphan', affiliateSourceId: 'a-missing', email: 'x@example.com', converted: true, providerCustomerId: null }),
      commissions: () =>
        list(
          { ...commission, sourceId: 'c-eur', affiliateSourceId: 'a-good', amountMinor: 100, currency: 'EUR' },
          { ...commission, sourceId: 'c-orphan', affiliateSourceId: 'a-bad', amountMinor: 100 },
          { ...commission, sourceId: 'c-good', affiliateSourceId: 'a-good', amountMinor: 250 },
          { ...commission, sourceId: 'c-neg', affiliateSourceId: 'a-good', amountMinor: -250 },
        ),
    })

    const errors = report.records.filter((record) => record.outcome === 'error').map(({ entity, sourceId, field }) => [entity, sourceId, field])
    expect(errors).toEqual([
      ['affiliates', 'a-bad', 'email'],
      ['affiliates', 'a-ok', 'paypalEmail'],
      ['links', 'a-good', 'token'],
      ['coupons', 'k-bad', 'code'],
      ['customers', 'r-orphan', 'affiliate'],
      ['commissions', 'c-eur', 'currency'],
      ['commissions', 'c-neg', 'amount'],
      ['commissions', 'c-orphan', 'affiliate'],
    ])
    expect(report.records).toContainEqual(expect.objectContaining({ sourceId: 'c-neg', message: expect.stringContaining('negative commission') }))
    expect(report.records).toContainEqual(expect.objectContaining({ outcome: 'warning', sourceId: 'a-good', field: 'campaign' }))
    expect((await target.affiliates.list()).items.map((affiliate) => affiliate.email)).toEqual(['good@example.com'])
    expect(await ledger(target, 'good@example.com')).toEqual({ total: '2.50', paid: '0.00', unpaid: '2.50' })
  })
})
