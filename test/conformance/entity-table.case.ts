// The generic table contract every adapter implements once (src/core/ports/entity-table.ts): get, first,
// all and list by the filters entity-filters.ts declares, insert, update, delete and lockForUpdate,
// each scoped by project: nothing crosses projects.
import { describe, expect, it } from 'vitest'
import type { Coupon, Insert, LedgerMovement } from '../../src/storage.js'
import type { CaseContext } from './harness.js'
import { affiliateRow } from './helpers.js'

const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12))

function couponRow(projectId: string, affiliateId: number, code: string, createdAt: Date, extra: Partial<Insert<Coupon>> = {}): Insert<Coupon> {
  return { projectId, affiliateId, code, status: 'active', processorCouponId: null, discountType: null, discountValue: null, createdAt, ...extra }
}

function movementRow(projectId: string, affiliateId: number, createdAt: Date, credit: bigint): Insert<LedgerMovement> {
  return { projectId, affiliateId, type: 'payout', conversionId: null, payoutId: null, holdUntil: null, countedValue: 0n, paidValue: 0n, credit, createdAt }
}

export function entityTableCases(context: CaseContext): void {
  describe('entity tables', () => {
    it('gets a row by id, the first and all rows by declared filters, and pages of them newest first', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const ann = await storage.affiliates.insert(affiliateRow(projectId, 'ann@example.com'))
      const bob = await storage.affiliates.insert(affiliateRow(projectId, 'bob@example.com', { status: 'inactive' }))
      const first = await storage.coupons.insert(couponRow(projectId, ann.id, 'ANN1', day(1)))
      const second = await storage.coupons.insert(couponRow(projectId, ann.id, 'ANN2', day(3), { status: 'inactive', processorCouponId: 'co_2' }))
      const third = await storage.coupons.insert(couponRow(projectId, bob.id, 'BOB1', day(2)))

      expect(await storage.coupons.get(projectId, second.id)).toEqual(second)
      expect(await storage.coupons.get(projectId, third.id + 1000)).toBeNull()
      // A unique key, compared in any case where declared so; an exact one is exact.
      expect(await storage.coupons.first(projectId, { code: 'ann2' })).toEqual(second)
      expect(await storage.coupons.first(projectId, { code: 'nobody' })).toBeNull()
      expect(await storage.coupons.first(projectId, { processorCouponId: 'CO_2' })).toBeNull()
      expect(await storage.coupons.first(projectId, { affiliateId: ann.id, status: 'inactive' })).toEqual(second)
      // all: by ascending id.
      expect((await storage.coupons.all(projectId, {})).map((row) => row.code)).toEqual(['ANN1', 'ANN2', 'BOB1'])
      expect(await storage.coupons.all(projectId, { affiliateId: ann.id, status: 'active' })).toEqual([first])
      // list: newest first (createdAt, not id), windowed, with how many match.
      expect(await storage.coupons.list(projectId, { limit: 2, offset: 0 })).toEqual({ items: [second, third], total: 3 })
      expect(await storage.coupons.list(projectId, { limit: 2, offset: 2 })).toEqual({ items: [first], total: 3 })
      expect(await storage.coupons.list(projectId, { affiliateId: ann.id, limit: 1, offset: 1 })).toEqual({ items: [first], total: 2 })
      expect(await storage.coupons.list(projectId, { affiliateId: bob.id, limit: 10, offset: 5 })).toEqual({ items: [], total: 1 })
      // Any of a list of values.
      expect((await storage.affiliates.all(projectId, { ids: [bob.id, ann.id, bob.id + 1000] })).map((row) => row.email)).toEqual(['ann@example.com', 'bob@example.com'])
      expect((await storage.affiliates.list(projectId, { statuses: ['inactive', 'blocked'], limit: 10, offset: 0 })).items.map((row) => row.email)).toEqual(['bob@example.com'])
      expect(await storage.affiliates.first(projectId, { email: 'BOB@example.com' })).toMatchObject({ id: bob.id })
    })

    it('bounds a date from either side and keeps a declared order (the ledger: oldest first)', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const ann = await storage.affiliates.insert(affiliateRow(projectId, 'ann@example.com'))
      const bob = await storage.affiliates.insert(affiliateRow(projectId, 'bob@example.com'))
      // Inserted out of time order: the order is by createdAt, then id.
      for (const [affiliateId, at, credit] of [[ann.id, day(3), 3n], [ann.id, day(1), 1n], [bob.id, day(2), 2n], [ann.id, day(2), 20n], [ann.id, day(4), 4n]] as const) {
        await storage.ledger.insert(movementRow(projectId, affiliateId, at, credit))
      }
      const credits = async (filter: Parameters<typeof storage.ledger.all>[1]) => (await storage.ledger.all(projectId, filter)).map((row) => row.credit)
      expect(await credits({})).toEqual([1n, 2n, 20n, 3n, 4n])
      expect(await credits({ affiliateId: ann.id })).toEqual([1n, 20n, 3n, 4n])
      expect(await credits({ after: day(1), upTo: day(3) })).toEqual([2n, 20n, 3n])
      expect(await credits({ affiliateId: ann.id, after: day(2) })).toEqual([3n, 4n])
    })

    it('updates, deletes and locks a row by its id; a taken unique key is a UniqueViolation', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const ann = await storage.affiliates.insert(affiliateRow(projectId, 'ann@example.com'))
      const row = await storage.coupons.insert(couponRow(projectId, ann.id, 'OLD', day(1)))

      const updated = await storage.coupons.update(projectId, row.id, { code: 'NEW', status: 'inactive', processorCouponId: undefined })
      expect(updated).toEqual({ ...row, code: 'NEW', status: 'inactive' })
      expect(await storage.coupons.get(projectId, row.id)).toEqual(updated)
      expect(await storage.transaction((tx) => tx.coupons.lockForUpdate(projectId, row.id))).toEqual(updated)

      await storage.coupons.insert(couponRow(projectId, ann.id, 'TAKEN', day(2)))
      await expect(storage.coupons.insert(couponRow(projectId, ann.id, 'taken', day(3)))).rejects.toMatchObject({ name: 'UniqueViolation', constraint: 'coupon_code' })
      await expect(storage.coupons.update(projectId, row.id, { code: 'Taken' })).rejects.toMatchObject({ name: 'UniqueViolation', constraint: 'coupon_code' })
      expect(await storage.coupons.get(projectId, row.id)).toEqual(updated)

      expect(await storage.coupons.delete(projectId, row.id)).toBe(true)
      expect(await storage.coupons.delete(projectId, row.id)).toBe(false)
      expect(await storage.coupons.get(projectId, row.id)).toBeNull()
      expect(await storage.coupons.update(projectId, row.id, { status: 'active' })).toBeNull()
      expect(await storage.transaction((tx) => tx.coupons.lockForUpdate(projectId, row.id))).toBeNull()
    })

    it('updates with expected filters only while the row still matches them (compare-and-set)', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const ann = await storage.affiliates.insert(affiliateRow(projectId, 'ann@example.com'))
      const row = await storage.coupons.insert(couponRow(projectId, ann.id, 'ONCE', day(1)))
      const racing = await Promise.all(
        ['a', 'b'].map((value) => storage.coupons.update(projectId, row.id, { status: 'inactive', discountValue: value }, { status: 'active' })),
      )
      expect(racing.filter((won) => won !== null)).toHaveLength(1)
      expect(await storage.coupons.update(projectId, row.id, { code: 'TWICE' }, { status: 'active' })).toBeNull()
      expect((await storage.coupons.get(projectId, row.id))!.code).toBe('ONCE')

      const { record } = await program.keys.create({ name: 'ci' })
      expect(await storage.apiKeys.update(projectId, record.id, { revokedAt: day(5) }, { unrevoked: true })).toMatchObject({ id: record.id, revokedAt: day(5) })
      expect(await storage.apiKeys.update(projectId, record.id, { revokedAt: day(6) }, { unrevoked: true })).toBeNull()
      expect(await storage.apiKeys.all(projectId, { unrevoked: false })).toMatchObject([{ id: record.id, revokedAt: day(5) }])
    })

    it('updates every row matching the filters in one step', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const ann = await storage.affiliates.insert(affiliateRow(projectId, 'ann@example.com'))
      const bob = await storage.affiliates.insert(affiliateRow(projectId, 'bob@example.com'))
      const [a1, a2] = [await storage.coupons.insert(couponRow(projectId, ann.id, 'A1', day(1))), await storage.coupons.insert(couponRow(projectId, ann.id, 'A2', day(2)))]
      await storage.coupons.insert(couponRow(projectId, ann.id, 'A3', day(3), { status: 'inactive' }))
      const b1 = await storage.coupons.insert(couponRow(projectId, bob.id, 'B1', day(4)))
      const changed = await storage.coupons.updateAll(projectId, { affiliateId: ann.id, status: 'active' }, { status: 'inactive', discountValue: '5' })
      expect(changed.sort((x, y) => x.id - y.id)).toEqual([{ ...a1, status: 'inactive', discountValue: '5' }, { ...a2, status: 'inactive', discountValue: '5' }])
      expect(await storage.coupons.updateAll(projectId, { affiliateId: ann.id, status: 'active' }, { status: 'inactive' })).toEqual([])
      expect(await storage.coupons.get(projectId, b1.id)).toEqual(b1)
    })

    it('keeps every row in its project: no operation reads, changes or locks another project’s', async () => {
      const { program, storage } = await context.program()
      const { program: other } = await context.program()
      const [mine, theirs] = [program.projectId, other.projectId]
      const ann = await storage.affiliates.insert(affiliateRow(mine, 'ann@example.com'))
      const row = await storage.coupons.insert(couponRow(mine, ann.id, 'SHARED', day(1)))

      expect(await storage.coupons.get(theirs, row.id)).toBeNull()
      expect(await storage.coupons.first(theirs, { code: 'SHARED' })).toBeNull()
      expect(await storage.coupons.first(theirs, {})).toBeNull()
      expect(await storage.coupons.all(theirs, { affiliateId: ann.id })).toEqual([])
      expect(await storage.coupons.list(theirs, { limit: 10, offset: 0 })).toEqual({ items: [], total: 0 })
      expect(await storage.affiliates.all(theirs, { ids: [ann.id] })).toEqual([])
      expect(await storage.affiliates.first(theirs, { email: 'ann@example.com' })).toBeNull()
      expect(await storage.transaction((tx) => tx.coupons.lockForUpdate(theirs, row.id))).toBeNull()
      expect(await storage.transaction((tx) => tx.affiliates.lockForUpdate(theirs, ann.id))).toBeNull()
      expect(await storage.coupons.update(theirs, row.id, { status: 'inactive' })).toBeNull()
      expect(await storage.coupons.delete(theirs, row.id)).toBe(false)
      expect(await storage.coupons.updateAll(theirs, {}, { status: 'inactive' })).toEqual([])
      expect(await storage.coupons.get(mine, row.id)).toEqual(row)

      // Unique keys are per project: the same code and email are free in the other one.
      const bob = await storage.affiliates.insert(affiliateRow(theirs, 'ann@example.com'))
      const same = await storage.coupons.insert(couponRow(theirs, bob.id, 'shared', day(2)))
      expect(await storage.coupons.first(theirs, { code: 'SHARED' })).toEqual(same)
      expect(await storage.coupons.first(mine, { code: 'shared' })).toEqual(row)
      expect(await storage.affiliates.first(mine, { email: 'ann@example.com' })).toMatchObject({ id: ann.id })
    })
  })
}
