// Failure handling with the test clock: exactly 4 attempts on the 5 s / 5 min / 30 min schedule
// (+-20% jitter), then `failed`; manual retry; Retry-After; redirects are failures; the log.
import { afterEach, describe, expect, it } from 'vitest'
import type { AffiliateProgram, TestClock, WebhookDispatcher } from '../../src/index.js'
import { answer, closedPort, runSchedule, signUp, startReceiver, webhookProgram, type Receiver } from '../support/webhooks-helpers.js'

const receivers: Receiver[] = []
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))
})
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args)
  receivers.push(started)
  return started
}

async function onlyDelivery(program: AffiliateProgram) {
  const { items } = await program.webhooks.deliveries()
  expect(items).toHaveLength(1)
  return items[0]!
}

/** Asserts 4 attempts, each 5 s, 300 s, 1800 s (+-20%) after the previous one ended, then `failed` with every attempt logged. */
async function expectFourAttemptsThenFailed(program: AffiliateProgram, dispatcher: WebhookDispatcher, clock: TestClock) {
  const delivery = await onlyDelivery(program)
  const times = await runSchedule(program, dispatcher, clock, delivery.id)
  expect(times).toHaveLength(4)
  const failed = await onlyDelivery(program)
  expect(failed).toMatchObject({ status: 'failed', attempts: 4, nextAttemptAt: null })
  clock.advance({ days: 30 })
  expect(await dispatcher.dispatch()).toBe(0)
  const attempts = await program.webhooks.attempts(delivery.id)
  expect(attempts.map((attempt) => attempt.attemptedAt.getTime())).toEqual(times)
  // The delay runs from the end of the attempt: its real duration (a few ms on the wall clock) comes first.
  const gaps = times.slice(1).map((time, index) => (time - times[index]! - Math.round(attempts[index]!.durationMs)) / 1000)
  ;[5, 300, 1800].forEach((delay, index) => {
    expect(gaps[index]).toBeGreaterThanOrEqual(delay * 0.8)
    expect(gaps[index]).toBeLessThanOrEqual(delay * 1.2)
  })
  return { delivery: failed, attempts }
}

describe('webhook retries', () => {
  it('a receiver answering 500: 4 attempts on the schedule, failed, then a manual retry succeeds', async () => {
    const { program, clock, dispatcher } = await webhookProgram()
    const hook = await receiver(answer(500, 'boom'))
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await signUp(program)
    const { delivery, attempts } = await expectFourAttemptsThenFailed(program, dispatcher, clock)
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 500, 500])
    expect(attempts.every((attempt) => attempt.responseExcerpt === 'boom' && attempt.error === 'HTTP 500')).toBe(true)
    expect(hook.requests).toHaveLength(4)
    // Every attempt sends the same bytes and the same delivery id.
    expect(new Set(hook.requests.map((request) => request.body)).size).toBe(1)
    expect(new Set(hook.requests.map((request) => request.headers['x-service-delivery'])).size).toBe(1)

    hook.reply(answer(204))
    await program.webhooks.retry(delivery.id)
    expect(await dispatcher.dispatch()).toBe(1)
    expect(await onlyDelivery(program)).toMatchObject({ status: 'succeeded', attempts: 5, lastStatusCode: 204 })
    expect((await program.webhooks.attempts(delivery.id)).map((attempt) => attempt.statusCode)).toEqual([500, 500, 500, 500, 204])
    expect(hook.requests[4]!.body).toBe(hook.requests[0]!.body)
    expect((await program.webhooks.deliveries({ status: 'succeeded', eventType: 'referral_signed_up' })).total).toBe(1)
    expect((await program.webhooks.deliveries({ status: 'failed' })).total).toBe(0)
  })

  it('a refused connection: 4 attempts, failed, error logged; manual retry succeeds once it listens', async () => {
    const { program, clock, dispatcher } = await webhookProgram()
    const port = await closedPort()
    await program.webhooks.create({ url: `http://127.0.0.1:${port}/in`, events: ['referral_signed_up'] })
    await signUp(program)
    const { delivery, attempts } = await expectFourAttemptsThenFailed(program, dispatcher, clock)
    expect(attempts.every((attempt) => attempt.statusCode === null && /ECONNREFUSED/.test(attempt.error ?? ''))).toBe(true)

    const hook = await receiver(answer(200, 'back'), port)
    await program.webhooks.retry(delivery.id)
    await dispatcher.dispatch()
    expect(await onlyDelivery(program)).toMatchObject({ status: 'succeeded', attempts: 5 })
    expect(hook.requests).toHaveLength(1)
  })

  it('honours Retry-After on 429 and 503 over the shorter scheduled delay', async () => {
    const { program, clock, dispatcher } = await webhookProgram()
    const hook = await receiver(answer(503, 'busy', { 'Retry-After': '120' }))
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await signUp(program)
    await dispatcher.dispatch()
    const delivery = await onlyDelivery(program)
    expect(delivery.status).toBe('pending')
    // Counted from when the answer came, like every retry delay.
    const [attempt] = await program.webhooks.attempts(delivery.id)
    expect(attempt!.attemptedAt).toEqual(clock.now())
    expect(delivery.nextAttemptAt!.getTime() - (attempt!.attemptedAt.getTime() + Math.round(attempt!.durationMs))).toBe(120_000)
  })

  it('uses the project schedule when configured', async () => {
    const { program, clock, dispatcher } = await webhookProgram()
    await program.projects.updateSettings(program.projectId, { webhookRetryDelaysSeconds: [1, 2], allowPrivateNetworks: true })
    const hook = await receiver(answer(500))
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await signUp(program)
    const times = await runSchedule(program, dispatcher, clock, (await onlyDelivery(program)).id)
    expect(times).toHaveLength(3)
    expect(await onlyDelivery(program)).toMatchObject({ status: 'failed', attempts: 3 })
  })

  it('spreads first retries with +-20% jitter, and a succeeded delivery can be sent again by hand', async () => {
    const { program, clock, dispatcher } = await webhookProgram()
    const hook = await receiver(answer(500))
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    for (let index = 0; index < 20; index++) await signUp(program, `j${index}@example.com`)
    expect(await dispatcher.dispatch()).toBe(20)
    const { items } = await program.webhooks.deliveries({ limit: 50 })
    // The wait counts from the end of each attempt (its start plus its real duration).
    const delays = await Promise.all(
      items.map(async (item) => {
        const [attempt] = await program.webhooks.attempts(item.id)
        return item.nextAttemptAt!.getTime() - (attempt!.attemptedAt.getTime() + Math.round(attempt!.durationMs))
      }),
    )
    expect(delays.every((delay) => delay >= 4000 && delay <= 6000)).toBe(true)
    expect(new Set(delays).size).toBeGreaterThan(10)

    hook.reply(answer(200))
    // 6 s of jitter at most, plus the attempts' own durations (well under a second here).
    clock.advance({ seconds: 7 })
    expect(await dispatcher.dispatch()).toBe(20)
    const done = items[0]!
    expect((await program.webhooks.deliveries({ status: 'succeeded' })).total).toBe(20)
    await program.webhooks.retry(done.id)
    expect(await dispatcher.dispatch()).toBe(1)
    expect((await program.webhooks.attempts(done.id)).map((attempt) => attempt.statusCode)).toEqual([500, 200, 200])
  })

  it('treats a redirect as a failure and never follows it', async () => {
    const { program, dispatcher } = await webhookProgram()
    const target = await receiver()
    const hook = await receiver(answer(302, '', { Location: target.url }))
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await signUp(program)
    await dispatcher.dispatch()
    expect(await onlyDelivery(program)).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 302 })
    expect(target.requests).toHaveLength(0)
  })

  it('keeps only an excerpt of a large response body', async () => {
    const { program, dispatcher } = await webhookProgram()
    const hook = await receiver(answer(200, 'x'.repeat(200_000)))
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await signUp(program)
    await dispatcher.dispatch()
    const delivery = await onlyDelivery(program)
    const [attempt] = await program.webhooks.attempts(delivery.id)
    expect(attempt!.responseExcerpt!.length).toBe(1024)
    expect(delivery.status).toBe('succeeded')
  })

  it('manual retry of an unknown delivery or one of another project is a 404', async () => {
    const { program, dispatcher } = await webhookProgram()
    const hook = await receiver()
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await signUp(program)
    const delivery = await onlyDelivery(program)
    const other = await program.projects.create({ name: 'other' })
    await expect(program.project(other.id).webhooks.retry(delivery.id)).rejects.toMatchObject({ code: 'not_found' })
    await expect(program.webhooks.retry(999_999)).rejects.toMatchObject({ code: 'not_found' })
    await expect(program.project(other.id).webhooks.attempts(delivery.id)).rejects.toMatchObject({ code: 'not_found' })
  })
})

describe('retry delays count from the end of the attempt', () => {
  it.each([
    ['times out', 400, () => {}],
    ['answers 503 slowly', 0, (response: Parameters<Parameters<Receiver['reply']>[0]>[1]) => setTimeout(() => response.writeHead(503).end('busy'), 300)],
  ] as const)('a receiver that %s is retried its full delay after the attempt ended, not at once', async (_name, timeoutMs, respond) => {
    const { program, clock, dispatcher } = await webhookProgram({ webhooks: { jitter: 0, ...(timeoutMs ? { timeoutMs } : {}) } })
    await program.projects.updateSettings(program.projectId, { webhookRetryDelaysSeconds: [0.2, 0.2], allowPrivateNetworks: true })
    const hook = await receiver((_request, response) => respond(response))
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await signUp(program)
    expect(await dispatcher.dispatch()).toBe(1)
    const delivery = await onlyDelivery(program)
    const [attempt] = await program.webhooks.attempts(delivery.id)
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(timeoutMs || 300)
    const ended = attempt!.attemptedAt.getTime() + Math.round(attempt!.durationMs)
    expect(delivery.nextAttemptAt!.getTime()).toBe(ended + 200)
    // Due neither 200 ms after the attempt started nor just before its delay after the end.
    clock.set(new Date(attempt!.attemptedAt.getTime() + 200))
    expect(await dispatcher.dispatch()).toBe(0)
    clock.set(new Date(ended + 199))
    expect(await dispatcher.dispatch()).toBe(0)
    clock.set(new Date(ended + 200))
    expect(await dispatcher.dispatch()).toBe(1)
    expect(hook.requests).toHaveLength(2)
  })
})
