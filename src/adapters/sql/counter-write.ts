// A counter write (an affiliate's running totals, a day's counters) as SQL whose parameters are
// appended to a shared list, so one statement can carry it beside another write: a new conversion
// is inserted and counted in one round trip (repositories/conversions.ts). The statements
// themselves are in the repository of the table they write (affiliates.ts, tracking.ts).

/**
 * A counter write whose parameters are already appended: `shape` names what decides its text (the
 * columns written and where its placeholders start), so a caller may keep the text built once per shape.
 */
export interface CounterWrite {
  readonly shape: string
  /** The statement; with `returning`, it answers those columns of the rows it wrote. */
  text(returning?: string): string
}

/** The RETURNING clause of a counter write's text, when asked. */
export const returningClause = (returning: string | undefined): string => (returning ? `\n    RETURNING ${returning}` : '')

/** Appends value to params; its placeholder. */
export function param(params: unknown[], value: unknown): string {
  params.push(value)
  return `$${params.length}`
}
