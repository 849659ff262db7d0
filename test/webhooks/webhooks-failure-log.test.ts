// A webhook receiver that is down fails every attempt: the log says so once per endpoint and
// interval with a count of the failed attempts, not once per attempt (issue 51: 16,694 lines in
// a 2-minute outage), and once more when the endpoint answers again. Deliveries given up stay one
// error line each.
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, createLogger, createWebhookDispatcher, testClock } from '../../src/index.js'
import { answer, startReceiver, type Receiver } from '../support/webhooks-helpers.js'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function receiver(status: number): Promise<Receiver> {
  const started = await startReceiver(answer(status, 'boom'))
  cleanups.push(() => started.close())
  return started
}

describe('failed webhook deliveries to an endpoint that is down', () => {
  it('are logged once per endpoint and interval with a count, and once more when it answers again', async () => {
    const lines: string[] = []
    const logger = createLogger({ format: 'json', level: 'info', write: (line) => lines.push(line) })
    const storage = memoryStorage()
    const clock = testClock(new Date())
    const program = await createAffiliateProgram({ storage, clock, settings: { allowPrivateNetworks: true, webhookRetryDelaysSeconds: [1, 1, 1, 1, 1, 1] } })
    cleanups.push(() => program.close())
    const down = await receiver(503)
    const other = await receiver(500)
    const first = await program.webhooks.create({ url: down.url, events: ['referral_signed_up'] })
    const second = await program.webhooks.create({ url: other.url, events: ['referral_signed_up'] })
    const intervalMs = 300
    const dispatcher = createWebhookDispatcher({ storage, clock, logger, logIntervalMs: intervalMs })
    const affiliate = await program.affiliates.create({ email: 'aff@example.com' })
    for (let n = 0; n < 10; n += 1) await program.referrals.create({ email: `buyer${n}@example.com`, affiliateId: affiliate.id })
    const warnings = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record.level === 'warn')

    // 20 failed attempts (10 per endpoint) within the interval: one line per endpoint.
    expect(await dispatcher.dispatch()).toBe(20)
    expect(warnings()).toEqual([
      expect.objectContaining({ msg: 'webhook delivery failed; will retry', endpoint_id: expect.any(Number), failures: 1, status_code: expect.any(Number) }),
      expect.objectContaining({ msg: 'webhook delivery failed; will retry', endpoint_id: expect.any(Number), failures: 1 }),
    ])
    expect(new Set(warnings().map((record) => record.endpoint_id))).toEqual(new Set([first.id, second.id]))

    // Still down after the interval: one line per endpoint at its first failure after the interval,
    // counting the attempts since the last line (9 quiet ones and this one); the rest are quiet.
    await new Promise((resolve) => setTimeout(resolve, intervalMs + 50))
    clock.advance({ minutes: 1 })
    expect(await dispatcher.dispatch()).toBe(20)
    const repeated = warnings().slice(2)
    expect(repeated).toHaveLength(2)
    for (const record of repeated) expect(record).toMatchObject({ msg: expect.stringMatching(/^webhook deliveries to this endpoint keep failing: 10 more failed attempts; will retry$/), failures: 10 })

    // The first endpoint answers again: one info line with the failures not logged yet (9), then
    // its deliveries are quiet (debug); the second still fails, one line for the interval.
    down.reply(answer(200, 'ok'))
    await new Promise((resolve) => setTimeout(resolve, intervalMs + 50))
    clock.advance({ minutes: 1 })
    expect(await dispatcher.dispatch()).toBe(20)
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records.filter((record) => record.msg === 'webhook endpoint answers again')).toEqual([expect.objectContaining({ level: 'info', endpoint_id: first.id, failures: 9 })])
    expect(warnings().slice(4)).toEqual([expect.objectContaining({ endpoint_id: second.id, failures: 10 })])
    expect(lines.length).toBeLessThan(10)
  })
})
