// Every surface answers a database that cannot be reached with 503 and Retry-After, and answers
// normally again once it is back (issue 51): the API, a referral link, a payment provider's event
// (the provider delivers it again) and the console's pages (the portal's share their shell). The
// database is a real PostgreSQL reached through a TCP proxy that the test closes and reopens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createAdminConsole } from '../../src/admin/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, createLogger, createWebhookDispatcher, testClock, type AffiliateProgram, type StoragePort } from '../../src/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { createTrackingHandler } from '../../src/tracking/index.js'
import { invoicePaid } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'
import { tcpProxy } from '../support/sql/tcp-proxy.js'

describe.skipIf(!DATABASE_URL)(`surfaces while PostgreSQL cannot be reached${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  const schema = freshSchemaName()
  const clock = testClock('2026-02-01T00:00:00Z')
  let proxy: Awaited<ReturnType<typeof tcpProxy>>
  let storage: StoragePort
  let program: AffiliateProgram
  let key: string
  beforeAll(async () => {
    const target = new URL(DATABASE_URL!)
    proxy = await tcpProxy(target.hostname, Number(target.port || 5432))
    target.hostname = '127.0.0.1'
    target.port = String(proxy.port)
    storage = postgresStorage({ connectionString: target.href, schema, connectionTimeoutMs: 1000 })
    program = await createAffiliateProgram({ storage, clock })
    ;({ key } = await program.keys.create())
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  })
  afterAll(async () => {
    await program.close()
    await proxy.close()
    await dropSchema(schema)
  })

  it('answers 503 with Retry-After on the API, referral links, provider events and the console, and normally once the database is back', async () => {
    const api = createHandler(program, { rateLimit: false })
    const tracking = createTrackingHandler(program, { landingUrl: 'https://shop.example/' })
    const stripe = stripeHandler({ program, webhookSecret: STRIPE_SECRET })
    const admin = createAdminConsole(program, { authorize: () => ({ id: 'user:alice', name: 'Alice' }) })
    const requests = {
      api: () => api(new Request('http://test.local/api/v1/affiliates/ann@example.com', { headers: { authorization: `Bearer ${key}` } })),
      tracking: () => tracking(new Request('http://test.local/r/ANN')),
      provider: () =>
        deliverStripe(stripe, invoicePaid({ at: '2026-01-31T23:59:00Z', id: 'in_1', customer: 'cus_1', email: 'dan@example.com', subtotal: 1000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_1' }), clock),
      console: () => admin(new Request('http://test.local/admin/')),
    }
    for (const [surface, request] of Object.entries(requests)) expect([surface, (await request()).status]).not.toEqual([surface, 503])

    await proxy.close()
    for (const [surface, request] of Object.entries(requests)) {
      const started = performance.now()
      const response = await request()
      expect([surface, response.status, response.headers.get('retry-after')]).toEqual([surface, 503, '5'])
      expect(performance.now() - started).toBeLessThan(3000)
      expect([surface, await response.text()]).toEqual([surface, expect.stringMatching(/the database is unavailable \((the connection to the database was lost|the database cannot be reached \(ECONNREFUSED\))\); nothing was saved, retry after 5 s/)])
    }

    await proxy.open()
    const statuses = Object.fromEntries(await Promise.all(Object.entries(requests).map(async ([surface, request]) => [surface, (await request()).status])))
    expect(statuses).toEqual({ api: 200, tracking: 302, provider: 200, console: 200 })
  }, 30_000)

  it("logs the webhook dispatcher's failing polls once per interval with a count, not once per poll", async () => {
    const lines: string[] = []
    const logger = createLogger({ format: 'json', write: (line) => lines.push(line) })
    const dispatcher = createWebhookDispatcher({ storage, logger })
    await proxy.close()
    dispatcher.start({ pollIntervalMs: 20 })
    await new Promise((resolve) => setTimeout(resolve, 600))
    await proxy.open()
    await dispatcher.stop()
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records).toEqual([expect.objectContaining({ level: 'error', msg: 'webhook dispatcher cannot use the database; it tries again each poll', failures: 1 })])
  }, 30_000)
})
