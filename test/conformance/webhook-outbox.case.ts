// The webhook outbox at the port (what the dispatcher relies on): leases on claims, attempts,
// manual requeue, and test deliveries (outbox.insertTestDelivery).
import { describe, expect, it } from 'vitest'
import type { ClaimedDelivery } from '../../src/storage.js'
import type { CaseContext } from './harness.js'
import { requeue } from './helpers.js'

export function webhookOutboxCases(context: CaseContext): void {
  describe('webhook outbox', () => {
    /** Claim is global across projects: keep only this project's claims. */
    const mine = (claimed: ClaimedDelivery[], projectId: string) => claimed.filter((item) => item.delivery.projectId === projectId)

    it('claims due deliveries under a lease, reclaims them when it expires, records attempts', async () => {
      const { program, storage, clock } = await context.program()
      const endpoint = await program.webhooks.create({ url: 'https://hooks.example.com/a', events: ['payout.created'] })
      const at = clock.now()
      await storage.transaction((tx) => tx.outbox.enqueue({ projectId: program.projectId, type: 'payout.created', payload: { n: 1 }, createdAt: at }))
      const first = mine(await storage.outbox.claim({ now: at, limit: 10_000, leaseMs: 60_000 }), program.projectId)
      expect(first).toHaveLength(1)
      expect(first[0]!.delivery).toMatchObject({ status: 'delivering', attempts: 0, endpointId: endpoint.id })
      expect(first[0]!.event.body).toBe('{"n":1}')
      expect(first[0]!.endpoint.url).toBe('https://hooks.example.com/a')
      const soon = new Date(at.getTime() + 59_000)
      expect(mine(await storage.outbox.claim({ now: soon, limit: 10_000, leaseMs: 60_000 }), program.projectId)).toHaveLength(0)
      const later = new Date(at.getTime() + 60_000)
      const again = mine(await storage.outbox.claim({ now: later, limit: 10_000, leaseMs: 60_000 }), program.projectId)
      expect(again.map((item) => item.delivery.id)).toEqual([first[0]!.delivery.id])

      const next = new Date(later.getTime() + 5000)
      const recorded = await storage.outbox.recordAttempt({
        deliveryId: first[0]!.delivery.id,
        status: 'pending',
        nextAttemptAt: next,
        attempt: { attemptedAt: later, statusCode: 500, durationMs: 12, responseExcerpt: 'no', error: 'HTTP 500' },
      })
      expect(recorded).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, leaseUntil: null })
      expect(mine(await storage.outbox.claim({ now: later, limit: 10_000, leaseMs: 60_000 }), program.projectId)).toHaveLength(0)
      const attempts = await storage.deliveryAttempts.all(program.projectId, { deliveryId: first[0]!.delivery.id })
      expect(attempts).toMatchObject([{ statusCode: 500, durationMs: 12, responseExcerpt: 'no', error: 'HTTP 500' }])
      expect(await requeue(storage, program.projectId, first[0]!.delivery.id, later)).toBe(true)
      expect(mine(await storage.outbox.claim({ now: later, limit: 10_000, leaseMs: 60_000 }), program.projectId)).toHaveLength(1)
      // Being sent: not requeued.
      expect(await requeue(storage, program.projectId, first[0]!.delivery.id, later)).toBe(false)
    })

    it('an event goes to the endpoints subscribed when it was recorded, whatever changes in the endpoints later', async () => {
      const { program, storage, clock } = await context.program()
      const first = await program.webhooks.create({ url: 'https://hooks.example.com/first', events: ['payout.created'] })
      const other = await program.webhooks.create({ url: 'https://hooks.example.com/other', events: ['referral_converted'] })
      const at = clock.now()
      const record = (n: number) => storage.transaction((tx) => tx.outbox.enqueue({ projectId: program.projectId, type: 'payout.created', payload: { n }, createdAt: at }))
      await record(1)
      // After the event: a new subscriber, a subscriber more, and the first one switched off.
      const later = await program.webhooks.create({ url: 'https://hooks.example.com/later', events: ['payout.created'] })
      await program.webhooks.update(other.id, { events: ['referral_converted', 'payout.created'] })
      await program.webhooks.update(first.id, { active: false })
      await record(2)
      const claimed = mine(await storage.outbox.claim({ now: at, limit: 10_000, leaseMs: 60_000 }), program.projectId)
      const endpointsOf = (n: number) => claimed.filter((item) => item.event.body === `{"n":${n}}`).map((item) => item.endpoint.id).sort((a, b) => a - b)
      expect(endpointsOf(1)).toEqual([first.id])
      expect(endpointsOf(2)).toEqual([other.id, later.id].sort((a, b) => a - b))
    })

    it('insertTestDelivery stores one delivery to that endpoint only, already leased, and the attempt finishes it', async () => {
      const { program, storage, clock } = await context.program()
      const target = await program.webhooks.create({ url: 'https://hooks.example.com/t', events: ['payout.created'] })
      await program.webhooks.create({ url: 'https://hooks.example.com/other', events: ['referral_converted'] })
      const now = clock.now()
      const lease = new Date(now.getTime() + 60_000)
      const event = { projectId: program.projectId, type: 'referral_converted' as const, payload: { test: true }, createdAt: now }
      const claimed = await storage.outbox.insertTestDelivery({ event, endpointId: target.id, leaseUntil: lease })
      expect(claimed).not.toBeNull()
      expect(claimed!.delivery).toMatchObject({ projectId: program.projectId, endpointId: target.id, eventType: 'referral_converted', status: 'delivering', attempts: 0 })
      expect(claimed!.delivery.leaseUntil?.getTime()).toBe(lease.getTime())
      expect(claimed!.event).toMatchObject({ type: 'referral_converted', body: '{"test":true}' })
      expect(claimed!.endpoint.id).toBe(target.id)
      expect(mine(await storage.outbox.claim({ now, limit: 10_000, leaseMs: 60_000 }), program.projectId)).toHaveLength(0)
      await storage.outbox.recordAttempt({
        deliveryId: claimed!.delivery.id,
        status: 'failed',
        nextAttemptAt: null,
        attempt: { attemptedAt: now, statusCode: 404, durationMs: 3, responseExcerpt: null, error: 'HTTP 404' },
      })
      const log = await storage.deliveries.list(program.projectId, { limit: 10, offset: 0 })
      expect(log.total).toBe(1)
      expect(log.items[0]).toMatchObject({ endpointId: target.id, status: 'failed', attempts: 1, lastStatusCode: 404 })
      // Long after, a finished test delivery is never claimed.
      expect(mine(await storage.outbox.claim({ now: new Date(now.getTime() + 86_400_000), limit: 10_000, leaseMs: 1 }), program.projectId)).toHaveLength(0)

      const other = await context.program()
      expect(await storage.outbox.insertTestDelivery({ event: { ...event, projectId: other.program.projectId }, endpointId: target.id, leaseUntil: lease })).toBeNull()
      expect((await storage.deliveries.list(other.program.projectId, { limit: 10, offset: 0 })).total).toBe(0)
    })

    it('backlog counts deliveries pending or being sent, in every project; ping answers', async () => {
      const { program, storage, clock } = await context.program()
      await storage.ping()
      await program.webhooks.create({ url: 'https://hooks.example.com/b', events: ['payout.created'] })
      const before = await storage.outbox.backlog()
      const at = clock.now()
      for (const n of [1, 2]) {
        await storage.transaction((tx) => tx.outbox.enqueue({ projectId: program.projectId, type: 'payout.created', payload: { n }, createdAt: at }))
      }
      expect(await storage.outbox.backlog()).toBe(before + 2)
      const [first, second] = mine(await storage.outbox.claim({ now: at, limit: 10_000, leaseMs: 60_000 }), program.projectId)
      expect(await storage.outbox.backlog()).toBe(before + 2)
      const attempt = { attemptedAt: at, statusCode: 200, durationMs: 1, responseExcerpt: null, error: null }
      await storage.outbox.recordAttempt({ deliveryId: first!.delivery.id, status: 'succeeded', nextAttemptAt: null, attempt })
      await storage.outbox.recordAttempt({ deliveryId: second!.delivery.id, status: 'failed', nextAttemptAt: null, attempt: { ...attempt, statusCode: 500 } })
      expect(await storage.outbox.backlog()).toBe(before)
      await requeue(storage, program.projectId, second!.delivery.id, at)
      expect(await storage.outbox.backlog()).toBe(before + 1)
    })

    describe('claim order', () => {
      // Deliveries due in 2000, long before any other case's (test clocks start in 2026), so a
      // claim with a small limit at these times can only take this case's deliveries.
      const T0 = Date.UTC(2000, 0, 1)
      const at = (seconds: number) => new Date(T0 + seconds * 1000)
      const succeeded = { statusCode: 200, durationMs: 1, responseExcerpt: null, error: null }

      async function outboxCase() {
        const { program, storage } = await context.program()
        await program.webhooks.create({ url: 'https://hooks.example.com/order', events: ['payout.created'] })
        const enqueue = (n: number, seconds: number) =>
          storage.transaction((tx) => tx.outbox.enqueue({ projectId: program.projectId, type: 'payout.created', payload: { n }, createdAt: at(seconds) }))
        /** The `n` of each claimed delivery, in the order claimed. */
        const claim = async (seconds: number, limit: number, leaseMs = 60_000) =>
          (await storage.outbox.claim({ now: at(seconds), limit, leaseMs })).map((item) => (JSON.parse(item.event.body) as { n: number }).n)
        const ids = new Map<number, number>()
        const claimIds = async (seconds: number, limit: number, leaseMs = 60_000) => {
          const claimed = await storage.outbox.claim({ now: at(seconds), limit, leaseMs })
          for (const item of claimed) ids.set((JSON.parse(item.event.body) as { n: number }).n, item.delivery.id)
          return claimed.map((item) => (JSON.parse(item.event.body) as { n: number }).n)
        }
        const record = (n: number, seconds: number, status: 'pending' | 'succeeded' | 'failed', nextAt: number | null = null) =>
          storage.outbox.recordAttempt({ deliveryId: ids.get(n)!, status, nextAttemptAt: nextAt === null ? null : at(nextAt), attempt: { ...succeeded, attemptedAt: at(seconds) } })
        return { program, storage, enqueue, claim, claimIds, record, ids }
      }

      it('takes deliveries due at the same time by id, a limit taking the first ones', async () => {
        const { enqueue, claimIds, record } = await outboxCase()
        for (const n of [1, 2, 3]) await enqueue(n, 0)
        expect(await claimIds(0, 2)).toEqual([1, 2])
        expect(await claimIds(0, 2)).toEqual([3])
        for (const n of [1, 2, 3]) await record(n, 0, 'succeeded')
        expect(await claimIds(1000, 10)).toEqual([])
      })

      it('a retry is due at its own time: a shorter backoff overtakes a longer one', async () => {
        const { enqueue, claim, claimIds, record } = await outboxCase()
        await enqueue(1, 0)
        await enqueue(2, 1)
        expect(await claimIds(1, 10)).toEqual([1, 2])
        await record(1, 1, 'pending', 10)
        await record(2, 1, 'pending', 5)
        expect(await claim(4, 10)).toEqual([])
        expect(await claimIds(20, 1)).toEqual([2])
        expect(await claimIds(20, 1)).toEqual([1])
        await record(1, 20, 'pending', 30)
        await record(2, 20, 'failed')
        // A failed delivery requeued by hand is due at once, ahead of a retry due later.
        expect(await claim(25, 10)).toEqual([])
        await record(1, 20, 'succeeded')
      })

      it('a lapsed lease makes a delivery due again, ordered by its own due time among pending ones', async () => {
        const { program, storage, enqueue, claim, claimIds, record, ids } = await outboxCase()
        await enqueue(1, 1)
        expect(await claimIds(1, 10, 5000)).toEqual([1])
        await enqueue(2, 0)
        await enqueue(3, 3)
        // 1 is leased until 6 s.
        expect(await claimIds(5, 1)).toEqual([2])
        expect(await claimIds(6, 1)).toEqual([1])
        expect(await claimIds(6, 1)).toEqual([3])
        for (const n of [1, 2, 3]) await record(n, 6, 'succeeded')
        // A delivery requeued by hand is due at the time given.
        expect(await requeue(storage, program.projectId, ids.get(3)!, at(0))).toBe(true)
        expect(await claim(11, 10)).toEqual([3])
        await record(3, 11, 'succeeded')
        expect(await claim(100_000, 10)).toEqual([])
      })

      it('a requeue or an endpoint deletion rolled back with its transaction leaves the deliveries due as they were', async () => {
        const { program, storage, enqueue, claim, claimIds, record, ids } = await outboxCase()
        const endpoint = (await program.webhooks.list())[0]!
        await enqueue(1, 0)
        await enqueue(2, 0)
        expect(await claimIds(0, 10)).toEqual([1, 2])
        await record(1, 0, 'pending', 10)
        await record(2, 0, 'pending', 20)
        const rolledBack = new Error('rolled back')
        await expect(
          storage.transaction(async (tx) => {
            expect(await requeue(tx, program.projectId, ids.get(2)!, at(5))).toBe(true)
            throw rolledBack
          }),
        ).rejects.toBe(rolledBack)
        await expect(
          storage.transaction(async (tx) => {
            expect(await tx.webhookEndpoints.delete(program.projectId, endpoint.id)).toBe(true)
            throw rolledBack
          }),
        ).rejects.toBe(rolledBack)
        expect(await claim(9, 10)).toEqual([])
        expect(await claimIds(19, 10)).toEqual([1])
        expect(await claimIds(20, 10)).toEqual([2])
        for (const n of [1, 2]) await record(n, 20, 'succeeded')
        expect(await claim(100_000, 10)).toEqual([])
      })
    })
  })
}
