// Pruning what grows without bound (the retention port and pruneStorage): only what is done with
// goes, at most `limit` rows per call, and what a live request or a pending delivery needs stays.
import { describe, expect, it } from 'vitest'
import { markVisitor } from '../support/analytics/clicks.js'
import { pruneStorage } from '../../src/index.js'
import type { CaseContext } from './harness.js'

// Far enough in the past that no other case's rows are this old: pruning is storage-wide.
const OLD = new Date('2001-03-01T12:00:00Z')
const LATER = new Date('2001-03-20T12:00:00Z')
const day = (at: Date) => at.toISOString().slice(0, 10)

export function retentionCases(context: CaseContext): void {
  describe('retention', () => {
    it('prunes expired Idempotency-Keys, old visitor marks and signals, ended sessions and tokens, and old attempts of finished deliveries', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const claim = (key: string, expiresAt: Date) =>
        storage.keyedState.claim({ projectId, key, fingerprint: 'f', response: { status: 201, body: '{}' }, createdAt: OLD, leaseUntil: OLD, expiresAt })
      await claim('expired', new Date(OLD.getTime() + 1000))
      await claim('live', new Date('2099-01-01T00:00:00Z'))
      await markVisitor(storage, projectId, ann.id, day(OLD), 'old-visitor')
      await markVisitor(storage, projectId, ann.id, day(LATER), 'recent-visitor')
      await storage.tracking.markVisitorSignal(projectId, ann.id, 'old-visitor', 'own', day(OLD))
      await storage.tracking.markVisitorSignal(projectId, ann.id, 'recent-visitor', 'gclid', day(LATER))
      const session = (digest: string, expiresAt: Date) => ({
        digest, audience: 'portal' as const, projectId, subject: 'ann@example.com', createdAt: OLD, lastSeenAt: OLD, idleExpiresAt: expiresAt, expiresAt,
      })
      await storage.sessions.insertSession(session(`ended-${projectId}`, new Date(OLD.getTime() + 1000)))
      await storage.sessions.insertSession(session(`live-${projectId}`, new Date('2099-01-01T00:00:00Z')))
      await storage.sessions.insertSignInToken({ digest: `token-${projectId}`, audience: 'portal', projectId, subject: 'ann@example.com', createdAt: OLD, expiresAt: new Date(OLD.getTime() + 1000) })

      const endpoint = await program.webhooks.create({ url: 'https://hooks.example.com/r', events: ['payout.created'] })
      const event = { projectId, type: 'referral_converted' as const, payload: {}, createdAt: OLD }
      const attempt = { attemptedAt: OLD, statusCode: 500, durationMs: 3, responseExcerpt: null, error: 'HTTP 500' }
      const finished = (await storage.outbox.insertTestDelivery({ event, endpointId: endpoint.id, leaseUntil: LATER }))!.delivery
      await storage.outbox.recordAttempt({ deliveryId: finished.id, status: 'failed', nextAttemptAt: null, attempt })
      const retrying = (await storage.outbox.insertTestDelivery({ event, endpointId: endpoint.id, leaseUntil: LATER }))!.delivery
      await storage.outbox.recordAttempt({ deliveryId: retrying.id, status: 'pending', nextAttemptAt: LATER, attempt })

      const pruned = await pruneStorage(storage, LATER, { deliveryAttemptsDays: 7, visitorMarksDays: 7 })
      // At least this case's rows: other cases of the shared storage may have some as old.
      expect(pruned.idempotency_keys).toBeGreaterThanOrEqual(1)
      expect(pruned.visitor_marks).toBeGreaterThanOrEqual(1)
      expect(pruned.visitor_signals).toBeGreaterThanOrEqual(1)
      expect(pruned.sessions).toBeGreaterThanOrEqual(2)
      expect(pruned.delivery_attempts).toBeGreaterThanOrEqual(1)
      expect(await pruneStorage(storage, LATER, { deliveryAttemptsDays: 7, visitorMarksDays: 7 })).toEqual({ idempotency_keys: 0, visitor_marks: 0, visitor_signals: 0, sessions: 0, delivery_attempts: 0 })

      const retry = (key: string) =>
        storage.keyedState.claim({ projectId, key, fingerprint: 'f', response: null, createdAt: LATER, leaseUntil: LATER, expiresAt: new Date('2099-01-01T00:00:00Z') })
      expect(await retry('live')).not.toBeNull() // still answers its replays
      expect(await markVisitor(storage, projectId, ann.id, day(OLD), 'old-visitor')).toBe(true) // gone, so new again
      expect(await markVisitor(storage, projectId, ann.id, day(LATER), 'recent-visitor')).toBe(false)
      const signals = (visitor: string) =>
        storage.conversions.createReads(projectId, ann.id, { days: null, visitorSignalsOf: visitor, signupsOf: null, cardCustomersOf: null }).then((reads) => reads.visitorSignals)
      expect(await signals('old-visitor')).toEqual([])
      expect(await signals('recent-visitor')).toEqual(['gclid'])
      expect(await storage.sessions.getSession(`live-${projectId}`, LATER)).not.toBeNull()
      expect(await storage.sessions.consumeSignInToken(`token-${projectId}`, OLD)).toBeNull()
      expect(await program.webhooks.attempts(finished.id)).toEqual([])
      expect(await program.webhooks.attempts(retrying.id)).toHaveLength(1)
    })

    it('deletes at most the limit per call', async () => {
      const { program, storage } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      for (let index = 0; index < 5; index += 1) await markVisitor(storage, program.projectId, ann.id, '2001-01-01', `v${index}`)
      expect(await storage.retention.prune('visitor_marks', new Date('2001-01-02T00:00:00Z'), 2)).toBe(2)
      expect(await pruneStorage(storage, new Date('2001-01-09T00:00:00Z'), { visitorMarksDays: 7, batchSize: 2 })).toMatchObject({ visitor_marks: 3 })
    })
  })
}
