// The held balance of each affiliate (unpaid earning conversions whose hold has not ended) read
// in constant time, whatever the affiliate's history: the rows of each affiliate are kept in
// order of their hold's end, and a cursor remembers how far the last read's "now" released them,
// so a read moves the cursor only past the holds that ended since.
import type { Conversion } from '../../core/model/types.js'
import type { TableWatcher } from './table.js'

interface Entry {
  holdUntil: number
  id: number
  value: bigint
  removed: boolean
}

/** One affiliate's held rows, ordered by (holdUntil, id); removed ones are skipped until compacted. */
class HeldRows {
  entries: Entry[] = []
  total = 0n
  /** entries[0 .. cursor) ended their hold by `releasedAt`; `released` is their sum. */
  cursor = 0
  released = 0n
  releasedAt = -Infinity
  removedCount = 0

  add(row: Conversion): void {
    const entry: Entry = { holdUntil: row.holdUntil.getTime(), id: row.id, value: row.value, removed: false }
    const at = this.position(entry.holdUntil, entry.id)
    if (at === this.entries.length) this.entries.push(entry)
    else this.entries.splice(at, 0, entry)
    this.total += entry.value
    if (at < this.cursor) {
      this.cursor += 1
      this.released += entry.value
    }
  }

  remove(row: Conversion): void {
    const at = this.position(row.holdUntil.getTime(), row.id)
    const entry = this.entries[at]
    if (!entry || entry.id !== row.id || entry.removed) return
    entry.removed = true
    this.removedCount += 1
    this.total -= entry.value
    if (at < this.cursor) this.released -= entry.value
    if (this.removedCount > 64 && this.removedCount * 2 > this.entries.length) this.compact()
  }

  /** The sum and the earliest end of the holds still running at `now`. */
  heldAt(now: number): { amount: bigint; nextReleaseAt: Date | null } {
    if (now < this.releasedAt) {
      this.cursor = 0
      this.released = 0n
    }
    this.releasedAt = now
    const { entries } = this
    while (this.cursor < entries.length && entries[this.cursor]!.holdUntil <= now) {
      const entry = entries[this.cursor]!
      if (!entry.removed) this.released += entry.value
      this.cursor += 1
    }
    let next = this.cursor
    while (next < entries.length && entries[next]!.removed) next += 1
    return { amount: this.total - this.released, nextReleaseAt: next < entries.length ? new Date(entries[next]!.holdUntil) : null }
  }

  /** The first index whose (holdUntil, id) is not below the given one (binary search). */
  private position(holdUntil: number, id: number): number {
    let low = 0
    let high = this.entries.length
    while (low < high) {
      const middle = (low + high) >>> 1
      const entry = this.entries[middle]!
      if (entry.holdUntil < holdUntil || (entry.holdUntil === holdUntil && entry.id < id)) low = middle + 1
      else high = middle
    }
    return low
  }

  private compact(): void {
    let cursor = 0
    const kept: Entry[] = []
    this.entries.forEach((entry, index) => {
      if (entry.removed) return
      if (index < this.cursor) cursor += 1
      kept.push(entry)
    })
    this.entries = kept
    this.cursor = cursor
    this.removedCount = 0
  }
}

/** Held rows per project and affiliate: a watcher of the conversions table. */
export class HeldBalances implements TableWatcher<Conversion> {
  private readonly byAffiliate = new Map<string, HeldRows>()

  private static counts(row: Conversion): boolean {
    return row.status === 'active' && !row.paid && row.holdUntil.getTime() > row.createdAt.getTime()
  }

  added(row: Conversion): void {
    if (!HeldBalances.counts(row)) return
    const key = `${row.projectId}|${row.affiliateId}`
    let rows = this.byAffiliate.get(key)
    if (!rows) this.byAffiliate.set(key, (rows = new HeldRows()))
    rows.add(row)
  }

  removed(row: Conversion): void {
    if (HeldBalances.counts(row)) this.byAffiliate.get(`${row.projectId}|${row.affiliateId}`)?.remove(row)
  }

  heldAt(projectId: string, affiliateId: number, now: Date): { amount: bigint; nextReleaseAt: Date | null } {
    return this.byAffiliate.get(`${projectId}|${affiliateId}`)?.heldAt(now.getTime()) ?? { amount: 0n, nextReleaseAt: null }
  }
}
