// PostgreSQL ends one of two transactions that wait on each other's rows (a deadlock); the adapter
// runs that one again, so both callers succeed and each change is applied exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAffiliateProgram } from '../../../src/index.js'
import type { StoragePort } from '../../../src/adapters/storage-port.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'

/** A promise and the function that resolves it. */
function signal() {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

describe.skipIf(!DATABASE_URL)(`postgres: transactions ended by a deadlock run again${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  let storage: StoragePort
  let cleanup: () => Promise<void>
  beforeAll(() => ({ storage, cleanup } = freshPostgresStorage({ max: 4 })))
  afterAll(() => cleanup())

  it('completes two transactions that lock two affiliates in opposite orders, each applied once', async () => {
    const program = await createAffiliateProgram({ storage })
    const first = await program.affiliates.create({ email: 'first@example.com' })
    const second = await program.affiliates.create({ email: 'second@example.com' })
    const projectId = (await storage.projects.getByName('default'))!.id
    const attempts = { forward: 0, backward: 0 }
    const locked = { forward: signal(), backward: signal() }

    // Each takes its first row, waits (first attempt only) until the other holds its own, then
    // wants the other's row: PostgreSQL sees the cycle and ends one of them with 40P01.
    const crossing = (direction: 'forward' | 'backward', [a, b]: number[]) =>
      storage.transaction(async (tx) => {
        attempts[direction] += 1
        await tx.affiliates.adjustTotals(projectId, a!, { signups: 1 })
        if (attempts[direction] === 1) {
          locked[direction].resolve()
          await locked[direction === 'forward' ? 'backward' : 'forward'].promise
        }
        await tx.affiliates.adjustTotals(projectId, b!, { signups: 10 })
      })

    await Promise.all([crossing('forward', [first.id, second.id]), crossing('backward', [second.id, first.id])])

    expect(attempts.forward + attempts.backward).toBe(3)
    expect((await program.affiliates.get(first.id)).signups).toBe(11)
    expect((await program.affiliates.get(second.id)).signups).toBe(11)
  }, 20_000)

  it("answers a replayed reference while another transaction holds the affiliate's lock: a replay does not queue behind writes", async () => {
    const program = await createAffiliateProgram({ storage, project: 'replays' })
    const affiliate = await program.affiliates.create({ email: 'replayed@example.com' })
    const purchase = { type: 'purchase' as const, affiliateId: affiliate.id, baseValue: '20.00', reference: 'ch_replayed' }
    const first = await program.conversions.create(purchase)
    const holding = signal()
    const release = signal()
    const holder = storage.transaction(async (tx) => {
      await tx.affiliates.lockForUpdate(program.projectId, affiliate.id)
      holding.resolve()
      await release.promise
    })
    await holding.promise
    try {
      const replay = await program.conversions.create(purchase)
      expect(replay).toMatchObject({ duplicate: true, conversion: { id: first.conversion.id } })
      // A new reference is decided under the lock: it waits for the holder.
      let created = false
      const fresh = program.conversions.create({ ...purchase, reference: 'ch_new' }).then(() => (created = true))
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(created).toBe(false)
      release.resolve()
      await fresh
    } finally {
      release.resolve()
      await holder
    }
    expect((await program.affiliates.get(affiliate.id)).purchases).toBe(2)
  }, 20_000)
})
