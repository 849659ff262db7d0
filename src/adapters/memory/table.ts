// An in-memory table: rows by id, unique indexes, group indexes, and an undo log so a
// transaction that throws can put every change back.
import { UniqueViolation, type UniqueConstraint } from '../../core/ports/unique-violation.js'

export type UndoLog = Array<() => void>

/** Sets (or, with undefined, deletes) one entry of a Map, its undo in the log. */
export function setMapEntry<K, V>(map: Map<K, V>, key: K, value: V | undefined, log: UndoLog): void {
  const previous = map.get(key)
  if (value === undefined) map.delete(key)
  else map.set(key, value)
  log.push(() => (previous === undefined ? map.delete(key) : map.set(key, previous)))
}

interface UniqueIndex<T> {
  name: UniqueConstraint
  key: (row: T) => string | null
  map: Map<string, number>
}
type GroupKey = string | number

/** Told of every row the table indexes and unindexes, to keep a structure of its own in step. */
export interface TableWatcher<T> {
  added(row: T): void
  removed(row: T): void
}

interface GroupIndex<T> {
  key: (row: T) => GroupKey | null
  map: Map<GroupKey, Set<number>>
}

export class Table<T extends { id: number }> {
  readonly rows = new Map<number, T>()
  private nextId = 1
  private readonly uniques: UniqueIndex<T>[]
  private readonly groups = new Map<string, GroupIndex<T>>()

  /**
   * Stored rows are frozen and handed out as they are (no copy per read); a change always
   * stores a new row. `freeze` may also freeze nested objects the row owns.
   */
  constructor(
    uniques: Array<{ name: UniqueConstraint; key: (row: T) => string | null }> = [],
    groups: Record<string, (row: T) => GroupKey | null> = {},
    private readonly freeze: (row: T) => T = Object.freeze,
    private readonly watchers: readonly TableWatcher<T>[] = [],
  ) {
    this.uniques = uniques.map((index) => ({ ...index, map: new Map() }))
    for (const [name, key] of Object.entries(groups)) this.groups.set(name, { key, map: new Map() })
  }

  get(id: number): T | undefined {
    return this.rows.get(id)
  }

  findUnique(name: UniqueConstraint, key: string): T | undefined {
    const index = this.uniques.find((candidate) => candidate.name === name)
    const id = index?.map.get(key)
    return id === undefined ? undefined : this.rows.get(id)
  }

  hasGroup(name: string): boolean {
    return this.groups.has(name)
  }

  /** How many rows a group holds, without reading them. */
  groupSize(name: string, key: GroupKey): number {
    return this.groups.get(name)?.map.get(key)?.size ?? 0
  }

  group(name: string, key: GroupKey): T[] {
    const ids = this.groups.get(name)?.map.get(key)
    if (!ids) return []
    const rows: T[] = []
    for (const id of ids) rows.push(this.rows.get(id)!)
    return rows
  }

  /**
   * Stores `values` itself as the new row: it gets its id and is frozen. Copying it with an added
   * id would cost more than the rest of an insert; the objects the core inserts are built for
   * the insert and read back only through the returned row.
   */
  insert(values: Omit<T, 'id'>, log: UndoLog): T {
    this.checkUnique(values, this.nextId)
    const row = values as T
    row.id = this.nextId
    this.freeze(row)
    this.nextId += 1
    this.write(row, undefined, log)
    return row
  }

  /**
   * insert, except that a row already holding the new row's key of the unique index `name` is
   * answered instead of a violation (an idempotent insert). Each unique key is computed and looked
   * up once: this runs on every conversion, against an index of every reference.
   */
  insertOrFind(values: Omit<T, 'id'>, name: UniqueConstraint, log: UndoLog): { inserted: true; row: T } | { inserted: false; existing: T } {
    const keys: Array<string | null> = []
    for (const index of this.uniques) {
      const key = index.key(values as T)
      const owner = key === null ? undefined : index.map.get(key)
      if (owner !== undefined) {
        if (index.name === name) return { inserted: false, existing: this.rows.get(owner)! }
        throw new UniqueViolation(index.name)
      }
      keys.push(key)
    }
    const row = values as T
    row.id = this.nextId
    this.freeze(row)
    this.nextId += 1
    this.rows.set(row.id, row)
    this.index(row, keys)
    log.push(() => {
      this.unindex(row)
      this.rows.delete(row.id)
    })
    return { inserted: true, row }
  }

  /** Replaces the row with the same id. */
  replace(row: T, log: UndoLog): T {
    this.freeze(row)
    const previous = this.rows.get(row.id)
    this.checkUnique(row, row.id)
    this.write(row, previous, log)
    return row
  }

  /** Replaces a row whose indexed fields are unchanged: no index work. */
  replaceUnindexed(row: T, log: UndoLog): T {
    this.freeze(row)
    const previous = this.rows.get(row.id)!
    this.rows.set(row.id, row)
    log.push(() => this.rows.set(row.id, previous))
    return row
  }

  remove(id: number, log: UndoLog): boolean {
    const previous = this.rows.get(id)
    if (!previous) return false
    this.unindex(previous)
    this.rows.delete(id)
    log.push(() => {
      this.rows.set(id, previous)
      this.index(previous)
    })
    return true
  }

  private write(row: T, previous: T | undefined, log: UndoLog): void {
    if (previous) this.unindex(previous)
    this.rows.set(row.id, row)
    this.index(row)
    log.push(() => {
      this.unindex(row)
      if (previous) {
        this.rows.set(row.id, previous)
        this.index(previous)
      } else {
        this.rows.delete(row.id)
      }
    })
  }

  /** Throws when another row than `id` holds one of the row's unique keys. */
  private checkUnique(row: Omit<T, 'id'>, id: number): void {
    for (const index of this.uniques) {
      const key = index.key(row as T)
      if (key === null) continue
      const owner = index.map.get(key)
      if (owner !== undefined && owner !== id) throw new UniqueViolation(index.name)
    }
  }

  /** `uniqueKeys`: the row's keys of the unique indexes, in their order, when already computed. */
  private index(row: T, uniqueKeys?: ReadonlyArray<string | null>): void {
    for (let position = 0; position < this.uniques.length; position += 1) {
      const index = this.uniques[position]!
      const key = uniqueKeys ? uniqueKeys[position]! : index.key(row)
      if (key !== null) index.map.set(key, row.id)
    }
    for (const group of this.groups.values()) {
      const key = group.key(row)
      if (key === null) continue
      let ids = group.map.get(key)
      if (!ids) group.map.set(key, (ids = new Set()))
      ids.add(row.id)
    }
    for (const watcher of this.watchers) watcher.added(row)
  }

  private unindex(row: T): void {
    for (const index of this.uniques) {
      const key = index.key(row)
      if (key !== null && index.map.get(key) === row.id) index.map.delete(key)
    }
    for (const group of this.groups.values()) {
      const key = group.key(row)
      if (key !== null) group.map.get(key)?.delete(row.id)
    }
    for (const watcher of this.watchers) watcher.removed(row)
  }
}

/** Newest first (createdAt desc, id desc), then the window. */
export function newestFirstPage<T extends { id: number; createdAt: Date }>(
  rows: Iterable<T>,
  keep: (row: T) => boolean,
  window: { limit: number; offset: number },
): { items: T[]; total: number } {
  const matching: T[] = []
  for (const row of rows) if (keep(row)) matching.push(row)
  matching.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
  return { items: matching.slice(window.offset, window.offset + window.limit), total: matching.length }
}
