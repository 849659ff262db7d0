// The delivery log over REST: GET /webhooks/:id/deliveries (paged, filtered), GET one delivery
// with its attempts, POST .../retry against a real receiver that fails first and then answers
// 200; both shapes, the typed client, scopes, and other projects' endpoints and deliveries as 404.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createClient } from '../../src/client/index.js'
import { createHandler, toNodeHandler } from '../../src/http/index.js'
import { createAffiliateProgram, createWebhookDispatcher, testClock } from '../../src/index.js'
import { caller } from '../support/http/helpers.js'
import { answer, signUp, startReceiver, type Receiver } from '../support/webhooks-helpers.js'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A program whose deliveries fail for good after one attempt, an endpoint on a real receiver answering 500, and one failed delivery. */
async function failedDelivery(shape: 'primary' | 'alternative' = 'primary') {
  const hook: Receiver = await startReceiver(answer(500, 'down'))
  cleanups.push(() => hook.close())
  const storage = memoryStorage()
  const clock = testClock(new Date())
  const program = await createAffiliateProgram({ storage, clock, settings: { allowPrivateNetworks: true, webhookRetryDelaysSeconds: [] } })
  cleanups.push(() => program.close())
  const dispatcher = createWebhookDispatcher({ storage, clock })
  const endpoint = await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
  await signUp(program)
  expect(await dispatcher.dispatch()).toBe(1)
  const [delivery] = (await program.webhooks.deliveries()).items
  expect(delivery).toMatchObject({ status: 'failed', attempts: 1 })
  const { key } = await program.keys.create()
  const handler = createHandler(program, { shape })
  return { hook, program, storage, dispatcher, endpoint, delivery: delivery!, key, handler, call: caller(handler, key) }
}

describe('delivery log over REST (primary shape)', () => {
  it('lists, shows and retries a failed delivery; the retry succeeds once the receiver answers 200', async () => {
    const s = await failedDelivery()
    const server = createServer(toNodeHandler(s.handler))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const api = createClient({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, apiKey: s.key })

    const failed = await api.webhooks.deliveries(s.endpoint.id, { status: 'failed' })
    expect(failed).toEqual({
      success: true,
      data: [
        {
          id: s.delivery.id,
          webhook_id: s.endpoint.id,
          event_type: 'referral_signed_up',
          status: 'failed',
          attempts: 1,
          last_status_code: 500,
          next_attempt_at: null,
          created_at: s.delivery.createdAt.toISOString(),
          updated_at: expect.any(String),
        },
      ],
      pagination: { limit: 50, offset: 0, total: 1, has_more: false },
    })
    expect((await api.webhooks.deliveries(s.endpoint.id, { status: 'succeeded' })).data).toEqual([])

    s.hook.reply(answer(200, 'ok'))
    const retried = await s.call('POST', `/webhooks/${s.endpoint.id}/deliveries/${s.delivery.id}/retry`)
    expect(retried.status).toBe(202)
    expect(retried.body.data).toMatchObject({ id: s.delivery.id, status: 'pending', attempts: 1, next_attempt_at: expect.any(String) })
    expect(await s.dispatcher.dispatch()).toBe(1)
    expect(s.hook.requests).toHaveLength(2)

    const detail = await api.webhooks.delivery(s.endpoint.id, s.delivery.id)
    expect(detail.data).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200, next_attempt_at: null })
    expect(detail.data.attempt_history).toEqual([
      { attempted_at: expect.any(String), status_code: 500, duration_ms: expect.any(Number), response_excerpt: 'down', error: 'HTTP 500' },
      { attempted_at: expect.any(String), status_code: 200, duration_ms: expect.any(Number), response_excerpt: 'ok', error: null },
    ])
    // The typed client's retry, with an Idempotency-Key: replayed, not sent twice.
    const again = await api.webhooks.retry(s.endpoint.id, s.delivery.id, { idempotencyKey: 'retry-1' })
    expect(again.data.status).toBe('pending')
    expect((await api.webhooks.retry(s.endpoint.id, s.delivery.id, { idempotencyKey: 'retry-1' })).data.status).toBe('pending')
    expect(await s.dispatcher.dispatch()).toBe(1)
    expect(s.hook.requests).toHaveLength(3)
  })

  it('pages newest first and refuses bad query parameters and ids with 400', async () => {
    const s = await failedDelivery()
    await signUp(s.program, 'second@example.com')
    await signUp(s.program, 'third@example.com')
    const page = await s.call('GET', `/webhooks/${s.endpoint.id}/deliveries?limit=2&offset=1`)
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 3, has_more: false })
    const all = await s.call('GET', `/webhooks/${s.endpoint.id}/deliveries`)
    expect(all.body.data.map((item: { id: number }) => item.id)).toEqual([...all.body.data.map((item: { id: number }) => item.id)].sort((a, b) => b - a))
    expect(page.body.data.map((item: { id: number }) => item.id)).toEqual(all.body.data.slice(1, 3).map((item: { id: number }) => item.id))
    expect((await s.call('GET', `/webhooks/${s.endpoint.id}/deliveries?status=lost`)).body.error).toMatch(/status/)
    expect((await s.call('GET', `/webhooks/${s.endpoint.id}/deliveries?event_type=nope`)).status).toBe(400)
    expect((await s.call('GET', `/webhooks/${s.endpoint.id}/deliveries?limit=0`)).status).toBe(400)
    expect((await s.call('GET', `/webhooks/${s.endpoint.id}/deliveries?page=2`)).status).toBe(400)
    expect((await s.call('GET', '/webhooks/abc/deliveries')).status).toBe(400)
    expect((await s.call('POST', `/webhooks/${s.endpoint.id}/deliveries/0/retry`)).status).toBe(400)
  })

  it('answers 404 for endpoints and deliveries of another project, and for a delivery of another endpoint', async () => {
    const s = await failedDelivery()
    const mine = (path: string, method = 'GET') => s.call(method, path)
    expect((await mine(`/webhooks/${s.endpoint.id}/deliveries/${s.delivery.id}`)).status).toBe(200)
    expect((await mine(`/webhooks/${s.endpoint.id + 1000}/deliveries`)).status).toBe(404)
    // An endpoint and a delivery of another project on the same storage.
    const project = await s.program.projects.create({ name: 'elsewhere', settings: { allowPrivateNetworks: true } })
    const elsewhere = s.program.project(project.id)
    const foreign = await elsewhere.webhooks.create({ url: s.hook.url, events: ['referral_signed_up'] })
    const affiliate = await elsewhere.affiliates.create({ email: 'x@example.com' })
    await elsewhere.referrals.create({ email: 'y@example.com', affiliateId: affiliate.id })
    const [foreignDelivery] = (await elsewhere.webhooks.deliveries()).items
    expect((await mine(`/webhooks/${foreign.id}/deliveries`)).status).toBe(404)
    expect((await caller(s.handler, (await elsewhere.keys.create()).key)('GET', `/webhooks/${foreign.id}/deliveries`)).body.data).toHaveLength(1)
    expect((await mine(`/webhooks/${foreign.id}/deliveries/${foreignDelivery!.id}`)).status).toBe(404)
    expect((await mine(`/webhooks/${s.endpoint.id}/deliveries/${foreignDelivery!.id}`)).status).toBe(404)
    expect((await mine(`/webhooks/${s.endpoint.id}/deliveries/${foreignDelivery!.id}/retry`, 'POST')).status).toBe(404)
    expect((await elsewhere.webhooks.deliveries()).items[0]).toMatchObject({ status: 'pending', attempts: 0 })
    // A delivery of another endpoint of the same project.
    const second = await s.program.webhooks.create({ url: s.hook.url, events: ['payout.created'] })
    expect((await mine(`/webhooks/${second.id}/deliveries/${s.delivery.id}`)).status).toBe(404)
    expect((await mine(`/webhooks/${second.id}/deliveries/${s.delivery.id}/retry`, 'POST')).status).toBe(404)
  })

  it('needs webhooks:read to read the log and webhooks:write to retry', async () => {
    const s = await failedDelivery()
    const reader = (await s.program.keys.create({ scopes: ['webhooks:read'] })).key
    const writer = (await s.program.keys.create({ scopes: ['webhooks:write'] })).key
    const list = `/webhooks/${s.endpoint.id}/deliveries`
    const retry = `/webhooks/${s.endpoint.id}/deliveries/${s.delivery.id}/retry`
    expect((await s.call('GET', list, undefined, { key: reader })).status).toBe(200)
    expect((await s.call('POST', retry, undefined, { key: reader })).status).toBe(403)
    expect((await s.call('GET', list, undefined, { key: writer })).status).toBe(403)
    expect((await s.call('POST', retry, undefined, { key: writer })).status).toBe(202)
    expect((await s.call('GET', list, undefined, { key: null })).status).toBe(401)
  })

  it('answers 409 while the delivery is being sent', async () => {
    const s = await failedDelivery()
    await s.program.webhooks.retry(s.delivery.id)
    await s.storage.outbox.claim({ now: s.program.clock.now(), limit: 10, leaseMs: 60_000 })
    const busy = await s.call('POST', `/webhooks/${s.endpoint.id}/deliveries/${s.delivery.id}/retry`)
    expect(busy.status).toBe(409)
    expect(busy.body.error).toMatch(/being sent/)
  })
})

describe('delivery log over REST (alternative shape)', () => {
  it('nests lists under data.deliveries and one delivery under data.delivery, in camelCase', async () => {
    const s = await failedDelivery('alternative')
    const list = await s.call('GET', `/webhooks/${s.endpoint.id}/deliveries?status=failed`)
    expect(list.body).toEqual({
      success: true,
      data: {
        deliveries: [expect.objectContaining({ id: s.delivery.id, webhookId: s.endpoint.id, eventType: 'referral_signed_up', status: 'failed', lastStatusCode: 500, nextAttemptAt: null })],
        total: 1,
        limit: 20,
        offset: 0,
      },
    })
    s.hook.reply(answer(204))
    const retried = await s.call('POST', `/webhooks/${s.endpoint.id}/deliveries/${s.delivery.id}/retry`)
    expect(retried).toMatchObject({ status: 202, body: { data: { delivery: { status: 'pending', attemptHistory: [{ statusCode: 500, error: 'HTTP 500' }] } } } })
    expect(await s.dispatcher.dispatch()).toBe(1)
    const detail = await s.call('GET', `/webhooks/${s.endpoint.id}/deliveries/${s.delivery.id}`)
    expect(detail.body.data.delivery).toMatchObject({ status: 'succeeded', attempts: 2, attemptHistory: [{ statusCode: 500 }, { statusCode: 204, error: null }] })
    const missing = await s.call('GET', `/webhooks/${s.endpoint.id}/deliveries/999999`)
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'resource_not_found' } } })
  })
})

