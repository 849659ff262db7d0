// A record's wire fields in a shape, as one table: each wire name with where its value comes from
// (a key of the view, or a function of the view) and its valibot schema. The record's schema
// (OpenAPI, typed client, response tests) and its encoder both derive from the table, so adding a
// field to a shape's record is one line there.
import * as v from 'valibot'

/** Where a wire field's value comes from: a key of the view copied as it is, or a function of the view (and the encoder's context). */
export type Source<V, C = undefined> = (keyof V & string) | ((view: V, context: C) => unknown)

/** A wire field: its value's source and its schema. */
export type WireField<V, C = undefined> = readonly [Source<V, C>, v.GenericSchema]

export type WireTable<V, C = undefined> = Record<string, WireField<V, C>>

type Entries<T extends Record<string, readonly [unknown, v.GenericSchema]>> = { -readonly [K in keyof T]: T[K][1] }

/** A table of wire fields read from views of type V (with context C), its schemas' types kept. */
export function wireTable<V, C = undefined>() {
  return <const T extends WireTable<V, C>>(table: T): T => table
}

/** The record's strict object schema, its entries in the table's order. */
export function wireRecord<T extends Record<string, readonly [unknown, v.GenericSchema]>>(table: T): v.StrictObjectSchema<Entries<T>, undefined> {
  const entries: Record<string, v.GenericSchema> = {}
  for (const name of Object.keys(table)) entries[name] = table[name]![1]
  return v.strictObject(entries as Entries<T>)
}

/** The record's encoder: the table compiled once into names and value functions, read in a plain loop per record. */
export function wireEncoder<V, C = undefined>(table: WireTable<V, C>): (view: V, context: C) => Record<string, unknown> {
  const names = Object.keys(table)
  const values = names.map((name): ((view: V, context: C) => unknown) => {
    const source = table[name]![0]
    return typeof source === 'function' ? source : (view) => view[source]
  })
  const count = names.length
  return (view, context) => {
    const record: Record<string, unknown> = {}
    for (let index = 0; index < count; index++) record[names[index]!] = values[index]!(view, context)
    return record
  }
}
