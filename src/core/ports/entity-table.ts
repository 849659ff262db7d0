// The generic table contract: the plain operations every stored entity of a project shares (get
// by id, the first row or every row matching declared filters, a page of them, insert, update,
// delete, and a read that locks the row). Each adapter implements it once for every entity, from
// the entity's fields (entities.ts) and its declared filters (entity-filters.ts): memory in
// adapters/memory/entity-table.ts, SQL in adapters/sql/entity-table.ts. The ports keep named
// methods only for statements of their own (counted inserts, claims, ledger sums).
import type { Page } from '../model/types.js'
import type { UniqueConstraint } from './unique-violation.js'

/** A new row without its id. */
export type Insert<T extends { id: unknown }> = Omit<T, 'id'>
export type Patch<T> = Partial<Omit<T, 'id' | 'projectId' | 'createdAt'>>

export interface ListWindow {
  limit: number
  offset: number
}

/**
 * How a declared filter compares its field with the value given: `caseless` compares text in any
 * case, `oneOf` takes a list, `differs` excludes a value, `isNull` takes true (the field is null)
 * or false, `atLeast` / `atMost` / `above` / `below` bound a date from one side.
 */
export type Comparison = 'equals' | 'caseless' | 'oneOf' | 'differs' | 'isNull' | 'atLeast' | 'atMost' | 'above' | 'below'

export interface FilterRule<T> {
  readonly field: keyof T & string
  readonly comparison: Comparison
  /** The unique rule the filter alone looks up (an adapter may answer it from its unique index). */
  readonly unique?: UniqueConstraint
}

/** An entity's declared filters: each filter's name, the field it reads and how it compares. */
export type FilterRules<T, F> = { readonly [K in keyof F]-?: FilterRule<T> }

/** The entity's declared filters and the order of `all` (ascending id unless declared). */
export interface TableRules<T, F> {
  readonly filters: FilterRules<T, F>
  /** A date field: oldest first (that field, then id). */
  readonly order?: 'id' | 'createdAt' | 'occurredAt'
}

/**
 * A stored entity's plain operations, scoped by project: a row of another project is absent.
 * Filters left undefined do not filter. `P` is what an update may change.
 */
export interface EntityTable<T extends { id: number; projectId: string }, F = Record<never, never>, P = Patch<T>> {
  insert(row: Insert<T>): Promise<T>
  get(projectId: string, id: number): Promise<T | null>
  /** A row matching the filters (the one, when they name a unique key), or null. */
  first(projectId: string, filter: F): Promise<T | null>
  /** Every row matching the filters, by ascending id (or the entity's declared order). */
  all(projectId: string, filter: F): Promise<T[]>
  /** The matching rows newest first (createdAt desc, id desc), windowed, with how many match. */
  list(projectId: string, filter: F & ListWindow): Promise<Page<T>>
  /**
   * Applies the defined fields of the patch; with `expected`, only while the row also matches
   * those filters, in one step (compare-and-set: of two racing writers, one wins). The row as
   * updated, or null when it is absent or does not match.
   */
  update(projectId: string, id: number, patch: P, expected?: F): Promise<T | null>
  /** Applies the defined fields of the patch to every row matching the filters, in one step: the rows as updated, in any order. */
  updateAll(projectId: string, filter: F, patch: P): Promise<T[]>
  delete(projectId: string, id: number): Promise<boolean>
  /**
   * Reads the row and holds it against concurrent writers until the transaction ends; readers and
   * inserts that only refer to it do not wait (docs/architecture.md "Lock order").
   */
  lockForUpdate(projectId: string, id: number): Promise<T | null>
}

/** The rule builders of one entity's filters: `rules.equals('affiliateId')` names a field of T. */
export function filterRulesOf<T>() {
  const rule =
    (comparison: Comparison) =>
    (field: keyof T & string, unique?: UniqueConstraint): FilterRule<T> =>
      unique ? { field, comparison, unique } : { field, comparison }
  return {
    equals: rule('equals'),
    caseless: rule('caseless'),
    oneOf: rule('oneOf'),
    differs: rule('differs'),
    isNull: rule('isNull'),
    atLeast: rule('atLeast'),
    atMost: rule('atMost'),
    above: rule('above'),
    below: rule('below'),
  }
}
