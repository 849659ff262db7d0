// A provider handler's `node` member serves node:http requests straight (the standalone server
// mounts it): the same answers as its fetch path for a good event, a re-delivery, a bad signature,
// a wrong method and a body over maxBodyBytes; the last three write nothing.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { snapshot } from '../conformance/helpers.js'
import { invoicePaid } from '../support/providers/stripe-fixtures.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from '../support/providers/scenario.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'

let server: Server | undefined
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

async function setup() {
  const clock = testClock('2026-02-01T00:00:00Z')
  const storage = memoryStorage()
  const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
  await scenarioAffiliates(program, 'BOB20')
  await program.referrals.create({ email: 'dan@example.com', referralCode: 'ANN' })
  server = createServer(stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET, maxBodyBytes: 4096 }).node)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/providers/stripe/events`
  // deliverStripe's fetch Request, sent to the server over HTTP instead of to the fetch handler.
  const overHttp = async (request: Request) => fetch(url, { method: request.method, headers: request.headers, ...(request.method === 'POST' ? { body: await request.text() } : {}) })
  return { program, clock, url, overHttp }
}

const paid = () =>
  invoicePaid({ at: '2026-01-31T23:59:00Z', id: 'in_Dan1', customer: 'cus_Dan', email: 'dan@example.com', subtotal: 1000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Dan1' })

describe('provider handler over node:http (its node member)', () => {
  it('creates the conversion of a signed invoice.paid once and answers a re-delivery as a duplicate', async () => {
    const { program, clock, overHttp } = await setup()
    const event = paid()
    const first = await deliverStripe(overHttp, event, clock)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('application/json')
    const firstBody = await first.json()
    expect(firstBody).toMatchObject({ received: true, duplicate: false, status: 'applied', conversion_id: expect.any(Number) })
    expect(await (await deliverStripe(overHttp, event, clock)).json()).toMatchObject({ duplicate: true, status: 'applied', conversion_id: firstBody.conversion_id })
    expect((await program.conversions.list()).items.map((c) => [c.reference, c.value])).toEqual([['in_Dan1', '3.00']])
  })

  it('a bad signature is 400, GET is 405 with Allow, a body over maxBodyBytes is 413; none writes anything', async () => {
    const { program, clock, url, overHttp } = await setup()
    const before = await snapshot(program)
    const tampered = await deliverStripe(overHttp, paid(), clock, STRIPE_SECRET, (body) => body.replace('"total":1000', '"total":100000'))
    expect(tampered.status).toBe(400)
    expect(await tampered.json()).toEqual({ error: 'invalid signature: no signature matches' })
    const get = await fetch(url)
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST'])
    const large = await deliverStripe(overHttp, { ...paid(), padding: 'x'.repeat(5000) }, clock)
    expect(large.status).toBe(413)
    expect(await large.json()).toEqual({ error: 'body too large' })
    expect(await snapshot(program)).toBe(before)
    expect((await program.providerEvents.list()).total).toBe(0)
  })
})
