// Leases on the memory storage: a delivery claimed by a dispatcher that then died is not sent
// while its lease holds, and is sent by another dispatcher once the lease expires.
import { afterEach, expect, it } from 'vitest'
import { signUp, startReceiver, webhookProgram, type Receiver } from '../support/webhooks-helpers.js'

let hook: Receiver | undefined
afterEach(async () => {
  await hook?.close()
})

it('reclaims deliveries of a dispatcher that died mid-batch once their lease expires', async () => {
  const { program, clock, dispatcher, storage } = await webhookProgram({ webhooks: { leaseMs: 30_000 } })
  hook = await startReceiver()
  await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
  for (let index = 0; index < 5; index++) await signUp(program, `lease${index}@example.com`)
  // A dispatcher claims three deliveries and dies before sending them.
  const orphaned = await storage.outbox.claim({ now: clock.now(), limit: 3, leaseMs: 30_000 })
  expect(orphaned).toHaveLength(3)

  expect(await dispatcher.dispatch()).toBe(2)
  expect((await program.webhooks.deliveries({ status: 'delivering' })).total).toBe(3)
  clock.advance({ seconds: 29 })
  expect(await dispatcher.dispatch()).toBe(0)
  clock.advance({ seconds: 1 })
  expect(await dispatcher.dispatch()).toBe(3)
  const log = await program.webhooks.deliveries()
  expect(log.items.map((item) => [item.status, item.attempts])).toEqual(new Array(5).fill(['succeeded', 1]))
  const ids = hook.requests.map((request) => request.headers['x-service-delivery'])
  expect(new Set(ids).size).toBe(5)
  expect(ids).toHaveLength(5)
})
