// Browser signups of one new email at the same moment on PostgreSQL: a customer signing up while
// the snippet reports it twice, or a stranger racing them with referrals of their own clicks. Each
// report is answered (never a 500): one creates the customer, the others find it (unchanged).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { createTrackingHandler, type TrackingHandler } from '../../src/tracking/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const suite = DATABASE_URL ? describe : describe.skip
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const VISITORS = 8

suite(`browser signups of one email at once on postgres${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  let cleanup: () => Promise<void>
  let program: AffiliateProgram
  let tracking: TrackingHandler
  let key: string

  beforeAll(async () => {
    const fresh = freshPostgresStorage({ max: VISITORS })
    cleanup = fresh.cleanup
    program = await createAffiliateProgram({ storage: fresh.storage, clock: testClock('2026-03-10T10:00:00Z') })
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
    tracking = createTrackingHandler(program, { landingUrl: 'https://shop.example/', allowedOrigins: ['https://blog.example'], state: fresh.storage.keyedState })
    key = (await program.keys.createPublishable({ name: 'site' })).key
  })
  afterAll(async () => cleanup?.())

  it('answers every report 201 or 200, creating the customer once', async () => {
    for (let round = 0; round < 5; round += 1) {
      // Visitors of this round (a created customer uses its visitor's referral up).
      const address = (n: number) => `198.51.${100 + round}.${n + 1}`
      const referrals: string[] = []
      for (let n = 0; n < VISITORS; n += 1) {
        const link = await tracking(new Request(`https://links.example/r/${n % 2 ? 'BOB' : 'ANN'}`, { headers: { 'user-agent': BROWSER } }), { clientAddress: address(n) })
        referrals.push(/^ak_ref=([^;]+);/.exec(link.headers.get('set-cookie') ?? '')![1]!)
      }
      const email = `race-${round}@example.com`
      const answers = await Promise.all(
        referrals.map((referral, n) =>
          tracking(
            new Request('https://links.example/r/-/signups', {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: 'https://blog.example', 'user-agent': BROWSER },
              body: JSON.stringify({ email, referral }),
            }),
            { clientAddress: address(n) },
          ),
        ),
      )
      const statuses = answers.map((answer) => answer.status).sort((a, b) => a - b)
      expect(statuses, email).toEqual([...Array<number>(VISITORS - 1).fill(200), 201])
      expect((await program.referrals.get(email)).affiliateId, email).not.toBeNull()
    }
  })

  it('with a signup reward: one email signed up by browsers and the server at once earns once; four more at once stop at the per-day bound', async () => {
    await program.projects.updateSettings(program.projectId, {
      commission: { purchase: { type: 'percentage', rate: 30 }, signup: { amount: '1.00' } },
      fraud: { signupsPerAffiliatePerDay: { max: 3, action: 'reject' } },
    })
    const signup = (email: string, referral: string, address: string) =>
      tracking(
        new Request('https://links.example/r/-/signups', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: 'https://blog.example', 'user-agent': BROWSER },
          body: JSON.stringify({ email, referral }),
        }),
        { clientAddress: address },
      )
    const referralOf = async (address: string) => {
      const link = await tracking(new Request('https://links.example/r/ANN', { headers: { 'user-agent': BROWSER } }), { clientAddress: address })
      return /^ak_ref=([^;]+);/.exec(link.headers.get('set-cookie') ?? '')![1]!
    }
    const address = (n: number) => `203.0.113.${n + 1}`
    const referrals = await Promise.all(Array.from({ length: VISITORS }, (_, n) => referralOf(address(n))))
    // The browsers and the host's server at once, for one new email: one reward.
    const server = program.conversions.create({ type: 'signup', email: 'lead@example.com', referralCode: 'ANN', reference: 'server-lead' }).then(
      () => 'created',
      (error: { code?: string }) => error.code,
    )
    const browsers = await Promise.all(referrals.slice(0, 4).map((referral, n) => signup('lead@example.com', referral, address(n))))
    expect(browsers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 201)).toEqual([])
    expect(['created', 'conflict']).toContain(await server)
    const leads = (await program.conversions.list({ type: 'signup' })).items.filter((c) => c.customerEmail === 'lead@example.com')
    expect(leads.map((c) => c.value)).toEqual(['1.00'])
    // Four more new emails at once: Ann had 1 signup today, max 3: two earn, two are rejected.
    const more = await Promise.all(referrals.slice(4).map((referral, n) => signup(`more-${n}@example.com`, referral, address(n + 4))))
    expect(more.map((answer) => answer.status)).toEqual([201, 201, 201, 201])
    const statuses = (await program.conversions.list({ type: 'signup' })).items.map((c) => c.status).sort()
    expect(statuses).toEqual(['active', 'active', 'active', 'rejected', 'rejected'])
    expect((await program.affiliates.get('ann@example.com')).earnings.total).toBe('3.00')
  })
})
