// snake_case field names in camelCase, for a shape whose records are another shape's with
// camelCase names (deliveries, provider events, audit entries, stats): its schemas and records
// derive from the other's, so a field added there is added here too.

/** `event_id` -> `eventId`, as a type. */
export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S

export type CamelKeys<T> = { [K in keyof T as K extends string ? Camel<K> : K]: T[K] }

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())

/** The same members, their names in camelCase, in the same order (records, or a schema's entries). */
export function camelKeys<T extends object>(record: T): CamelKeys<T> {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [camel(name), value])) as CamelKeys<T>
}
