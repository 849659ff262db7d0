// How an entity is defined once: each field with its kind and whether the entity's view shows it
// as stored. Record types and view types derive from these definitions (src/core/model/entities.ts);
// storage adapters map them to their own names (the SQL columns: src/adapters/sql/tables.ts).

/** What a field's value is: how views treat it and how storage keeps and reads it back. */
export type FieldKind = 'text' | 'id' | 'int' | 'float' | 'money' | 'bool' | 'date' | 'json'

export interface Field<T = unknown, Shown extends boolean = boolean> {
  readonly kind: FieldKind
  /** Whether the view copies the value as stored; false where it is internal, renamed or derived. */
  readonly shown: Shown
  /** Whether it may hold null: a new record built with withNulls may leave it out. */
  readonly nullable?: true
  /** Carries the value type; never set. */
  readonly valueType?: T
}

export type Fields = Record<string, Field>

const field = <T>(kind: FieldKind): Field<T, true> => ({ kind, shown: true })

export const text = <T extends string = string>() => field<T>('text')
export const id = () => field<number>('id')
export const int = <T extends number = number>() => field<T>('int')
export const float = () => field<number>('float')
/** Exact minor units; views format them with the amount's currency, never copy them. */
export const money = () => field<bigint>('money')
export const bool = () => field<boolean>('bool')
export const date = () => field<Date>('date')
export const json = <T>() => field<T>('json')

/** The field may hold null. */
export const nullable = <T, S extends boolean>(f: Field<T, S>): Field<T | null, S> => ({ ...f, nullable: true }) as Field<T | null, S>
/** The view does not copy the field as stored (internal, renamed or derived there). */
export const notShown = <T>(f: Field<T, boolean>): Field<T, false> => ({ ...f, shown: false })

type ValueOf<F> = F extends Field<infer T, boolean> ? T : never

/** The record an entity's fields describe. */
export type RecordOf<F extends Fields> = { -readonly [K in keyof F]: ValueOf<F[K]> }

/** The fields a view copies as stored: shown, and not money (money is formatted). */
export type ShownRecord<F extends Fields> = {
  -readonly [K in keyof F as F[K] extends Field<infer T, true> ? (bigint extends NonNullable<T> ? never : K) : never]: ValueOf<F[K]>
}

/** The names of the fields a view copies as stored (shown, not money), in their order: computed once per entity. */
export function shownKeys<F extends Fields>(fields: F): ReadonlyArray<keyof ShownRecord<F> & string> {
  return Object.keys(fields).filter((name) => fields[name]!.shown && fields[name]!.kind !== 'money') as Array<keyof ShownRecord<F> & string>
}

type NullableKeys<R> = { [K in keyof R]-?: null extends R[K] ? K : never }[keyof R]

/** A record whose nullable fields may be left out (they are null). */
export type WithoutNulls<R> = Omit<R, NullableKeys<R>> & { [K in NullableKeys<R>]?: R[K] }

/**
 * Builds new records of an entity whose nullable fields left out are null: code that writes a
 * whole record names only what it sets, and a nullable field added to the entity needs no change
 * there. The nullable fields are listed once per entity.
 */
export function withNulls<F extends Fields>(fields: F) {
  const nullableKeys = Object.keys(fields).filter((name) => fields[name]!.nullable)
  return <R extends Partial<RecordOf<F>>>(record: WithoutNulls<R>): R => {
    const whole = record as Record<string, unknown>
    for (const key of nullableKeys) if (whole[key] === undefined) whole[key] = null
    return whole as R
  }
}
