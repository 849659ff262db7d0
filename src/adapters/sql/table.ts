// SqlTable: one entity's table (its qualified name and columns, from tables.ts) with the generic
// statements every entity's table shares: insert, get by id, find one, patch, delete, and a page
// newest first. Statements particular to an entity are in its repository file.
import { decodeRow, encode, run, type Columns } from './codec.js'
import type { FieldKind } from '../../core/model/entity.js'
import type { SqlClient, SqlRow } from './executor.js'

const cast = (kind: FieldKind, index: number) => (kind === 'json' ? `$${index}::jsonb` : `$${index}`)

/** [condition with `?` for its placeholder, value] pairs, as the filters of a statement. */
export type Conditions = ReadonlyArray<readonly [condition: string, value: unknown]>

/** `base` and each condition, their values appended to params. */
function where(base: string, conditions: Conditions, params: unknown[]): string {
  const parts = [base]
  for (const [condition, value] of conditions) {
    params.push(value)
    parts.push(condition.replace('?', `$${params.length}`))
  }
  return parts.join(' AND ')
}

/** An INSERT's text and how to turn a record into its parameters ($1..$n). */
export interface InsertStatement {
  readonly text: string
  readonly params: (record: object) => unknown[]
}

/** The columns and $1..$n placeholders of an insert of every field but `id`, and its parameters. */
export interface InsertColumns {
  /** `project_id, affiliate_id, ...` */
  readonly names: string
  /** `$1, $2, ...` (json cast to jsonb) */
  readonly placeholders: string
  readonly params: (record: object) => unknown[]
}

export class SqlTable<T> {
  private readonly insertStatements = new Map<string, InsertStatement>()
  private insertColumnList: InsertColumns | undefined

  constructor(
    readonly name: string,
    readonly columns: Columns,
    private readonly toRecord: (row: SqlRow) => T = (row) => decodeRow<T>(columns, row),
  ) {}

  read(row: SqlRow): T {
    return this.toRecord(row)
  }

  /** The stored row of a record just inserted whole, from the record and its new id: nothing to read back. */
  inserted(record: object, id: unknown): T {
    const values = record as Record<string, unknown>
    const row: Record<string, unknown> = {}
    for (const field of Object.keys(this.columns)) row[field] = field === 'id' ? Number(id) : (values[field] ?? null)
    return row as T
  }

  /** Every column but `id` (the identity gives it), built once for the table's life. */
  insertColumns(): InsertColumns {
    if (this.insertColumnList) return this.insertColumnList
    const fields = Object.entries(this.columns).filter(([field]) => field !== 'id')
    this.insertColumnList = {
      names: fields.map(([, field]) => field.column).join(', '),
      placeholders: fields.map(([, field], index) => cast(field.kind, index + 1)).join(', '),
      params: (record) => fields.map(([name, field]) => encode(field.kind, (record as Record<string, unknown>)[name])),
    }
    return this.insertColumnList
  }

  async insert(db: SqlClient, record: object, extra: Columns = {}): Promise<T> {
    const values = record as Record<string, unknown>
    const names: string[] = []
    const placeholders: string[] = []
    const params: unknown[] = []
    for (const [field, { column, kind }] of Object.entries({ ...this.columns, ...extra })) {
      if (field === 'id' && values.id === undefined) continue
      params.push(encode(kind, values[field]))
      names.push(column)
      placeholders.push(cast(kind, params.length))
    }
    const rows = await run(db, `INSERT INTO ${this.name} (${names.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING *`, params)
    return this.read(rows[0]!)
  }

  /**
   * An insert that writes nothing when the ON CONFLICT target `conflict` matches (not an error,
   * so a surrounding transaction stays usable): the new row, or null.
   */
  insertUnlessConflict(conflict: string): (db: SqlClient, record: object) => Promise<T | null> {
    const statement = this.insertUnlessConflictStatement(conflict)
    return async (db, record) => {
      const rows = await run(db, statement.text, statement.params(record))
      return rows[0] ? this.read(rows[0]) : null
    }
  }

  /**
   * The statement of insertUnlessConflict and its parameters ($1..$n), for use inside a larger
   * statement; `returning` 'id' when the caller rebuilds the row with `inserted`.
   */
  insertUnlessConflictStatement(conflict: string, returning: '*' | 'id' = '*'): InsertStatement {
    // Repositories are built per transaction; the table lives as long as the adapter, so the
    // statement is built once per (conflict, returning).
    const key = `${returning} ${conflict}`
    let statement = this.insertStatements.get(key)
    if (statement) return statement
    const { names, placeholders, params } = this.insertColumns()
    statement = {
      text: `INSERT INTO ${this.name} (${names})
        VALUES (${placeholders})
        ON CONFLICT ${conflict} DO NOTHING RETURNING ${returning}`,
      params,
    }
    this.insertStatements.set(key, statement)
    return statement
  }

  /**
   * An INSERT ... SELECT of one record, to run as a CTE of another statement: its parameters are
   * appended to `params` now, and `computed` fields take an expression over `from` instead
   * (`inserted.id`). The text is built when asked: a caller keeping it per shape asks once.
   */
  insertSelect(record: object, params: unknown[], computed: Record<string, string>, from: string): () => string {
    const values = record as Record<string, unknown>
    const fields = Object.entries(this.columns).filter(([field]) => field !== 'id')
    const start = params.length
    for (const [field, { kind }] of fields) if (computed[field] === undefined) params.push(encode(kind, values[field]))
    return () => {
      let placeholder = start
      const selected = fields.map(([field, { kind }]) => computed[field] ?? cast(kind, ++placeholder))
      return `INSERT INTO ${this.name} (${this.insertColumns().names}) SELECT ${selected.join(', ')} FROM ${from}`
    }
  }

  /** Many records in one multi-row statement; `suffix` follows the VALUES (ON CONFLICT, RETURNING). */
  async insertMany(db: SqlClient, records: readonly object[], suffix = ''): Promise<SqlRow[]> {
    if (records.length === 0) return []
    const fields = Object.entries(this.columns).filter(([field]) => field !== 'id')
    const params: unknown[] = []
    const rows = records.map((record) => {
      const values = record as Record<string, unknown>
      return `(${fields.map(([name, { kind }]) => (params.push(encode(kind, values[name])), cast(kind, params.length))).join(', ')})`
    })
    return run(db, `INSERT INTO ${this.name} (${this.insertColumns().names}) VALUES ${rows.join(', ')} ${suffix}`, params)
  }

  /**
   * insertUnlessConflict for many records in one multi-row statement (`conflict` '' for any
   * unique index): the rows inserted, with the `returning` columns, in no promised order.
   */
  insertManyUnlessConflict(db: SqlClient, records: readonly object[], conflict: string, returning: string): Promise<SqlRow[]> {
    return this.insertMany(db, records, `ON CONFLICT ${conflict} DO NOTHING RETURNING ${returning}`)
  }

  async get(db: SqlClient, projectId: string, id: number, suffix = ''): Promise<T | null> {
    const rows = await run(db, `SELECT * FROM ${this.name} WHERE project_id = $1 AND id = $2 ${suffix}`, [projectId, id])
    return rows[0] ? this.read(rows[0]) : null
  }

  async findOne(db: SqlClient, where: string, params: unknown[]): Promise<T | null> {
    const rows = await run(db, `SELECT * FROM ${this.name} WHERE ${where} LIMIT 1`, params)
    return rows[0] ? this.read(rows[0]) : null
  }

  /**
   * Applies the defined fields of patch while the row also meets `guard` ([condition with `?` for
   * its placeholder, value] pairs); null when the row is absent from the project or fails the guard.
   */
  async update(db: SqlClient, projectId: string, id: number, patch: object, guard: Conditions = []): Promise<T | null> {
    const params: unknown[] = [projectId, id]
    const sets = this.sets(patch, params)
    if (sets.length === 0) return this.get(db, projectId, id)
    const rows = await run(db, `UPDATE ${this.name} SET ${sets} WHERE ${where('project_id = $1 AND id = $2', guard, params)} RETURNING *`, params)
    return rows[0] ? this.read(rows[0]) : null
  }

  /** Applies the defined fields of patch to every row of the project meeting `conditions`, in one statement: the rows as updated. */
  async updateAll(db: SqlClient, projectId: string, patch: object, conditions: Conditions): Promise<T[]> {
    const params: unknown[] = [projectId]
    const sets = this.sets(patch, params)
    if (sets.length === 0) return []
    const rows = await run(db, `UPDATE ${this.name} SET ${sets} WHERE ${where('project_id = $1', conditions, params)} RETURNING *`, params)
    return rows.map((row) => this.read(row))
  }

  /** The SET list of patch's defined fields (never id, projectId or createdAt), their values appended to params. */
  private sets(patch: object, params: unknown[]): string {
    const sets: string[] = []
    for (const [field, value] of Object.entries(patch)) {
      const definition = this.columns[field]
      if (!definition || value === undefined || field === 'id' || field === 'projectId' || field === 'createdAt') continue
      params.push(encode(definition.kind, value))
      sets.push(`${definition.column} = ${cast(definition.kind, params.length)}`)
    }
    return sets.join(', ')
  }

  async delete(db: SqlClient, projectId: string, id: number): Promise<boolean> {
    const rows = await run(db, `DELETE FROM ${this.name} WHERE project_id = $1 AND id = $2 RETURNING id`, [projectId, id])
    return rows.length > 0
  }

  /** Newest first (created_at desc, id desc) with the total; `filters` are [column, value] pairs. */
  async page(
    db: SqlClient,
    projectId: string,
    filters: Array<[condition: string, value: unknown]>,
    window: { limit: number; offset: number },
  ): Promise<{ items: T[]; total: number }> {
    const params: unknown[] = [projectId]
    const clause = where('project_id = $1', filters.filter(([, value]) => value !== undefined), params)
    // Bound as bigint parameters: no truncation to 32 bits (the core has validated both as safe integers).
    const windowParams = [...params, window.limit, window.offset]
    // Two statements, not `count(*) OVER ()` beside the page: the window function reads and sorts
    // every matching row before LIMIT; the page alone walks its index for `limit` rows, and the
    // count reads the index only (both still grow with the rows: docs/scaling.md).
    const rows = await run(
      db,
      `SELECT * FROM ${this.name} WHERE ${clause}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1}::bigint OFFSET $${params.length + 2}::bigint`,
      windowParams,
    )
    const counted = await run(db, `SELECT count(*) AS n FROM ${this.name} WHERE ${clause}`, params)
    return { items: rows.map((row) => this.read(row)), total: Number(counted[0]!.n) }
  }
}
