// The Chargebee handler's doors: the webhook's Basic credentials, then the fetch-back of the event
// from Chargebee's API (a local server speaking it, chargebee-api.ts). Wrong or missing
// credentials and events the API does not know answer 400 and record nothing; an API that cannot
// be reached, or that redirects, answers 503 (Chargebee delivers again) and records nothing.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { chargebeeHandler } from '../../src/providers/chargebee/index.js'
import { chargebeeApi } from '../support/providers/chargebee-api.js'
import { paymentSucceeded } from '../support/providers/chargebee-fixtures.js'
import { CHARGEBEE_OPTIONS, chargebeeAuthorization, deliverChargebee } from '../support/providers/chargebee-scenario.js'
import { closedPort } from '../support/webhooks-helpers.js'

const invoice = { id: 'inv_door1', at: '2026-01-10T09:00:00Z', customer: { id: 'cb_door', email: 'door@example.com', referral: 'ANN' }, lines: [{ itemPrice: 'pro-USD', amount: 5000 }], tax: 0 }

async function program(apiBase = chargebeeApi.url) {
  const made = await createAffiliateProgram({ storage: memoryStorage(), clock: testClock('2026-02-01T00:00:00Z'), settings: { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 } } } })
  await made.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  const handler = chargebeeHandler({ program: made, ...CHARGEBEE_OPTIONS, apiBase, apiTimeoutMs: 5_000 })
  const recorded = async () => ({ events: (await made.providerEvents.list()).items.length, conversions: (await made.conversions.list()).items.length })
  return { handler, recorded }
}

const post = (handler: (request: Request) => Promise<Response>, event: unknown, authorization?: string) =>
  handler(new Request('https://shop.example/hook', { method: 'POST', body: JSON.stringify(event), headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) } }))

describe('Chargebee handler', () => {
  it('refuses missing or wrong Basic credentials with 400, before asking the API, and records nothing', async () => {
    const { handler, recorded } = await program()
    const event = paymentSucceeded('ev_door_auth', invoice)
    chargebeeApi.hold(event)
    for (const authorization of [undefined, chargebeeAuthorization('chargebee-hooks', 'wrong'), chargebeeAuthorization('someone', 'S3cret-basic-pass'), 'Bearer S3cret-basic-pass']) {
      const response = await post(handler, event, authorization)
      expect([response.status, ((await response.json()) as { error: string }).error]).toEqual([400, expect.stringMatching(/^invalid signature: (missing Basic authorization|the Basic credentials do not match)$/)])
    }
    expect(chargebeeApi.asked.get('ev_door_auth')).toBeUndefined()
    expect(await recorded()).toEqual({ events: 0, conversions: 0 })
  })

  it("refuses an event Chargebee's API does not know with 400 and records nothing; a known one applies the API's copy", async () => {
    const { handler, recorded } = await program()
    const unknown = await post(handler, paymentSucceeded('ev_door_never_sent', invoice), chargebeeAuthorization())
    expect([unknown.status, await unknown.json()]).toEqual([400, { error: "invalid signature: Chargebee's API does not know event ev_door_never_sent" }])
    expect(await recorded()).toEqual({ events: 0, conversions: 0 })
    const sent = paymentSucceeded('ev_door_sent', invoice)
    chargebeeApi.hold(sent)
    const forged = paymentSucceeded('ev_door_sent', { ...invoice, lines: [{ itemPrice: 'pro-USD', amount: 9_999_900 }] })
    expect(await (await post(handler, forged, chargebeeAuthorization())).json()).toMatchObject({ status: 'applied', detail: 'inv_door1: created conversion 1 (purchase, commission 15.00 USD)' })
  })

  it('answers 503 with Retry-After when the API cannot be reached or redirects (the key is not sent on), and records nothing', async () => {
    const down = await program(`http://127.0.0.1:${await closedPort()}`)
    const event = paymentSucceeded('ev_door_down', invoice)
    await deliverChargebee(down.handler, event).then(async (response) => expect([response.status, response.headers.get('retry-after')]).toEqual([503, '60']))
    expect(await down.recorded()).toEqual({ events: 0, conversions: 0 })

    const elsewhere: string[] = []
    const redirecting = createServer((request, response) => {
      elsewhere.push(request.headers.authorization ?? '')
      response.writeHead(302, { Location: `${chargebeeApi.url}${request.url}` }).end()
    })
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve))
    try {
      const moved = await program(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`)
      expect((await deliverChargebee(moved.handler, event)).status).toBe(503)
      expect(elsewhere).toHaveLength(1)
      // The redirect was not followed: the API it points at was never asked.
      expect(chargebeeApi.asked.get('ev_door_down')).toBeUndefined()
      expect(await moved.recorded()).toEqual({ events: 0, conversions: 0 })
    } finally {
      redirecting.close()
    }
    expect((await deliverChargebee((await program()).handler, event)).status).toBe(200)
  })
})
