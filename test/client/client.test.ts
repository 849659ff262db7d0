// The typed client against a real node:http server: every route round-trips, errors are
// ApiError with status and message, 429 is retried after Retry-After, idempotency keys replay.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { ApiError, createClient, type Client } from '../../src/client/index.js'
import { createHandler, toNodeHandler, type HandlerOptions } from '../../src/http/index.js'
import { createAffiliateProgram } from '../../src/index.js'

const servers: Server[] = []
async function serve(handlerOptions: HandlerOptions = {}): Promise<{ client: Client; baseURL: string; key: string }> {
  const program = await createAffiliateProgram({ storage: memoryStorage() })
  const { key } = await program.keys.create()
  const server = createServer(toNodeHandler(createHandler(program, handlerOptions)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`
  return { client: createClient({ baseURL, apiKey: key }), baseURL, key }
}
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))))

describe('affiliate-kit/client', () => {
  let client: Client
  beforeAll(async () => {
    client = (await serve()).client
  })

  it('round-trips every route', async () => {
    const ann = (await client.affiliates.create({ email: 'ann@example.com', referral_code: 'ANN' })).data
    expect(ann).toMatchObject({ user_email: 'ann@example.com', referral_code: 'ANN', unpaid_earnings: null })
    expect((await client.affiliates.update('ann@example.com', { payment_details: 'IBAN 1' })).data.user_email).toBe('ann@example.com')
    expect((await client.affiliates.list({ limit: 5 })).pagination).toEqual({ limit: 5, offset: 0, total: 1, has_more: false })

    const referral = (await client.referrals.create({ email: 'bob@example.com', affiliate_id: ann.id })).data
    expect(referral).toMatchObject({ user_email: 'bob@example.com', affiliate_id: ann.id, conversion_status: 'pending' })
    expect((await client.referrals.update('bob@example.com', { status: 'converted' })).data.conversion_status).toBe('converted')
    expect((await client.referrals.get('bob@example.com')).data.id).toBe(referral.id)
    expect((await client.referrals.list({ affiliate_id: ann.id })).data).toHaveLength(1)

    const created = await client.conversions.create({ type: 'purchase', email: 'bob@example.com', base_value: 49, reference: 'ch_1' })
    expect(created).toMatchObject({ data: { value: 14.7, affiliate_id: ann.id }, attribution: { matched_by: 'email' } })
    const again = await client.conversions.create({ type: 'purchase', email: 'bob@example.com', base_value: 49, reference: 'ch_1' })
    expect(again).toMatchObject({ duplicate: true, data: { id: created.data.id } })
    expect((await client.conversions.get(created.data.id)).data.reference).toBe('ch_1')
    expect((await client.conversions.update(created.data.id, { coupon_code_used: 'X' })).data.coupon_code_used).toBe('X')
    expect((await client.conversions.list({ affiliate_id: ann.id, type: 'purchase' })).data).toHaveLength(1)

    const coupon = (await client.coupons.create({ affiliate_id: ann.id, coupon_code: 'ANN10' })).data
    expect((await client.coupons.get(coupon.id)).data.coupon_code).toBe('ANN10')
    expect((await client.coupons.update(coupon.id, { processor_coupon_id: 'co_1' })).data.processor_coupon_id).toBe('co_1')
    expect((await client.coupons.list({ coupon_code: 'ANN10' })).data).toHaveLength(1)

    expect((await client.clicks.create({ referral_code: 'ANN' })).data.affiliate_id).toBe(ann.id)
    expect((await client.affiliates.get('ann@example.com')).data).toMatchObject({ clicks: 1, signups: 1, purchases: 1, total_earnings: '14.70' })

    const payout = (await client.payouts.create({ affiliate_email: 'ann@example.com', amount: 14.7, method: 'paypal' })).data
    expect(payout).toMatchObject({ amount: '14.70', conversions_settled: 1, unpaid_earnings_after: 0 })
    expect((await client.payouts.get(payout.id)).data).toEqual(payout)
    expect((await client.payouts.list({ affiliate_id: ann.id })).data).toEqual([payout])

    await client.coupons.delete(coupon.id)
    await client.conversions.delete(created.data.id)
    await client.affiliates.delete('ann@example.com')
    expect((await client.affiliates.list()).pagination.total).toBe(0)
  })

  it('throws ApiError with the status and the message', async () => {
    const error = await client.affiliates.get('nobody@example.com').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 404, message: expect.stringContaining('not found') })
    const invalid = await client.affiliates.create({ email: 'not-an-email' }).catch((caught: unknown) => caught)
    expect(invalid).toMatchObject({ status: 400, message: expect.stringContaining('email') })
    const denied = await createClient({ baseURL: (await serve()).baseURL, apiKey: 'rgk_wrong' }).affiliates.list().catch((caught: unknown) => caught)
    expect(denied).toMatchObject({ status: 401 })
  })

  it('waits for Retry-After and retries a 429', async () => {
    const { client: limited } = await serve({ rateLimit: { limit: 1, windowSeconds: 1 } })
    await limited.affiliates.list()
    const started = Date.now()
    expect((await limited.affiliates.list()).success).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    const { baseURL, key } = await serve({ rateLimit: { limit: 1, windowSeconds: 60 } })
    const impatient = createClient({ baseURL, apiKey: key, rateLimitRetries: 0 })
    await impatient.affiliates.list()
    expect(await impatient.affiliates.list().catch((caught: unknown) => caught)).toMatchObject({ status: 429 })
  })

  it('sends idempotency keys: a repeated create replays the first answer', async () => {
    const first = await client.affiliates.create({ email: 'idem@example.com' }, { idempotencyKey: 'create-idem-1' })
    const second = await client.affiliates.create({ email: 'idem@example.com' }, { idempotencyKey: 'create-idem-1' })
    expect(second).toEqual(first)
    const conflict = await client.affiliates.create({ email: 'other@example.com' }, { idempotencyKey: 'create-idem-1' }).catch((caught: unknown) => caught)
    expect(conflict).toMatchObject({ status: 409 })
  })

  it('sends its requests through the fetch it is given (a handler in the same process, no network)', async () => {
    const program = await createAffiliateProgram({ storage: memoryStorage() })
    const { key } = await program.keys.create()
    const handler = createHandler(program)
    const seen: string[] = []
    const inProcess = createClient({
      baseURL: 'http://nowhere.invalid/api/v1',
      apiKey: key,
      fetch: (input, init) => {
        const request = new Request(input, init)
        seen.push(`${request.method} ${new URL(request.url).pathname}`)
        return handler.fetch(request)
      },
    })
    await inProcess.affiliates.create({ email: 'ann@example.com', referral_code: 'ANN' })
    expect((await inProcess.affiliates.get('ann@example.com')).data.referral_code).toBe('ANN')
    expect(seen).toEqual(['POST /api/v1/affiliates', 'GET /api/v1/affiliates/ann%40example.com'])
  })
})
