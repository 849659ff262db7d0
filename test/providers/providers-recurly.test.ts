// The Recurly handler's doors: the recurly-signature (timestamp within the tolerance of the
// program's clock, any configured secret, any signature of a regenerated key), then the fetch-back
// of what the notification names from Recurly's API v3 (a local server speaking it,
// recurly-api.ts). Unsigned, forged, stale or XML notifications and ids the API does not know answer
// 400 and record nothing; the API's figures are applied, read exactly; an API that cannot be
// reached, or that redirects, answers 503 (Recurly delivers again) and records nothing.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { recurlyHandler } from '../../src/providers/recurly/index.js'
import { recurlyApiServer } from '../support/providers/recurly-api.js'
import { chargeInvoice, invoiceOf, type InvoiceFixture } from '../support/providers/recurly-fixtures.js'
import { deliverRecurly, RECURLY_OPTIONS, RECURLY_SECRET, recurlySignature } from '../support/providers/recurly-scenario.js'
import { closedPort } from '../support/webhooks-helpers.js'

const invoice: InvoiceFixture = { id: 'inv_door1', number: 9001, at: '2026-01-10T09:00:00Z', account: { id: 'acc_door', code: 'door', email: 'door@example.com', referral: 'ANN' }, origin: 'purchase', lines: [{ itemCode: 'book', amount: 5000 }] }

async function program(options: Partial<Parameters<typeof recurlyHandler>[0]> = {}) {
  const clock = testClock('2026-02-01T00:00:00Z')
  const made = await createAffiliateProgram({ storage: memoryStorage(), clock, settings: { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 } } }, exchangeRates: () => '0.0065' })
  await made.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  const handler = recurlyHandler({ program: made, ...RECURLY_OPTIONS, apiTimeoutMs: 5_000, ...options })
  const recorded = async () => ({ events: (await made.providerEvents.list()).items.length, conversions: (await made.conversions.list()).items.map((c) => [c.reference, c.baseValue, c.baseValueCurrency, c.value]) })
  return { handler, clock, recorded }
}

const answer = async (response: Response) => [response.status, ((await response.json()) as { error?: string; detail?: string }).error ?? 'ok']

describe('Recurly handler', () => {
  it('refuses unsigned, forged, stale and XML notifications with 400, before asking the API, and records nothing', async () => {
    const { handler, clock, recorded } = await program()
    const event = chargeInvoice('paid', { ...invoice, id: 'inv_door_sig', number: 9002 })
    const now = clock.now()
    const refusals = [
      [() => null, 'invalid signature: missing recurly-signature header (XML notifications are not signed: set the endpoint to JSON)'],
      [(body: string) => recurlySignature(body, now, ['guessed-secret']), 'invalid signature: no signature matches'],
      [(body: string) => recurlySignature(`${body} `, now), 'invalid signature: no signature matches'],
      [(body: string) => recurlySignature(body, now).split(',')[1]!, 'invalid signature: recurly-signature does not start with a timestamp in milliseconds'],
      [(body: string) => `${now.getTime()}`, 'invalid signature: no signature in recurly-signature'],
      [(body: string) => recurlySignature(body, new Date(now.getTime() - 301_000)), 'invalid signature: timestamp outside the tolerance'],
      [(body: string) => recurlySignature(body, new Date(now.getTime() + 301_000)), 'invalid signature: timestamp outside the tolerance'],
    ] as const
    for (const [signature, error] of refusals) expect(await answer(await deliverRecurly(handler, event, clock, signature))).toEqual([400, error])
    const xml = await handler(new Request('https://shop.example/hook', { method: 'POST', body: '<?xml version="1.0"?><paid_charge_invoice_notification/>', headers: { 'Content-Type': 'application/xml' } }))
    expect((await answer(xml))[0]).toBe(400)
    expect(recurlyApiServer.asked.get('/invoices/number-9002')).toBeUndefined()
    expect(await recorded()).toEqual({ events: 0, conversions: [] })
  })

  it('accepts a signature by any configured secret, and either signature of a key being regenerated, 299 seconds off', async () => {
    const { handler, clock, recorded } = await program({ webhookSecret: ['recurly-new-key', RECURLY_SECRET] })
    const first = chargeInvoice('paid', { ...invoice, id: 'inv_door_rot1', number: 9003 })
    const second = chargeInvoice('paid', { ...invoice, id: 'inv_door_rot2', number: 9004, account: { ...invoice.account, id: 'acc_door2', code: 'door2', email: 'door2@example.com' } })
    const ago = new Date(clock.now().getTime() - 299_000)
    expect((await deliverRecurly(handler, first, clock, (body) => recurlySignature(body, ago))).status).toBe(200)
    expect((await deliverRecurly(handler, second, clock, (body) => recurlySignature(body, clock.now(), ['old-key-gone', 'recurly-new-key']))).status).toBe(200)
    expect((await recorded()).conversions).toEqual([['inv_door_rot2', '50.00', 'USD', '15.00'], ['inv_door_rot1', '50.00', 'USD', '15.00']])
  })

  it("refuses an invoice Recurly's API does not know with 400 and records nothing; a known one applies the API's figures, read exactly", async () => {
    const { handler, clock, recorded } = await program()
    const post = (notification: unknown) => deliverRecurly(handler, { notification, holds: {} }, clock)
    const unknown = await post(chargeInvoice('paid', { ...invoice, number: 9999 }).notification)
    expect(await answer(unknown)).toEqual([400, "invalid signature: Recurly's API does not know invoice 9999"])
    expect(await recorded()).toEqual({ events: 0, conversions: [] })

    // The body names invoice 9005 only: what it was paid is the API's, 10.99 (a float times 100 is 1098.99...).
    recurlyApiServer.hold(chargeInvoice('paid', { ...invoice, id: 'inv_door_exact', number: 9005, lines: [{ itemCode: 'book', amount: 1099 }] }).holds)
    expect(await (await post({ ...chargeInvoice('paid', { ...invoice, id: 'inv_door_exact', number: 9005 }).notification, total: 99999 })).json()).toMatchObject({ status: 'applied', detail: 'inv_door_exact: created conversion 1 (purchase, commission 3.30 USD)' })
    // Yen have no minor unit: 1,200 JPY is 1200 minor units, converted at the program's rate.
    const yen = chargeInvoice('paid', { ...invoice, id: 'inv_door_jpy', number: 9006, currency: 'JPY', account: { ...invoice.account, id: 'acc_yen', code: 'yen', email: 'yen@example.com' }, lines: [{ itemCode: 'book', amount: 1200 }] })
    expect((await deliverRecurly(handler, yen, clock)).status).toBe(200)
    // More decimals than the currency has: not Recurly's figure, refused.
    const held = invoiceOf({ ...invoice, id: 'inv_door_odd', number: 9007 })
    const odd = { notification: chargeInvoice('paid', { ...invoice, id: 'inv_door_odd', number: 9007 }).notification, holds: { ...chargeInvoice('paid', { ...invoice, id: 'inv_door_odd', number: 9007 }).holds, invoices: [{ ...held, total: 50.001 }] } }
    expect(await answer(await deliverRecurly(handler, odd, clock))).toEqual([400, 'not a recurly event: invoice.total has more decimals than USD has (2)'])
    expect((await recorded()).conversions).toEqual([['inv_door_jpy', '1200', 'JPY', '2.34'], ['inv_door_exact', '10.99', 'USD', '3.30']])
  })

  it('answers 503 with Retry-After when the API cannot be reached or redirects (the key is not sent on), and records nothing', async () => {
    const event = chargeInvoice('paid', { ...invoice, id: 'inv_door_down', number: 9008 })
    const down = await program({ apiBase: `http://127.0.0.1:${await closedPort()}` })
    const response = await deliverRecurly(down.handler, event, down.clock)
    expect([response.status, response.headers.get('retry-after')]).toEqual([503, '60'])
    expect(await down.recorded()).toEqual({ events: 0, conversions: [] })

    const elsewhere: string[] = []
    const redirecting = createServer((request, reply) => {
      elsewhere.push(request.headers.authorization ?? '')
      reply.writeHead(302, { Location: `${recurlyApiServer.url}${request.url}` }).end()
    })
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve))
    try {
      const moved = await program({ apiBase: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}` })
      expect((await deliverRecurly(moved.handler, event, moved.clock)).status).toBe(503)
      expect(elsewhere).toHaveLength(1)
      // The redirect was not followed: the API it points at was never asked.
      expect(recurlyApiServer.asked.get('/invoices/number-9008')).toBeUndefined()
      expect(await moved.recorded()).toEqual({ events: 0, conversions: [] })
    } finally {
      redirecting.close()
    }
    const up = await program()
    expect((await deliverRecurly(up.handler, event, up.clock)).status).toBe(200)
  })
})
