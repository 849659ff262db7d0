// The memory adapter's held balance, kept incrementally (src/adapters/memory/held-balances.ts),
// against the plain definition over every row: random inserts, payments, refunds, rollbacks and
// reads at moving (and once rewound) times.
import { describe, expect, it } from 'vitest'
import { HeldBalances } from '../../../src/adapters/memory/held-balances.js'
import { Table, type UndoLog } from '../../../src/adapters/memory/table.js'
import type { Conversion } from '../../../src/core/model/types.js'

/** A small deterministic generator, so a failure replays. */
function random(seed: number) {
  let state = seed
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state % below
  }
}

const DAY = 86_400_000

function conversion(id: number, affiliateId: number, createdAt: number, holdDays: number, value: bigint): Omit<Conversion, 'id'> {
  return {
    projectId: affiliateId % 2 === 0 ? 'p1' : 'p2',
    affiliateId,
    createdAt: new Date(createdAt),
    holdUntil: new Date(createdAt + holdDays * DAY),
    value,
    status: 'active',
    paid: false,
    reference: `r${id}`,
  } as unknown as Omit<Conversion, 'id'>
}

function plainHeld(rows: Iterable<Conversion>, projectId: string, affiliateId: number, now: number) {
  let amount = 0n
  let next: number | null = null
  for (const row of rows) {
    if (row.projectId !== projectId || row.affiliateId !== affiliateId || row.status !== 'active' || row.paid) continue
    if (row.holdUntil.getTime() <= row.createdAt.getTime() || row.holdUntil.getTime() <= now) continue
    amount += row.value
    if (next === null || row.holdUntil.getTime() < next) next = row.holdUntil.getTime()
  }
  return { amount, nextReleaseAt: next === null ? null : new Date(next) }
}

describe('memory held balances', () => {
  it.each([1, 2, 3])('equal the plain sum over the rows after random changes (seed %i)', (seed) => {
    const next = random(seed)
    const held = new HeldBalances()
    const table = new Table<Conversion>([], {}, Object.freeze, [held])
    let now = Date.UTC(2026, 0, 1)
    for (let step = 0; step < 3000; step += 1) {
      const log: UndoLog = []
      const roll = next(100)
      const ids = [...table.rows.keys()]
      const some = ids.length > 0 ? table.get(ids[next(ids.length)]!)! : null
      if (roll < 50) table.insert(conversion(step, 1 + next(4), now - next(3) * DAY, next(4) * 10, BigInt(1 + next(5000))), log)
      else if (roll < 60 && some) table.replace({ ...some, paid: true }, log)
      else if (roll < 68 && some) table.replace({ ...some, status: 'refunded' } as Conversion, log)
      else if (roll < 72 && some) table.remove(some.id, log)
      else if (roll < 95) now += next(3) * DAY
      else now -= DAY
      // Now and then a transaction throws: its undo log puts every change back.
      if (next(10) === 0) for (const undo of log.reverse()) undo()
      const affiliateId = 1 + next(4)
      const projectId = affiliateId % 2 === 0 ? 'p1' : 'p2'
      expect(held.heldAt(projectId, affiliateId, new Date(now))).toEqual(plainHeld(table.rows.values(), projectId, affiliateId, now))
    }
  })
})
