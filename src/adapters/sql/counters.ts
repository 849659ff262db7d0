// The counter writes (an affiliate's running totals, the per-day counters) as SQL whose
// parameters are appended to a shared list, so one statement can carry them beside another
// write (a new conversion is inserted and counted in one round trip).
import { affiliateTotalsFields } from '../../core/entities.js'
import type { DailyCounts } from '../../core/tracking-storage.js'
import type { TotalsDelta } from '../../core/types.js'

/** Appends value to params; its placeholder. */
function param(params: unknown[], value: unknown): string {
  params.push(value)
  return `$${params.length}`
}

/**
 * A counter write whose parameters are already appended: `shape` names what decides its text (the
 * columns written and where its placeholders start), so a caller may keep the text built once per shape.
 */
export interface CounterWrite {
  readonly shape: string
  text(): string
}

/** The UPDATE adding delta to the affiliate's totals when `guard` holds; null when delta changes nothing. */
export function totalsUpdate(table: string, projectId: string, id: number, delta: TotalsDelta, params: unknown[], guard = 'true'): CounterWrite | null {
  const sets: Array<readonly [column: string, placeholder: string]> = []
  for (const [field, value] of Object.entries(delta)) {
    const column = affiliateTotalsFields[field as keyof typeof affiliateTotalsFields]?.column
    if (column && value !== undefined) sets.push([column, param(params, String(value))])
  }
  if (sets.length === 0) return null
  const [project, affiliate] = [projectId, id].map((value) => param(params, value))
  return {
    shape: `totals ${sets[0]![1]} ${sets.map(([column]) => column).join(',')} ${guard}`,
    text: () => `UPDATE ${table} SET ${sets.map(([column, placeholder]) => `${column} = ${column} + ${placeholder}::numeric`).join(', ')}
    WHERE project_id = ${project} AND id = ${affiliate} AND ${guard}`,
  }
}

const DAILY_COLUMNS: ReadonlyArray<readonly [keyof DailyCounts, string]> = [
  ['clicks', 'clicks'],
  ['visitors', 'visitors'],
  ['signups', 'signups'],
  ['purchases', 'purchases'],
  ['revenue', 'revenue_minor'],
  ['commission', 'commission_minor'],
]

/**
 * The project-wide counters of a day are split over rows with affiliate ids -1..-16 (real ids
 * start at 1), each affiliate adding to one of them: concurrent creates for different affiliates
 * would otherwise all wait for one row's lock until their commits. Reads sum them with row 0,
 * where counts written before the split stay.
 */
const PROJECT_SHARDS = 16
export const PROJECT_ROWS = Array.from({ length: PROJECT_SHARDS + 1 }, (_, index) => -index)
const projectRow = (affiliateId: number) => -1 - (affiliateId % PROJECT_SHARDS)

/**
 * The upsert adding delta to the (affiliate, day) counters and to the project's of that day (one
 * of PROJECT_ROWS: program-wide stats read a few rows per day, not one per affiliate) when
 * `guard` holds; null when delta changes nothing.
 */
export function dailyUpsert(
  table: string,
  projectId: string,
  affiliateId: number,
  day: string,
  delta: Partial<DailyCounts>,
  params: unknown[],
  guard = 'true',
): CounterWrite | null {
  const changed = DAILY_COLUMNS.filter(([field]) => delta[field] !== undefined && delta[field] !== 0 && delta[field] !== 0n)
  if (changed.length === 0) return null
  const columns = changed.map(([, column]) => column)
  const values = changed.map(([field]) => `${param(params, String(delta[field]))}::numeric`)
  const [project, dayParam, affiliate, shard] = [projectId, day, affiliateId, projectRow(affiliateId)].map((value) => param(params, value))
  return {
    shape: `daily ${values[0]} ${columns.join(',')} ${guard}`,
    text: () => `INSERT INTO ${table} (project_id, affiliate_id, day, ${columns.join(', ')})
    SELECT ${project}, counted.affiliate_id, ${dayParam}::date, ${values.join(', ')}
    FROM (VALUES (${affiliate}::bigint), (${shard}::bigint)) AS counted (affiliate_id) WHERE ${guard}
    ON CONFLICT (project_id, affiliate_id, day) DO UPDATE SET ${columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')}`,
  }
}
