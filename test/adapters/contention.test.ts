// 16 writes in flight on ONE entity (one customer, one affiliate, one subscription), alternating
// between two storages on one database (two pools on PostgreSQL, as two `serve` processes have),
// on every adapter: every answer is a 2xx or the documented 404, never a 500, and the figures
// afterwards are the ones the successful answers imply (docs/api.md "Concurrency").
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { migratedPgliteStorage } from '../support/pglite-template.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type StoragePort } from '../../src/index.js'
import type { ProjectSettingsInput } from '../../src/core/model/schemas.js'
import { createTrackingHandler } from '../../src/tracking/index.js'
import { caller, type Caller, type Reply } from '../support/http/helpers.js'
import { braintree, chargebee, lemonSqueezy, paddle, polar, recurly, stripeLegacy, type CheckoutProvider } from '../support/providers/checkouts.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const IN_FLIGHT = 16

interface Kind {
  name: string
  skip?: string
  /** Two storages on one database (the same storage twice where there is one connection), and their cleanup. */
  pair(): { storages: [StoragePort, StoragePort]; cleanup(): Promise<void> }
}

const KINDS: Kind[] = [
  { name: 'memory', pair: () => ((storage) => ({ storages: [storage, storage], cleanup: async () => {} }))(memoryStorage()) },
  { name: 'pglite', pair: () => (({ storage, cleanup }) => ({ storages: [storage, storage], cleanup }))(migratedPgliteStorage()) },
  {
    name: 'postgres, two pools',
    ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
    pair: () => {
      const first = freshPostgresStorage({ max: 10 })
      const second = postgresStorage({ connectionString: DATABASE_URL!, schema: first.schema, max: 10 })
      return {
        storages: [first.storage, second],
        cleanup: async () => {
          await second.close()
          await first.cleanup()
        },
      }
    },
  },
]

/** Runs `count` tasks, `IN_FLIGHT` at a time; their results in task order. */
async function inFlight<T>(count: number, task: (n: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count)
  let next = 0
  const worker = async () => {
    while (next < count) {
      const n = next++
      results[n] = await task(n)
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  return results
}

const statuses = (replies: Reply[]) => replies.map((reply) => reply.status)
/** The commission of an answer, as decimal text (the primary shape's numbers). */
const valueOf = (reply: Reply) => Number(reply.body.data.value).toFixed(2)
const tally = (values: readonly (string | number)[]) => values.reduce<Record<string, number>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {})

const fixed = (amount: string) => ({ type: 'fixed' as const, amount })
/** The recurring stages of the hot-rows issue: 10.00, then 9 renewals at 5.00, then 1.00 up to payment 100, then 0. */
const STAGED: ProjectSettingsInput = {
  holdPeriodDays: 0,
  commission: { purchase: fixed('10.00'), recurring: { maxPayments: 100, stages: [{ payments: 9, amount: '5.00' }, { amount: '1.00' }] } },
}
/** The commission of payment `n` under STAGED. */
const stagedValue = (n: number) => (n === 1 ? '10.00' : n <= 10 ? '5.00' : n <= 100 ? '1.00' : '0.00')

for (const kind of KINDS) {
  describe.skipIf(kind.skip !== undefined)(`contention on ${kind.name}: ${IN_FLIGHT} writes at once on one entity${kind.skip ? ` (skipped: ${kind.skip})` : ''}`, () => {
    let storages: [StoragePort, StoragePort]
    let cleanup: () => Promise<void>
    let projects = 0
    const clock = testClock('2026-03-10T12:00:00.000Z')

    beforeAll(() => ({ storages, cleanup } = kind.pair()))
    afterAll(() => cleanup?.())

    /** A fresh project seen through both storages: its program on the first, and a caller alternating between their handlers. */
    async function project(settings: ProjectSettingsInput) {
      projects += 1
      const name = `contention-${projects}`
      const programs = [] as AffiliateProgram[]
      for (const storage of storages) programs.push(await createAffiliateProgram({ storage, clock, project: name, settings }))
      const { key } = await programs[0]!.keys.create()
      const callers = programs.map((program) => caller(createHandler(program, { rateLimit: { limit: 1_000_000 } }), key))
      let turn = 0
      const call: Caller = (...args) => callers[turn++ % callers.length]!(...args)
      return { program: programs[0]!, programs, call }
    }

    it('160 purchases of one customer: all 201, each payment numbered once (1 x 10.00, 9 x 5.00, 90 x 1.00, 60 x 0.00)', async () => {
      const { program, call } = await project(STAGED)
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const replies = await inFlight(160, (n) => call('POST', '/conversions', { type: 'purchase', affiliate_id: ann.id, email: 'bob@example.com', base_value: 49, reference: `pay_${n}` }))
      expect(tally(statuses(replies))).toEqual({ 201: 160 })
      const values = replies.map(valueOf)
      expect(tally(values)).toEqual({ '10.00': 1, '5.00': 9, '1.00': 90, '0.00': 60 })
      expect((await program.affiliates.get(ann.id)).earnings.total).toBe('145.00')
      const customer = await program.referrals.get('bob@example.com')
      expect(customer).toMatchObject({ affiliateId: ann.id })
      expect((await program.affiliates.get(ann.id)).signups).toBe(1)
    })

    const providers: Array<[CheckoutProvider, number]> = [
      [stripeLegacy, 48],
      [paddle, 24],
      [lemonSqueezy, 24],
      [polar, 24],
      [braintree, 24],
      [chargebee, 24],
      [recurly, 24],
    ]
    for (const [provider, renewals] of providers) {
      it(`${renewals} ${provider.name} renewals of one subscription at once: each 200 the first time, each payment numbered once`, async () => {
        const { program, programs } = await project(STAGED)
        await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
        const handlers = programs.map((each, index) => provider.handler(each, storages[index]!, program.projectId))
        const at = new Date('2026-01-01T00:00:00Z')
        for (const event of provider.checkout(1, at)) expect((await provider.deliver(handlers[0]!, event, clock)).status).toBe(200)
        const events = Array.from({ length: renewals }, (_, k) => provider.renewal(1, at, k + 2)).flat()
        const answers = await inFlight(events.length, (n) => provider.deliver(handlers[n % 2]!, events[n], clock))
        expect(tally(answers.map((answer) => answer.status))).toEqual({ 200: events.length })
        // The checkout pays 2 (the first payment and a renewal), then the renewals: numbered 1..2+renewals once each.
        const payments = renewals + 2
        const expected = tally(Array.from({ length: payments }, (_, n) => stagedValue(n + 1)))
        const conversions = (await program.conversions.list({ limit: 100 })).items.filter((conversion) => conversion.type === 'purchase')
        expect(tally(conversions.map((conversion) => conversion.value))).toEqual(expected)
      })
    }

    it('16 moves of one customer between two affiliates: it counts once, on the affiliate it ends on', async () => {
      const { program, call } = await project({})
      const [a1, a2] = [await program.affiliates.create({ email: 'a1@example.com' }), await program.affiliates.create({ email: 'a2@example.com' })]
      await program.referrals.create({ email: 'moved@example.com', affiliateId: a1.id })
      const replies = await inFlight(16, (n) => call('PUT', '/referrals/moved%40example.com', { affiliate_id: n % 2 === 0 ? a2.id : a1.id }))
      expect(tally(statuses(replies))).toEqual({ 200: 16 })
      const on = (await program.referrals.get('moved@example.com')).affiliateId
      const signups = { [a1.id]: (await program.affiliates.get(a1.id)).signups, [a2.id]: (await program.affiliates.get(a2.id)).signups }
      expect(signups).toEqual({ [a1.id]: on === a1.id ? 1 : 0, [a2.id]: on === a2.id ? 1 : 0 })
    })

    it('16 first purchases at once of an affiliate whose tier rises at 5 customers: 5 at the base rate, 11 at the tier', async () => {
      const { program, call } = await project({
        holdPeriodDays: 0,
        commission: { purchase: fixed('10.00'), tiers: [{ name: 'Silver', minCustomers: 5, purchase: fixed('20.00') }], tierPeriod: 'month' },
      })
      const ann = await program.affiliates.create({ email: 'tiered@example.com' })
      const replies = await inFlight(16, (n) => call('POST', '/conversions', { type: 'purchase', affiliate_id: ann.id, email: `c${n}@example.com`, base_value: 49, reference: `t_${n}` }))
      expect(tally(statuses(replies))).toEqual({ 201: 16 })
      expect(tally(replies.map(valueOf))).toEqual({ '10.00': 5, '20.00': 11 })
      expect((await program.affiliates.get(ann.id)).tier).toBe('Silver')
    })

    it('a delete racing 15 writes for the affiliate: each answers 2xx before it went or 404 after, never 500, and nothing of it is left', async () => {
      const { program, programs, call } = await project({ holdPeriodDays: 0 })
      const doomed = await program.affiliates.create({ email: 'doomed@example.com', referralCode: 'DOOMED' })
      await program.conversions.create({ type: 'purchase', affiliateId: doomed.id, baseValue: '100.00', reference: 'funds' })
      const trackers = programs.map((each) => createTrackingHandler(each, { landingUrl: 'https://shop.example/', visitorsPerAddress: false, trustProxy: true }))
      const click = (n: number) =>
        trackers[n % 2]!(new Request('http://test.local/r/DOOMED', { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0', 'x-forwarded-for': `203.0.113.${n}` } }), { clientAddress: '127.0.0.1' })
      const writes: Array<(n: number) => Promise<{ status: number }>> = [
        (n) => call('POST', '/conversions', { type: 'purchase', affiliate_id: doomed.id, email: `r${n}@example.com`, base_value: 10, reference: `race_${n}` }),
        (n) => call('POST', '/coupons', { affiliate_id: doomed.id, coupon_code: `RACE${n}` }),
        (n) => call('POST', '/referrals', { email: `ref${n}@example.com`, affiliate_id: doomed.id }),
        (n) => call('POST', '/payouts', { affiliate_id: doomed.id, amount: 0.01 }),
        click,
      ]
      const answers = await inFlight(16, (n) => (n === 8 ? call('DELETE', '/affiliates/doomed%40example.com') : writes[n % writes.length]!(n)))
      const deleted = answers[8]!
      expect(deleted.status).toBe(204)
      const others = answers.filter((_, n) => n !== 8)
      // A click through an unknown code goes to the landing page (302) like any other.
      expect(others.filter(({ status }) => !(status < 300 || status === 302 || status === 404))).toEqual([])
      expect((await call('GET', '/affiliates/doomed%40example.com')).status).toBe(404)
      expect((await program.coupons.list({ affiliateId: doomed.id })).items).toEqual([])
      expect((await program.conversions.list({ affiliateId: doomed.id })).items).toEqual([])
    })

    it('16 deletes of one affiliate at once: one 204, fifteen 404', async () => {
      const { program, call } = await project({})
      await program.affiliates.create({ email: 'once@example.com' })
      const replies = await inFlight(16, () => call('DELETE', '/affiliates/once%40example.com'))
      expect(tally(statuses(replies))).toEqual({ 204: 1, 404: 15 })
    })
  })
}
