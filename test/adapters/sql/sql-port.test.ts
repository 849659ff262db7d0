// Port-level behaviour the conformance suite does not reach (outbox, idempotency keys, rate-limit
// store, cascading deletes, list filters), run on memory (the reference), PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import type { Affiliate, EventType, StoragePort } from '../../../src/index.js'
import { migratedPgliteStorage } from '../../support/pglite-template.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'
import { requeue, affiliateRow as sharedAffiliateRow } from '../../conformance/helpers.js'

const adapters: Array<{ name: string; skip?: string; make: () => { storage: StoragePort; cleanup: () => Promise<void> } }> = [
  { name: 'memory', make: () => ({ storage: memoryStorage(), cleanup: async () => {} }) },
  {
    name: 'pglite',
    make: () => migratedPgliteStorage(),
  },
  { name: 'postgres', ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }), make: () => freshPostgresStorage() },
]

const at = (iso: string) => new Date(`2026-01-01T${iso}Z`)
let projectCounter = 0

const affiliateRow = (projectId: string, email: string, extra: Partial<Affiliate> = {}) => sharedAffiliateRow(projectId, email, { createdAt: at('00:00:00'), ...extra })

for (const adapter of adapters) {
  const suite = adapter.skip ? describe.skip : describe
  suite(`storage port details: ${adapter.name}${adapter.skip ? ` (skipped: ${adapter.skip})` : ''}`, () => {
    let storage: StoragePort
    let cleanup: () => Promise<void>
    beforeAll(async () => {
      ;({ storage, cleanup } = adapter.make())
    })
    afterAll(() => cleanup?.())

    async function project() {
      projectCounter += 1
      const id = `proj_port_${process.pid}_${projectCounter}_${Math.random().toString(36).slice(2, 8)}`
      await storage.projects.insert({ id, name: id, settings: { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 } } }, createdAt: at('00:00:00') })
      return id
    }

    async function endpoint(projectId: string, events: EventType[], active = true) {
      return storage.webhookEndpoints.insert({
        projectId,
        url: 'https://hooks.example.com/in',
        events,
        secret: 'whsec_x',
        previousSecret: null,
        previousSecretExpiresAt: null,
        mode: 'service',
        active,
        createdAt: at('00:00:00'),
      })
    }

    const event = (projectId: string, type: EventType, createdAt: Date) => ({ projectId, type, payload: { type }, createdAt })

    it('enqueues one delivery per active subscribed endpoint, and none for others', async () => {
      const projectId = await project()
      const subscribed = await endpoint(projectId, ['payout.created', 'referral_converted'])
      await endpoint(projectId, ['referral_signed_up'])
      await endpoint(projectId, ['payout.created'], false)
      await storage.outbox.enqueue(event(projectId, 'payout.created', at('00:00:01')))
      await storage.outbox.enqueue(event(projectId, 'referral_canceled', at('00:00:02')))
      const page = await storage.deliveries.list(projectId, { limit: 10, offset: 0 })
      expect(page.total).toBe(1)
      expect(page.items[0]).toMatchObject({ endpointId: subscribed.id, eventType: 'payout.created', status: 'pending', attempts: 0, nextAttemptAt: at('00:00:01') })
    })

    it('writes the events of a transaction in recording order, with it or not at all', async () => {
      const projectId = await project()
      const both = await endpoint(projectId, ['payout.created', 'referral_converted'])
      const payouts = await endpoint(projectId, ['payout.created'])
      await storage.transaction(async (tx) => {
        await tx.outbox.enqueue(event(projectId, 'payout.created', at('00:00:01')))
        await tx.outbox.enqueue(event(projectId, 'referral_converted', at('00:00:02')))
        await tx.outbox.enqueue(event(projectId, 'referral_canceled', at('00:00:03')))
        await tx.outbox.enqueue(event(projectId, 'payout.created', at('00:00:04')))
      })
      const oldestFirst = (await storage.deliveries.list(projectId, { limit: 10, offset: 0 })).items.reverse()
      expect(oldestFirst.map((d) => [d.eventType, d.endpointId, d.nextAttemptAt])).toEqual([
        ['payout.created', both.id, at('00:00:01')],
        ['payout.created', payouts.id, at('00:00:01')],
        ['referral_converted', both.id, at('00:00:02')],
        ['payout.created', both.id, at('00:00:04')],
        ['payout.created', payouts.id, at('00:00:04')],
      ])
      const eventIds = [...new Set(oldestFirst.map((d) => d.eventId))]
      expect(eventIds).toEqual([...eventIds].sort((a, b) => a - b))
      expect(eventIds).toHaveLength(3)

      const failure = new Error('rolled back')
      await expect(
        storage.transaction(async (tx) => {
          await tx.outbox.enqueue(event(projectId, 'payout.created', at('00:00:05')))
          throw failure
        }),
      ).rejects.toBe(failure)
      expect((await storage.deliveries.list(projectId, { limit: 10, offset: 0 })).total).toBe(5)
    })

    it('in a transaction, reads the events it recorded and sends each to the endpoints of its time', async () => {
      const projectId = await project()
      const first = await endpoint(projectId, ['payout.created'])
      const seen = await storage.transaction(async (tx) => {
        await tx.outbox.enqueue(event(projectId, 'payout.created', at('00:00:01')))
        const later = await tx.webhookEndpoints.insert({
          projectId,
          url: 'https://later.example.com/in',
          events: ['payout.created'],
          secret: 'whsec_y',
          previousSecret: null,
          previousSecretExpiresAt: null,
          mode: 'service',
          active: true,
          createdAt: at('00:00:02'),
        })
        await tx.outbox.enqueue(event(projectId, 'payout.created', at('00:00:03')))
        const page = await tx.deliveries.list(projectId, { limit: 10, offset: 0 })
        return { later, endpoints: page.items.reverse().map((d) => d.endpointId) }
      })
      expect(seen.endpoints).toEqual([first.id, first.id, seen.later.id])
      expect((await storage.deliveries.list(projectId, { limit: 10, offset: 0 })).total).toBe(3)
    })

    it('stores event payloads as given, whatever characters they hold', async () => {
      const projectId = await project()
      await endpoint(projectId, ['payout.created'])
      const hostile = [
        "it's", "''", "'; DROP TABLE x; --", 'back\\slash \\', "\\'", '"quoted"', '$1 $$ $tag$', 'é ü 中文 🙂 \u2028', '\u0000 nul escaped by JSON',
      ]
      const createdAt = new Date('2000-01-01T00:00:00Z')
      await storage.transaction(async (tx) => {
        for (const text of hostile) await tx.outbox.enqueue({ projectId, type: 'payout.created', payload: { text, nested: { [text]: [text] } }, createdAt })
      })
      const claimed = await storage.outbox.claim({ now: new Date('2000-01-01T00:00:01Z'), limit: 100, leaseMs: 1000 })
      const ours = claimed.filter((c) => c.event.projectId === projectId)
      expect(ours.map((c) => JSON.parse(c.event.body))).toEqual(hostile.map((text) => ({ text, nested: { [text]: [text] } })))
    })

    it('claims due deliveries once per lease, records attempts, reclaims expired leases, requeues', async () => {
      const projectId = await project()
      const hook = await endpoint(projectId, ['payout.created'])
      await storage.outbox.enqueue(event(projectId, 'payout.created', at('01:00:00')))
      await storage.outbox.enqueue(event(projectId, 'payout.created', at('01:00:05')))
      const mine = (claimed: Awaited<ReturnType<StoragePort['outbox']['claim']>>) => claimed.filter((item) => item.delivery.projectId === projectId)

      expect(mine(await storage.outbox.claim({ now: at('00:59:59'), limit: 10, leaseMs: 1000 }))).toEqual([])
      const first = mine(await storage.outbox.claim({ now: at('01:00:10'), limit: 100, leaseMs: 30_000 }))
      expect(first.map((item) => item.delivery.status)).toEqual(['delivering', 'delivering'])
      expect(first[0]!.event.body).toBe('{"type":"payout.created"}')
      expect(first[0]!.endpoint).toMatchObject({ id: hook.id, secret: 'whsec_x', events: ['payout.created'] })
      expect(first[0]!.delivery.leaseUntil).toEqual(at('01:00:40'))
      // Leased: nobody else gets them until the lease ends.
      expect(mine(await storage.outbox.claim({ now: at('01:00:20'), limit: 100, leaseMs: 30_000 }))).toEqual([])

      const [a, b] = first
      const recorded = await storage.outbox.recordAttempt({
        deliveryId: a!.delivery.id,
        attempt: { attemptedAt: at('01:00:11'), statusCode: 500, durationMs: 12.5, responseExcerpt: 'oops', error: null },
        status: 'pending',
        nextAttemptAt: at('01:05:00'),
      })
      expect(recorded).toMatchObject({ status: 'pending', attempts: 1, leaseUntil: null, lastStatusCode: 500, nextAttemptAt: at('01:05:00') })
      expect(await storage.deliveryAttempts.all(projectId, { deliveryId: a!.delivery.id })).toMatchObject([
        { deliveryId: a!.delivery.id, projectId, statusCode: 500, durationMs: 12.5, responseExcerpt: 'oops', error: null },
      ])
      // b's lease expired: it is claimed again; a is due at 01:05.
      const again = mine(await storage.outbox.claim({ now: at('01:01:00'), limit: 100, leaseMs: 30_000 }))
      expect(again.map((item) => item.delivery.id)).toEqual([b!.delivery.id])
      expect(await requeue(storage, projectId, b!.delivery.id, at('01:01:01'))).toBe(false)
      await storage.outbox.recordAttempt({
        deliveryId: b!.delivery.id,
        attempt: { attemptedAt: at('01:01:02'), statusCode: null, durationMs: 3, responseExcerpt: null, error: 'ECONNREFUSED' },
        status: 'failed',
        nextAttemptAt: null,
      })
      expect(await requeue(storage, 'other-project', b!.delivery.id, at('01:02:00'))).toBe(false)
      expect(await requeue(storage, projectId, b!.delivery.id, at('01:02:00'))).toBe(true)
      expect(await storage.deliveries.get(projectId, b!.delivery.id)).toMatchObject({ status: 'pending', nextAttemptAt: at('01:02:00'), attempts: 1 })
      expect((await storage.deliveries.list(projectId, { limit: 10, offset: 0, status: 'pending' })).total).toBe(2)
      expect((await storage.deliveries.list(projectId, { limit: 10, offset: 0, status: 'failed' })).total).toBe(0)

      // Deleting the endpoint deletes its deliveries and their attempts.
      expect(await storage.webhookEndpoints.delete(projectId, hook.id)).toBe(true)
      expect((await storage.deliveries.list(projectId, { limit: 10, offset: 0 })).total).toBe(0)
      expect(await storage.deliveryAttempts.all(projectId, { deliveryId: a!.delivery.id })).toEqual([])
    })

    it('claims an idempotency key once while it lives, then again after it expires or is released', async () => {
      const projectId = await project()
      const record = { projectId, key: 'k1', fingerprint: 'f1', response: null, createdAt: at('02:00:00'), leaseUntil: at('02:01:00'), expiresAt: at('03:00:00') }
      expect(await storage.keyedState.claim(record)).toBeNull()
      expect(await storage.keyedState.claim({ ...record, fingerprint: 'f2', createdAt: at('02:30:00') })).toMatchObject({ fingerprint: 'f1', response: null })
      await storage.keyedState.settle(projectId, 'k1', at('02:00:00'), { status: 201, body: '{"id":1}' })
      expect(await storage.keyedState.claim({ ...record, createdAt: at('02:59:59') })).toMatchObject({ response: { status: 201, body: '{"id":1}' } })
      // Expired: the next claim takes the key afresh.
      const third = { ...record, fingerprint: 'f3', createdAt: at('03:00:00'), leaseUntil: at('03:01:00'), expiresAt: at('04:00:00') }
      expect(await storage.keyedState.claim(third)).toBeNull()
      expect(await storage.keyedState.claim({ ...record, createdAt: at('03:00:01') })).toMatchObject({ fingerprint: 'f3', response: null })
      await storage.keyedState.release(projectId, 'k1', at('03:00:00'))
      expect(await storage.keyedState.claim({ ...record, createdAt: at('03:00:02'), leaseUntil: at('03:01:02'), expiresAt: at('05:00:00') })).toBeNull()
    })

    it('deletes an affiliate with its rows, keeps its referred users unlinked and frees its children', async () => {
      const projectId = await project()
      const parent = await storage.affiliates.insert(affiliateRow(projectId, 'parent@example.com'))
      const child = await storage.affiliates.insert(affiliateRow(projectId, 'child@example.com', { parentId: parent.id }))
      const referral = await storage.referrals.insert({ projectId, email: 'ref@example.com', affiliateId: parent.id, conversionStatus: 'pending', conversionDate: null, firstPurchaseAt: null, payments: 0, lastPayment: null, clickId: null, createdAt: at('00:00:01') })
      await storage.coupons.insert({ projectId, affiliateId: parent.id, code: 'SAVE10', status: 'active', processorCouponId: null, discountType: null, discountValue: null, createdAt: at('00:00:01') })
      await storage.clicks.insert({ projectId, affiliateId: parent.id, ipAddress: null, userAgent: null, landingUrl: null, createdAt: at('00:00:01') })
      expect(await storage.affiliates.delete('other', parent.id)).toBe(false)
      expect(await storage.affiliates.delete(projectId, parent.id)).toBe(true)
      expect(await storage.affiliates.get(projectId, parent.id)).toBeNull()
      expect(await storage.affiliates.get(projectId, child.id)).toMatchObject({ parentId: null })
      expect(await storage.referrals.get(projectId, referral.id)).toMatchObject({ affiliateId: null })
      expect(await storage.coupons.first(projectId, { code: 'save10' })).toBeNull()
      expect(await storage.affiliates.delete(projectId, parent.id)).toBe(false)
    })

    it('enforces case-insensitive uniqueness of emails, referral codes and coupon codes per project', async () => {
      const projectId = await project()
      const other = await project()
      const affiliate = await storage.affiliates.insert(affiliateRow(projectId, 'dup@example.com', { referralCode: 'DupCode' }))
      await expect(storage.affiliates.insert(affiliateRow(projectId, 'dup@example.com', { referralCode: 'x1' }))).rejects.toMatchObject({ constraint: 'affiliate_email' })
      await expect(storage.affiliates.insert(affiliateRow(projectId, 'dup2@example.com', { referralCode: 'dupcode' }))).rejects.toMatchObject({ constraint: 'affiliate_referral_code' })
      expect(await storage.affiliates.getByCode(projectId, 'DUPCODE')).toMatchObject({ id: affiliate.id })
      await storage.affiliates.insert(affiliateRow(other, 'dup@example.com', { referralCode: 'DupCode' }))
      const coupon = { projectId, affiliateId: affiliate.id, code: 'Summer', status: 'active' as const, processorCouponId: null, discountType: null, discountValue: null, createdAt: at('00:00:01') }
      await storage.coupons.insert(coupon)
      await expect(storage.coupons.insert({ ...coupon, code: 'SUMMER' })).rejects.toMatchObject({ constraint: 'coupon_code' })
      expect((await storage.coupons.list(projectId, { limit: 10, offset: 0, code: 'summer' })).total).toBe(1)
      // A failed insert inside a transaction does not spoil it (the core retries referral codes there).
      const inserted = await storage.transaction(async (tx) => {
        await tx.affiliates.insert(affiliateRow(projectId, 'tx@example.com', { referralCode: 'dupcode' })).catch(() => null)
        return tx.affiliates.insert(affiliateRow(projectId, 'tx@example.com', { referralCode: 'fresh' }))
      })
      expect(await storage.affiliates.first(projectId, { email: 'tx@example.com' })).toMatchObject({ id: inserted.id, referralCode: 'fresh' })
    })

    it('pages newest first with totals, also past the end', async () => {
      const projectId = await project()
      for (let index = 0; index < 5; index += 1) {
        await storage.affiliates.insert(affiliateRow(projectId, `p${index}@example.com`, { createdAt: at(`00:00:0${index % 3}`), status: index % 2 ? 'inactive' : 'active' }))
      }
      const page = await storage.affiliates.list(projectId, { limit: 2, offset: 1 })
      expect(page.total).toBe(5)
      expect(page.items.map((row) => row.email)).toEqual(['p4@example.com', 'p1@example.com'])
      expect(await storage.affiliates.list(projectId, { limit: 2, offset: 10 })).toEqual({ items: [], total: 5 })
      expect((await storage.affiliates.list(projectId, { limit: 10, offset: 0, statuses: ['inactive'] })).items.map((row) => row.email)).toEqual(['p1@example.com', 'p3@example.com'])
    })
  })
}
