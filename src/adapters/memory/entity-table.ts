// memoryEntityTable: the generic table contract (src/core/ports/entity-table.ts) over one in-memory
// Table, its filters turned into predicates on the rows: every entity's plain operations written
// once. Reads start from the narrowest index a filter names: a unique key, then a group named after
// an equals filter's field (`affiliate` for affiliateId), then the project's group.
import type { Comparison, EntityTable, FilterRule, Patch, TableRules } from '../../core/ports/entity-table.js'
import { found, inProject, patchRow } from './state.js'
import { newestFirstPage, type Table, type UndoLog } from './table.js'

// Dates compare by their time (valueOf), as numbers do.
const matches: Record<Comparison, (stored: unknown, wanted: unknown) => boolean> = {
  equals: (stored, wanted) => stored === wanted,
  caseless: (stored, wanted) => typeof stored === 'string' && stored.toLowerCase() === String(wanted).toLowerCase(),
  oneOf: (stored, wanted) => (wanted as readonly unknown[]).includes(stored),
  differs: (stored, wanted) => stored !== wanted,
  isNull: (stored, wanted) => (stored === null) === wanted,
  atLeast: (stored, wanted) => stored !== null && (stored as number) >= (wanted as number),
  atMost: (stored, wanted) => stored !== null && (stored as number) <= (wanted as number),
  above: (stored, wanted) => stored !== null && (stored as number) > (wanted as number),
  below: (stored, wanted) => stored !== null && (stored as number) < (wanted as number),
}

/** The defined fields only, as SQL sets them: a field given as undefined keeps its value. */
function definedFields(patch: object): Record<string, unknown> {
  const defined: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(patch)) if (value !== undefined) defined[field] = value
  return defined
}

type Row = { id: number; projectId: string }
// Lists and the date orders read them; the attempt tables, which have none, are read only by `all`.
type Dated<T> = T & { createdAt: Date; occurredAt: Date }

export function memoryEntityTable<T extends Row, F, P = Patch<T>>(table: Table<T>, rules: TableRules<T, F>, log: UndoLog): EntityTable<T, F, P> {
  const given = (filter: F): Array<[FilterRule<T>, unknown]> => {
    const pairs: Array<[FilterRule<T>, unknown]> = []
    for (const [name, rule] of Object.entries(rules.filters) as Array<[string, FilterRule<T>]>) {
      const value = (filter as Record<string, unknown>)[name]
      if (value !== undefined) pairs.push([rule, value])
    }
    return pairs
  }
  const candidates = (projectId: string, pairs: Array<[FilterRule<T>, unknown]>): Iterable<T> => {
    const [only] = pairs
    const unique = pairs.length === 1 ? only![0].unique : undefined
    if (unique) {
      const [rule, value] = only!
      const key = rule.comparison === 'caseless' ? String(value).toLowerCase() : String(value)
      const row = table.findUnique(unique, `${projectId}|${key}`)
      return row ? [row] : []
    }
    for (const [{ field, comparison }, wanted] of pairs) {
      if (comparison !== 'equals' || wanted === null) continue
      const group = table.hasGroup(field) ? field : field.endsWith('Id') && table.hasGroup(field.slice(0, -2)) ? field.slice(0, -2) : null
      if (group) return table.group(group, wanted as string | number)
    }
    return table.hasGroup('project') ? table.group('project', projectId) : table.rows.values()
  }
  const keep = (projectId: string, pairs: Array<[FilterRule<T>, unknown]>) => (row: T) =>
    row.projectId === projectId && pairs.every(([rule, value]) => matches[rule.comparison](row[rule.field], value))
  const matching = (projectId: string, filter: F): T[] => {
    const pairs = given(filter)
    const kept = keep(projectId, pairs)
    const rows: T[] = []
    for (const row of candidates(projectId, pairs)) if (kept(row)) rows.push(row)
    return rows
  }
  const dateOrder = rules.order === undefined || rules.order === 'id' ? null : rules.order
  const byOrder =
    dateOrder === null
      ? (a: T, b: T) => a.id - b.id
      : (a: T, b: T) => (a as Dated<T>)[dateOrder].getTime() - (b as Dated<T>)[dateOrder].getTime() || a.id - b.id

  return {
    async insert(row) {
      return table.insert(row, log)
    },
    async get(projectId, id) {
      return found(inProject(table.get(id), projectId))
    },
    async first(projectId, filter) {
      const pairs = given(filter)
      const kept = keep(projectId, pairs)
      for (const row of candidates(projectId, pairs)) if (kept(row)) return row
      return null
    },
    async all(projectId, filter) {
      return matching(projectId, filter).sort(byOrder)
    },
    async list(projectId, filter) {
      const pairs = given(filter)
      return newestFirstPage(candidates(projectId, pairs) as Iterable<Dated<T>>, keep(projectId, pairs), filter)
    },
    async update(projectId, id, patch, expected) {
      if (expected !== undefined) {
        const existing = table.get(id)
        if (!existing || !keep(projectId, given(expected))(existing)) return null
      }
      return patchRow(table, projectId, id, definedFields(patch as object), log)
    },
    async updateAll(projectId, filter, patch) {
      const defined = definedFields(patch as object)
      return matching(projectId, filter).map((row) => patchRow(table, projectId, row.id, defined, log)!)
    },
    async delete(projectId, id) {
      return inProject(table.get(id), projectId) ? table.remove(id, log) : false
    },
    // One transaction at a time: the read is the lock.
    async lockForUpdate(projectId, id) {
      return found(inProject(table.get(id), projectId))
    },
  }
}
