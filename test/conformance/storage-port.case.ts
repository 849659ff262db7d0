// The storage port itself: transactions commit together or not at all.
import { describe, expect, it } from 'vitest'
import type { StoragePort } from '../../src/index.js'
import { newConversion } from '../../src/core/model/entities.js'
import type { Conversion, Insert } from '../../src/storage.js'
import type { CaseContext } from './harness.js'
import { affiliateRow } from './helpers.js'

export function storagePortCases(context: CaseContext): void {
  describe('storage port', () => {
    it('rolls back every write of a transaction that throws', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const failure = new Error('boom')
      const caught = await storage
        .transaction(async (tx) => {
          const affiliate = await tx.affiliates.insert(affiliateRow(projectId, 'tx@example.com', { referralCode: 'txcode' }))
          await tx.affiliates.adjustTotals(projectId, affiliate.id, { clicks: 5 })
          await tx.referrals.insert({ projectId, email: 'txr@example.com', affiliateId: affiliate.id, conversionStatus: 'pending', conversionDate: null, firstPurchaseAt: null, payments: 0, lastPayment: null, clickId: null, createdAt: new Date() })
          throw failure
        })
        .catch((error: unknown) => error)
      expect(caught).toBe(failure)
      expect(await storage.affiliates.first(projectId, { email: 'tx@example.com' })).toBeNull()
      expect(await storage.referrals.first(projectId, { email: 'txr@example.com' })).toBeNull()
      expect((await program.affiliates.list()).total).toBe(0)
    })

    it('counts an inserted conversion in its affiliate totals and its day in the same write, and a duplicate reference not at all', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const at = new Date('2026-01-01T12:00:00Z')
      const row = newConversion<Insert<Conversion>>({
        projectId, affiliateId: ann.id, referredUserId: null, customerEmail: null, type: 'purchase', value: 600n,
        baseValue: 1999n, baseCurrency: 'USD', refundedBaseValue: 0n, paid: false, paidByPayoutId: null, status: 'active',
        holdUntil: at, reference: 'counted-1', fingerprint: null, couponCodeUsed: null, basis: 'purchase', commissionType: 'percentage',
        commissionRate: '30', tier: 1, parentConversionId: null, refundReason: null, productId: null, ruleSource: null, commissionAmount: null, reviewReason: null, clickVisitor: null, cardFingerprint: null, createdAt: at,
      })
      const counts = { totals: { countedValue: 600n, purchases: 1, signups: 1 }, day: '2026-01-01', daily: { purchases: 1, signups: 1, revenue: 1999n, commission: 600n } }
      const first = await storage.transaction((tx) => tx.conversions.insert(row, counts))
      const again = await storage.transaction((tx) => tx.conversions.insert({ ...row, value: 900n }, counts))
      expect(first.inserted).toBe(true)
      expect(again).toEqual({ inserted: false, existing: first.inserted ? first.conversion : null })
      expect((await storage.affiliates.get(projectId, ann.id))!.totals).toEqual({ countedValue: 600n, paidValue: 0n, credit: 0n, clicks: 0, signups: 1, purchases: 1 })
      const day = { day: '2026-01-01', clicks: 0, visitors: 0, signups: 1, purchases: 1, customers: 0, revenue: 1999n, commission: 600n }
      expect(await storage.tracking.daily(projectId, { from: '2026-01-01', to: '2026-01-02', affiliateId: ann.id })).toEqual([day])
      expect(await storage.tracking.daily(projectId, { from: '2026-01-01', to: '2026-01-02' })).toEqual([day])
    })

    it('records outbox events only when their transaction commits, and keeps them through a failed claim', async () => {
      const { program, storage } = await context.program()
      const endpoint = await program.webhooks.create({ url: 'https://hooks.example.com/port', events: ['referral_converted'] })
      const event = (n: number) => ({ projectId: program.projectId, type: 'referral_converted' as const, payload: { n }, createdAt: new Date('2026-01-01') })
      await storage.transaction(async (tx) => {
        await tx.outbox.enqueue(event(1))
        await tx.outbox.enqueue(event(2))
      })
      await storage
        .transaction(async (tx) => {
          await tx.outbox.enqueue(event(3))
          throw new Error('rolled back')
        })
        .catch(() => undefined)
      await storage
        .transaction(async (tx) => {
          // The adapters' transactions roll back the dispatcher's claims too.
          const outbox = tx.outbox as StoragePort['outbox']
          expect(await outbox.claim({ now: new Date('2999-01-01'), limit: 100, leaseMs: 1000 })).not.toHaveLength(0)
          throw new Error('claim rolled back')
        })
        .catch(() => undefined)
      const claimed = (await storage.outbox.claim({ now: new Date('2999-01-01'), limit: 1000, leaseMs: 1000 })).filter(
        (item) => item.endpoint.id === endpoint.id,
      )
      expect(claimed.map((item) => item.event.body)).toEqual(['{"n":1}', '{"n":2}'])
      expect((await program.webhooks.deliveries({ endpointId: endpoint.id })).total).toBe(2)
    })

    it('deletes an affiliate of its own project only, with its conversions, coupons, clicks and payouts, detaching its referred users and sub-affiliates; a rolled-back delete puts all of it back', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const window = { limit: 10, offset: 0 }
      const parent = await program.affiliates.create({ email: 'parent@example.com', referralCode: 'parent' })
      const child = await storage.affiliates.insert(affiliateRow(projectId, 'child@example.com', { parentId: parent.id }))
      await program.trackClick({ referralCode: 'parent' })
      await program.coupons.create({ affiliateId: parent.id, code: 'PARENT10' })
      await program.conversions.create({ type: 'purchase', affiliateId: parent.id, baseValue: 100, email: 'buyer@example.com' })
      await program.payouts.create({ affiliateId: parent.id, amount: 10 })
      const owned = async () => ({
        conversions: (await storage.conversions.list(projectId, window)).total,
        coupons: (await storage.coupons.list(projectId, window)).total,
        payouts: (await storage.payouts.list(projectId, window)).total,
        referredBy: (await storage.referrals.first(projectId, { email: 'buyer@example.com' }))?.affiliateId,
        childParent: (await storage.affiliates.get(projectId, child.id))?.parentId,
      })
      const before = { conversions: 1, coupons: 1, payouts: 1, referredBy: parent.id, childParent: parent.id }
      expect(await owned()).toEqual(before)

      expect(await storage.affiliates.delete('another-project', parent.id)).toBe(false)
      const undone = new Error('undone')
      const caught = await storage
        .transaction(async (tx) => {
          expect(await tx.affiliates.delete(projectId, parent.id)).toBe(true)
          expect(await tx.affiliates.get(projectId, child.id)).toMatchObject({ parentId: null })
          throw undone
        })
        .catch((error: unknown) => error)
      expect(caught).toBe(undone)
      expect(await storage.affiliates.get(projectId, parent.id)).toMatchObject({ id: parent.id, totals: { clicks: 1 } })
      expect(await owned()).toEqual(before)

      expect(await storage.affiliates.delete(projectId, parent.id)).toBe(true)
      expect(await storage.affiliates.get(projectId, parent.id)).toBeNull()
      expect(await owned()).toEqual({ conversions: 0, coupons: 0, payouts: 0, referredBy: null, childParent: null })
      expect(await storage.affiliates.delete(projectId, parent.id)).toBe(false)
    })

    it('takes a GCRA allowance of one key atomically: of 25 concurrent takes with room for 10, exactly 10 pass', async () => {
      const { storage } = await context.program()
      const key = `limit-${Math.random()}`
      const now = Date.UTC(2026, 0, 1)
      const take = { kind: 'take', now, interval: 6_000, windowMs: 60_000 } as const
      const outcomes = await Promise.all(Array.from({ length: 25 }, () => storage.keyedState.update(key, take)))
      const taken = outcomes.filter((outcome) => outcome.changed).map((outcome) => outcome.state)
      expect(taken.sort((x, y) => x! - y!)).toEqual(Array.from({ length: 10 }, (_, index) => now + 6_000 * (index + 1)))
      expect(outcomes.filter((outcome) => !outcome.changed).every((outcome) => outcome.state === now + 60_000)).toBe(true)
      // Given back, one more fits; a window later the allowance is whole again.
      expect(await storage.keyedState.update(key, { kind: 'giveBack', amount: 6_000 })).toEqual({ state: now + 54_000, changed: true })
      expect(await storage.keyedState.update(key, take)).toEqual({ state: now + 60_000, changed: true })
      expect(await storage.keyedState.update(key, take)).toEqual({ state: now + 60_000, changed: false })
      expect(await storage.keyedState.update(key, { ...take, now: now + 60_000 })).toEqual({ state: now + 66_000, changed: true })
      // Fractions of a millisecond add up exactly as in the server's arithmetic (server/gcra.ts).
      const fractional = { kind: 'take', now, interval: 86_400_000 / 7, windowMs: 86_400_000 } as const
      const first = await storage.keyedState.update(`${key}-day`, fractional)
      expect(first).toEqual({ state: now + 86_400_000 / 7, changed: true })
      expect(await storage.keyedState.update(`${key}-day`, fractional)).toEqual({ state: now + 86_400_000 / 7 + 86_400_000 / 7, changed: true })
    })

    it('keeps the first number stored under a key, and gives back nothing to a key without one', async () => {
      const { storage } = await context.program()
      const key = `number-${Math.random()}`
      expect(await storage.keyedState.update(key, { kind: 'giveBack', amount: 5 })).toEqual({ state: null, changed: false })
      const stored = await Promise.all([7, 8, 9].map((value) => storage.keyedState.update(key, { kind: 'initialize', value: 2 ** 47 + value })))
      expect(stored.filter((outcome) => outcome.changed)).toHaveLength(1)
      expect(new Set(stored.map((outcome) => outcome.state)).size).toBe(1)
    })

    it('keeps bigint money and dates exactly through a round trip', async () => {
      const { program, storage } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'exact@example.com' })
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '999999999999.99', value: '999999999999.99' })
      const stored = await storage.conversions.get(program.projectId, conversion.id)
      expect(stored).toMatchObject({ value: 99_999_999_999_999n, baseValue: 99_999_999_999_999n, createdAt: conversion.createdAt })
      const totals = (await storage.affiliates.get(program.projectId, affiliate.id))!.totals
      expect(totals.countedValue).toBe(99_999_999_999_999n)
    })

    it.skipIf(context.adapter.multiConnection)('fails loudly when the root storage is used inside a transaction (single-connection adapters only: a pool simply uses another connection)', async () => {
      const { storage, program } = await context.program()
      const outcome = await storage
        .transaction(async () => storage.affiliates.list(program.projectId, { limit: 1, offset: 0 }))
        .then(
          () => 'completed',
          (error: Error) => error.message,
        )
      expect(outcome).toMatch(/transaction/)
    })
  })
}
