// The webhook outbox at the port (what the dispatcher relies on): leases on claims, attempts,
// manual requeue, and test deliveries (outbox.insertTestDelivery).
import { describe, expect, it } from 'vitest'
import type { ClaimedDelivery } from '../../src/storage.js'
import type { CaseContext } from './harness.js'

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
      const attempts = await storage.outbox.listAttempts(program.projectId, first[0]!.delivery.id)
      expect(attempts).toMatchObject([{ statusCode: 500, durationMs: 12, responseExcerpt: 'no', error: 'HTTP 500' }])
      expect(await storage.outbox.requeue(program.projectId, first[0]!.delivery.id, later)).toBe(true)
      expect(mine(await storage.outbox.claim({ now: later, limit: 10_000, leaseMs: 60_000 }), program.projectId)).toHaveLength(1)
      // Being sent: not requeued.
      expect(await storage.outbox.requeue(program.projectId, first[0]!.delivery.id, later)).toBe(false)
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
      const log = await storage.outbox.listDeliveries(program.projectId, { limit: 10, offset: 0 })
      expect(log.total).toBe(1)
      expect(log.items[0]).toMatchObject({ endpointId: target.id, status: 'failed', attempts: 1, lastStatusCode: 404 })
      // Long after, a finished test delivery is never claimed.
      expect(mine(await storage.outbox.claim({ now: new Date(now.getTime() + 86_400_000), limit: 10_000, leaseMs: 1 }), program.projectId)).toHaveLength(0)

      const other = await context.program()
      expect(await storage.outbox.insertTestDelivery({ event: { ...event, projectId: other.program.projectId }, endpointId: target.id, leaseUntil: lease })).toBeNull()
      expect((await storage.outbox.listDeliveries(other.program.projectId, { limit: 10, offset: 0 })).total).toBe(0)
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
      await storage.outbox.requeue(program.projectId, second!.delivery.id, at)
      expect(await storage.outbox.backlog()).toBe(before + 1)
    })
  })
}
