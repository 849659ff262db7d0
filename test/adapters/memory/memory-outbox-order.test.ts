// The in-memory outbox keeps deliveries in heaps by due time and lease expiry (due-queue.ts):
// random enqueues, claims at times going back and forth, attempts and requeues, checked against
// a plain model of the SQL claim (filter what is due, sort by next attempt then id, take limit).
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock } from '../../../src/index.js'
import { requeue } from '../../conformance/helpers.js'

interface Modeled {
  seq: number
  id: number | null
  status: 'pending' | 'delivering' | 'succeeded' | 'failed'
  next: number | null
  lease: number | null
}

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('memory outbox claim order', () => {
  for (const seed of [1, 2, 3]) {
    it(`matches the SQL order over random operations (seed ${seed})`, async () => {
      const next = random(seed)
      const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]
      // Few distinct times, so many deliveries share a due time or a lease expiry.
      const time = () => Math.floor(next() * 40) * 1000
      const storage = memoryStorage()
      const program = await createAffiliateProgram({ storage, clock: testClock() })
      await program.webhooks.create({ url: 'https://hooks.example.com/model', events: ['payout.created'] })
      const model: Modeled[] = []
      const bySeq = (seq: number) => model[seq]!
      for (let step = 0; step < 3000; step++) {
        const roll = next()
        if (roll < 0.3) {
          const at = time()
          const seq = model.length
          model.push({ seq, id: null, status: 'pending', next: at, lease: null })
          await storage.transaction((tx) =>
            tx.outbox.enqueue({ projectId: program.projectId, type: 'payout.created', payload: { seq }, createdAt: new Date(at) }),
          )
        } else if (roll < 0.7) {
          const now = time()
          const limit = 1 + Math.floor(next() * 4)
          // Long leases mostly end by an attempt long before they expire: their entries pile up stale.
          const leaseMs = next() < 0.5 ? 1_000_000 : Math.floor(next() * 20) * 1000
          const expected = model
            .filter((row) => (row.status === 'pending' && row.next !== null && row.next <= now) || (row.status === 'delivering' && row.lease !== null && row.lease <= now))
            .sort((a, b) => (a.next ?? 0) - (b.next ?? 0) || a.seq - b.seq)
            .slice(0, limit)
          const claimed = await storage.outbox.claim({ now: new Date(now), limit, leaseMs })
          const seqs = claimed.map((item) => (JSON.parse(item.event.body) as { seq: number }).seq)
          expect(seqs, `step ${step}: claim at ${now} limit ${limit}`).toEqual(expected.map((row) => row.seq))
          for (const item of claimed) {
            const row = bySeq((JSON.parse(item.event.body) as { seq: number }).seq)
            row.id = item.delivery.id
            row.status = 'delivering'
            row.lease = now + leaseMs
            expect(item.delivery).toMatchObject({ status: 'delivering', leaseUntil: new Date(now + leaseMs) })
          }
        } else if (roll < 0.9) {
          const row = pick(model.filter((candidate) => candidate.status === 'delivering'))
          if (!row) continue
          const outcome = pick(['pending', 'pending', 'succeeded', 'failed'] as const)!
          const at = time()
          row.status = outcome
          row.next = outcome === 'pending' ? at : null
          row.lease = null
          const attempt = { attemptedAt: new Date(at), statusCode: 500, durationMs: 1, responseExcerpt: null, error: 'HTTP 500' }
          await storage.outbox.recordAttempt({ deliveryId: row.id!, status: outcome, nextAttemptAt: row.next === null ? null : new Date(row.next), attempt })
        } else {
          const row = pick(model.filter((candidate) => candidate.id !== null))
          if (!row) continue
          const at = time()
          const requeued = await requeue(storage, program.projectId, row.id!, new Date(at))
          expect(requeued).toBe(row.status !== 'delivering')
          if (requeued) Object.assign(row, { status: 'pending', next: at, lease: null })
        }
      }
      expect(await storage.outbox.backlog()).toBe(model.filter((row) => row.status === 'pending' || row.status === 'delivering').length)
    })
  }
})
