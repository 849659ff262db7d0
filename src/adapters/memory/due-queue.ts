// The memory outbox's claim order: deliveries by the time they become claimable, so a claim
// reads only what it takes instead of every delivery. Two binary heaps: pending rows by
// (nextAttemptAt, id), which is also the claim order, and delivering rows by leaseUntil (a lease
// that expires makes its row claimable again, sorted by its nextAttemptAt). Entries are never
// removed when a row changes: each holds the row object it was made for, and since every change
// stores a new frozen row, an entry whose row is no longer the stored one is dropped when met.
import type { Delivery } from '../../core/model/types.js'

interface Entry {
  /** When the row becomes claimable (ms). */
  at: number
  id: number
  row: Delivery
}

class Heap {
  entries: Entry[] = []
  /** Compaction runs when the heap reaches this size (amortized O(1) per push). */
  private compactAt = 1024

  constructor(private readonly live: (entry: Entry) => boolean) {}

  peek(): Entry | undefined {
    return this.entries[0]
  }

  push(entry: Entry): void {
    const entries = this.entries
    entries.push(entry)
    let index = entries.length - 1
    while (index > 0) {
      const parent = (index - 1) >> 1
      if (!before(entry, entries[parent]!)) break
      entries[index] = entries[parent]!
      index = parent
    }
    entries[index] = entry
    if (entries.length >= this.compactAt) this.compact()
  }

  pop(): Entry | undefined {
    const entries = this.entries
    const top = entries[0]
    const last = entries.pop()
    if (top === undefined || last === undefined || entries.length === 0) return top
    let index = 0
    for (;;) {
      const left = 2 * index + 1
      if (left >= entries.length) break
      const right = left + 1
      const child = right < entries.length && before(entries[right]!, entries[left]!) ? right : left
      if (!before(entries[child]!, last)) break
      entries[index] = entries[child]!
      index = child
    }
    entries[index] = last
    return top
  }

  /** Drops the entries of rows changed since (a lease heap fills with them: every attempt ends a lease). */
  private compact(): void {
    const kept = this.entries.filter(this.live).sort((a, b) => (before(a, b) ? -1 : 1))
    this.entries = kept
    this.compactAt = Math.max(1024, kept.length * 2)
  }
}

const before = (a: Entry, b: Entry) => a.at < b.at || (a.at === b.at && a.id < b.id)

/** The claim order of the SQL adapters: next_attempt_at NULLS FIRST, id. */
const claimKey = (row: Delivery) => row.nextAttemptAt?.getTime() ?? 0

/** Negative when `a`'s row is claimed before `b`'s. */
const claimOrder = (a: Entry, b: Entry) => claimKey(a.row) - claimKey(b.row) || a.id - b.id

export class DueQueue {
  private readonly pending: Heap
  private readonly leased: Heap
  /** True while the entry's row is still the stored one. */
  private readonly live: (entry: Entry) => boolean

  /** `rows`: the deliveries table's rows by id (what is stored now). */
  constructor(rows: ReadonlyMap<number, Delivery>) {
    this.live = (entry) => rows.get(entry.id) === entry.row
    this.pending = new Heap(this.live)
    this.leased = new Heap(this.live)
  }

  /**
   * Notes `row` as stored now. Call it after every store of a delivery row, and when a rollback
   * puts a row back (a note of a row that is not stored, or noted twice, is harmless).
   */
  note(row: Delivery): void {
    if (row.status === 'pending' && row.nextAttemptAt !== null) {
      this.pending.push({ at: row.nextAttemptAt.getTime(), id: row.id, row })
    } else if (row.status === 'delivering' && row.leaseUntil !== null) {
      this.leased.push({ at: row.leaseUntil.getTime(), id: row.id, row })
    }
  }

  /**
   * Removes and returns up to `limit` rows claimable at `now` (pending and due, or delivering
   * with an expired lease), in claim order. The caller stores a changed row for each and notes it.
   */
  take(now: number, limit: number): Delivery[] {
    const live = this.live
    const taken: Delivery[] = []
    if (limit <= 0) return taken
    // Expired leases are few (a process died mid-send): all of them are read, then merged.
    const expired: Entry[] = []
    for (let top = this.leased.peek(); top !== undefined && top.at <= now; top = this.leased.peek()) {
      this.leased.pop()
      if (live(top)) expired.push(top)
    }
    expired.sort(claimOrder)
    let next = 0
    while (taken.length < limit) {
      let top = this.pending.peek()
      while (top !== undefined && top.at <= now && !live(top)) {
        this.pending.pop()
        top = this.pending.peek()
      }
      const due = top !== undefined && top.at <= now ? top : undefined
      const lapsed = expired[next]
      if (!due && !lapsed) break
      let row: Delivery
      if (lapsed && (!due || claimOrder(lapsed, due) < 0)) {
        row = lapsed.row
        next++
      } else {
        this.pending.pop()
        row = due!.row
      }
      // A row noted twice has two live entries, met one after the other.
      if (taken[taken.length - 1] !== row) taken.push(row)
    }
    for (; next < expired.length; next++) this.leased.push(expired[next]!)
    return taken
  }
}
