// A transaction's last statement and its COMMIT in one round trip: the values are written into the
// text as literals and both statements go as one simple-protocol query (which cannot carry
// parameters). Only values with a plainly safe literal are written so; for anything else the
// caller sends the statement with parameters and COMMIT after it.
//
// Why the literals are safe: a string becomes '…' with each quote doubled, and strings holding a
// backslash or NUL are refused. Without backslashes the literal reads the same whatever
// standard_conforming_strings is, and the quote byte (0x27) is never part of a multibyte
// character in any client encoding PostgreSQL accepts, so nothing can end the literal early.
// Numbers, bigints and dates are written from their own digits.

/** `text;COMMIT` with every `$n::type` replaced by its value's literal, or null when that is not plainly safe. */
export function withCommit(text: string, params: readonly unknown[]): string | null {
  const literals: string[] = []
  for (const value of params) {
    const literal = toLiteral(value)
    if (literal === null) return null
    literals.push(literal)
  }
  // Every `$` of the text must be a cast parameter: the cast keeps each literal's type as the
  // parameter's, and a `$` anywhere else (a dollar quote, an odd schema name) is left to the safe path.
  let replaced = 0
  let missing = false
  const inlined = text.replace(/\$(\d+)::/g, (_match, index: string) => {
    replaced += 1
    const literal = literals[Number(index) - 1]
    if (literal === undefined) missing = true
    return `${literal}::`
  })
  if (missing || replaced !== text.split('$').length - 1) return null
  return `${inlined};\nCOMMIT`
}

function toLiteral(value: unknown): string | null {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'string') return value.includes('\\') || value.includes('\0') ? null : `'${value.replaceAll("'", "''")}'`
  if (typeof value === 'number') return Number.isSafeInteger(value) ? `'${value}'` : null
  if (typeof value === 'bigint') return `'${value}'`
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : `'${value.toISOString()}'`
  if (Array.isArray(value)) {
    const items: string[] = []
    for (const item of value) {
      const literal = toLiteral(item)
      if (literal === null) return null
      items.push(literal)
    }
    return `ARRAY[${items.join(', ')}]`
  }
  return null
}
