// Named prepared statements for PGlite inside a transaction: parsed and planned once per
// database, then each run is one bind/describe/execute/sync round into the engine instead of
// five, with no re-parsing. PGlite's own query() prepares every statement afresh.
import { parse, protocol, type PGlite } from '@electric-sql/pglite'
import { createHash } from 'node:crypto'
import type { SqlRow } from '../sql/executor.js'

const { serialize } = protocol
const prepared = new WeakMap<PGlite, Map<string, { name: string; types: number[] }>>()

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/** Runs text with params as a named prepared statement; call only while holding the database (in a transaction). */
export async function preparedQuery(db: PGlite, text: string, params: readonly unknown[]): Promise<SqlRow[]> {
  let statements = prepared.get(db)
  if (!statements) prepared.set(db, (statements = new Map()))
  let statement = statements.get(text)
  if (!statement) {
    const name = `affiliate_kit_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`
    const { messages } = await db.execProtocol(
      concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    )
    statement = { name, types: parse.parseDescribeStatementResults(messages) }
    statements.set(text, statement)
  }
  const types = statement.types
  const values = params.map((value, index) => {
    if (value === null || value === undefined) return null
    const serializer = db.serializers[types[index]!]
    return serializer ? serializer(value) : String(value)
  })
  const { messages } = await db.execProtocol(
    concat([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
    { syncToFs: false },
  )
  return (parse.parseResults(messages, db.parsers)[0]?.rows ?? []) as SqlRow[]
}
