// sqlEntityTable: the generic table contract (src/core/ports/entity-table.ts) over one SqlTable, its
// filters turned into conditions on the columns tables.ts names: every entity's plain statements
// written once. An entity's repository adds only the statements of its own.
import type { Comparison, EntityTable, FilterRule, Patch, TableRules } from '../../core/ports/entity-table.js'
import { run } from './codec.js'
import type { SqlClient } from './executor.js'
import type { SqlTable } from './table.js'

/**
 * Reads one row of the project, `where` following `project_id = $1 AND` (its parameters from $2):
 * an entity may read more in the same statement (the affiliate's row, what its events need).
 */
export type FindOne<T> = (projectId: string, where: string, params: unknown[]) => Promise<T | null>

const condition: Record<Comparison, (column: string, placeholder: string, arrayType: string) => string> = {
  equals: (column, placeholder) => `${column} = ${placeholder}`,
  caseless: (column, placeholder) => `lower(${column}) = lower(${placeholder})`,
  oneOf: (column, placeholder, arrayType) => `${column} = ANY(${placeholder}::${arrayType}[])`,
  differs: (column, placeholder) => `${column} <> ${placeholder}`,
  isNull: (column, placeholder) => `(${column} IS NULL) = ${placeholder}`,
  atLeast: (column, placeholder) => `${column} >= ${placeholder}`,
  atMost: (column, placeholder) => `${column} <= ${placeholder}`,
  above: (column, placeholder) => `${column} > ${placeholder}`,
  below: (column, placeholder) => `${column} < ${placeholder}`,
}

/** The filter's defined values as [condition with `?` for its placeholder, value] pairs. */
function conditions<T, F>(table: SqlTable<T>, rules: TableRules<T, F>, filter: F): Array<[condition: string, value: unknown]> {
  const pairs: Array<[string, unknown]> = []
  for (const [name, rule] of Object.entries(rules.filters) as Array<[string, FilterRule<T>]>) {
    const value = (filter as Record<string, unknown>)[name]
    if (value === undefined) continue
    const { column, kind } = table.columns[rule.field]!
    pairs.push([condition[rule.comparison](column, '?', kind === 'id' || kind === 'int' ? 'bigint' : 'text'), value])
  }
  return pairs
}

/** The pairs as a WHERE clause after `project_id = $1`, numbering placeholders from $2. */
function clause(pairs: Array<[string, unknown]>): { where: string; params: unknown[] } {
  const params = pairs.map(([, value]) => value)
  const where = pairs.map(([text], index) => text.replace('?', `$${index + 2}`))
  return { where: where.length > 0 ? where.join(' AND ') : 'true', params }
}

export function sqlEntityTable<T extends { id: number; projectId: string }, F, P = Patch<T>>(
  db: SqlClient,
  table: SqlTable<T>,
  rules: TableRules<T, F>,
  findOne?: FindOne<T>,
): EntityTable<T, F, P> {
  const find: FindOne<T> = findOne ?? ((projectId, where, params) => table.findOne(db, `project_id = $1 AND ${where}`, [projectId, ...params]))
  const order = rules.order === undefined || rules.order === 'id' ? 'id' : `${table.columns[rules.order as keyof T & string]!.column}, id`
  return {
    insert: (row) => table.insert(db, row),
    get: findOne ? (projectId, id) => findOne(projectId, 'id = $2', [id]) : (projectId, id) => table.get(db, projectId, id),
    first(projectId, filter) {
      const { where, params } = clause(conditions(table, rules, filter))
      return find(projectId, where, params)
    },
    async all(projectId, filter) {
      const { where, params } = clause(conditions(table, rules, filter))
      const rows = await run(db, `SELECT * FROM ${table.name} WHERE project_id = $1 AND ${where} ORDER BY ${order}`, [projectId, ...params])
      return rows.map((row) => table.read(row))
    },
    list: (projectId, filter) => table.page(db, projectId, conditions(table, rules, filter), filter),
    update: (projectId, id, patch, expected) => table.update(db, projectId, id, patch as object, expected === undefined ? [] : conditions(table, rules, expected)),
    updateAll: (projectId, filter, patch) => table.updateAll(db, projectId, patch as object, conditions(table, rules, filter)),
    delete: (projectId, id) => table.delete(db, projectId, id),
    // NO KEY UPDATE: inserts referring to the row (a click, a coupon) take KEY SHARE and do not wait.
    lockForUpdate: (projectId, id) => table.get(db, projectId, id, 'FOR NO KEY UPDATE'),
  }
}
