// Signup rewards over HTTP (docs/commissions.md "Leads and trials"): a browser signup with the
// signed referral of a click earns the affiliate's signup amount once, in the same request; a
// bare code earns nothing; the affiliate's signups per day are bounded (a recorded rejection);
// the host's server-side signup with its secret key earns, once per customer (409 after that).
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { testClock } from '../../src/core/model/clock.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram } from '../../src/index.js'
import { createTrackingHandler } from '../../src/tracking/index.js'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

async function setup() {
  const clock = testClock('2026-03-10T10:00:00Z')
  const program = await createAffiliateProgram({
    storage: memoryStorage(),
    clock,
    settings: { commission: { purchase: { type: 'percentage', rate: 30 }, signup: { amount: '1.50' } }, fraud: { signupsPerAffiliatePerDay: { max: 2, action: 'reject' } } },
  })
  await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  const tracking = createTrackingHandler(program, { landingUrl: 'https://shop.example/welcome', allowedOrigins: ['https://blog.example'] })
  const publishable = (await program.keys.createPublishable({ name: 'site' })).key
  const secret = (await program.keys.create()).key
  const report = (path: string, body: unknown, address: string) =>
    tracking(
      new Request(`https://links.example/r/-/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json', origin: 'https://blog.example', 'user-agent': BROWSER },
        body: JSON.stringify(body),
      }),
      { clientAddress: address },
    )
  /** A visitor at `address` clicks Ann's link and signs up as `email`. */
  const browserSignup = async (email: string, address: string) => {
    const { referral } = (await (await report('clicks', { referral_code: 'ANN' }, address)).json()) as { referral: string }
    return report('signups', { email, referral }, address)
  }
  const api = createHandler(program)
  const post = (path: string, body: unknown) =>
    api(new Request(`http://api.example/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  const ledger = async () => {
    const conversions = (await program.conversions.list({ type: 'signup' })).items.map((c) => `${c.customerEmail} ${c.status} ${c.value}`).sort()
    return { total: (await program.affiliates.get('ann@example.com')).earnings.total, conversions }
  }
  return { program, report, browserSignup, post, ledger }
}

describe('signup rewards', () => {
  it('a browser signup with a signed referral earns 1.50 once; a bare code earns nothing; the third of the day is rejected', async () => {
    const { report, browserSignup, ledger, program } = await setup()
    const created = await browserSignup('cus@example.com', '203.0.113.7')
    expect(created.status).toBe(201)
    expect(await created.json()).toEqual({ outcome: 'created' })
    const customer = await program.referrals.get('cus@example.com')
    expect((await program.conversions.list()).items.map((c) => [c.reference, c.type, c.value])).toEqual([[`signup:${customer.id}`, 'signup', '1.50']])
    expect(await ledger()).toEqual({ total: '1.50', conversions: ['cus@example.com active 1.50'] })

    // A known customer through another click: unchanged, no reward.
    expect(await (await browserSignup('cus@example.com', '198.51.100.2')).json()).toEqual({ outcome: 'unchanged' })
    // A bare code is refused and records nothing.
    expect((await report('signups', { email: 'bare@example.com', referral_code: 'ANN' }, '198.51.100.3')).status).toBe(403)
    expect(await ledger()).toEqual({ total: '1.50', conversions: ['cus@example.com active 1.50'] })

    expect((await browserSignup('two@example.com', '198.51.100.4')).status).toBe(201)
    // Ann's third signup today (max 2): the customer is created, its reward recorded rejected.
    expect((await browserSignup('three@example.com', '198.51.100.5')).status).toBe(201)
    expect(await ledger()).toEqual({ total: '3.00', conversions: ['cus@example.com active 1.50', 'three@example.com rejected 1.50', 'two@example.com active 1.50'] })
    const rejected = (await program.conversions.list({ type: 'signup' })).items.find((c) => c.customerEmail === 'three@example.com')!
    expect(rejected.reviewReason).toBe('signups per affiliate: more than 2 for the affiliate in a day')
  })

  it('a server-side signup with a secret key earns once per customer: the second is 409 and changes nothing', async () => {
    const { post, ledger } = await setup()
    const first = await post('/conversions', { type: 'signup', email: 'lead@example.com', referral_code: 'ANN', reference: 'lead-1' })
    expect(first.status).toBe(201)
    expect(((await first.json()) as { data: { value: number } }).data.value).toBe(1.5)
    const again = await post('/conversions', { type: 'signup', email: 'lead@example.com', referral_code: 'ANN', reference: 'lead-2' })
    expect(again.status).toBe(409)
    expect(((await again.json()) as { error: string }).error).toMatch(/already has a signup conversion \(\d+\): a signup earns once per customer/)
    expect(await ledger()).toEqual({ total: '1.50', conversions: ['lead@example.com active 1.50'] })
    // The preview says so too, and a replay of the first request is answered with what it created.
    expect((await post('/conversions/preview', { type: 'signup', email: 'lead@example.com', referral_code: 'ANN' })).status).toBe(409)
    const replay = await post('/conversions', { type: 'signup', email: 'lead@example.com', referral_code: 'ANN', reference: 'lead-1' })
    expect(replay.status).toBe(200)
    expect(await ledger()).toEqual({ total: '1.50', conversions: ['lead@example.com active 1.50'] })
    // A trial cannot be posted to the API: the payment providers' events record them.
    expect((await post('/conversions', { type: 'trial', email: 'lead2@example.com', referral_code: 'ANN' })).status).toBe(400)
  })
})
