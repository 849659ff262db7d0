// The statements of the per-day counters: an affiliate's row of a day (dailyUpsert, also part of
// a new conversion's insert, repositories/conversions.ts), many rows at once in key order
// (dailyManyStatement), and the projects' rows, shared by many affiliates (projectShares).
import type { DailyCounts } from '../../../core/ports/tracking-storage.js'
import type { DayFigures } from '../../../core/rules/commission-periods.js'
import { param, returningClause, type CounterWrite } from '../counter-write.js'
import type { SqlStatement } from '../executor.js'
import type { Tables } from '../tables.js'

const DAILY_COLUMNS: ReadonlyArray<readonly [keyof DailyCounts, string]> = [
  ['clicks', 'clicks'],
  ['visitors', 'visitors'],
  ['signups', 'signups'],
  ['purchases', 'purchases'],
  ['customers', 'customers'],
  ['revenue', 'revenue_minor'],
  ['commission', 'commission_minor'],
]

/**
 * A subquery: the affiliate's day figures (what tiers and bonuses sum) for from <= day < to as one
 * text ("2026-11-27 1999 1,..."; null for none), so a statement reading something else carries them in the same round trip.
 */
export function dayFiguresSubquery(t: Tables, affiliate: string, from: string, to: string): string {
  return `(SELECT string_agg(to_char(day, 'YYYY-MM-DD') || ' ' || revenue_minor || ' ' || customers, ',' ORDER BY day)
     FROM ${t.daily} WHERE project_id = $1 AND affiliate_id = ${affiliate} AND day >= ${from}::date AND day < ${to}::date)`
}

/** The figures dayFiguresSubquery selected. */
export function readDayFigures(value: unknown): DayFigures[] {
  if (value === null || value === undefined) return []
  return String(value)
    .split(',')
    .map((row) => {
      const [day, revenue, customers] = row.split(' ') as [string, string, string]
      return { day, revenue: BigInt(revenue), customers: Number(customers) }
    })
}

/**
 * The project-wide counters of a day are split over rows with affiliate ids -1..-16 (real ids
 * start at 1), each affiliate adding to one of them: concurrent creates for different affiliates
 * would otherwise all wait for one row's lock until their commits. Reads sum them with row 0,
 * where counts written before the split stay. They are shared by many affiliates, so a transaction
 * writes them last, just before COMMIT (projectDays in transaction-state.ts): no write waits on
 * another's affiliate while holding one of them (the lock order, core/ports/row-locks.ts).
 */
const PROJECT_SHARDS = 16
export const PROJECT_ROWS = Array.from({ length: PROJECT_SHARDS + 1 }, (_, index) => -index)
const projectRow = (affiliateId: number) => -1 - (affiliateId % PROJECT_SHARDS)

/** A delta to one affiliate's counters of a day. */
export interface DayDelta {
  projectId: string
  affiliateId: number
  day: string
  delta: Partial<DailyCounts>
}

/** The columns delta adds something to. */
const changedColumns = (delta: Partial<DailyCounts>) => DAILY_COLUMNS.filter(([field]) => delta[field] !== undefined && delta[field] !== 0 && delta[field] !== 0n)

/** The same deltas added to their projects' rows of the day (PROJECT_ROWS) instead of the affiliates'. */
export const projectShares = (entries: readonly DayDelta[]): DayDelta[] => entries.map((entry) => ({ ...entry, affiliateId: projectRow(entry.affiliateId) }))

/**
 * The upsert adding delta to the affiliate's counters of the day when `guard` holds; null when
 * delta changes nothing. Its project's share is the caller's to write, last (projectShares).
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
  const changed = changedColumns(delta)
  if (changed.length === 0) return null
  const columns = changed.map(([, column]) => column)
  const values = changed.map(([field]) => `${param(params, String(delta[field]))}::numeric`)
  const [project, dayParam, affiliate] = [projectId, day, affiliateId].map((value) => param(params, value))
  return {
    shape: `daily ${values[0]} ${columns.join(',')} ${guard}`,
    text: (returning) => `INSERT INTO ${table} (project_id, affiliate_id, day, ${columns.join(', ')})
    SELECT ${project}, ${affiliate}::bigint, ${dayParam}::date, ${values.join(', ')} WHERE ${guard}
    ON CONFLICT (project_id, affiliate_id, day) DO UPDATE SET ${columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')}${returningClause(returning)}`,
  }
}

/**
 * The upsert adding many deltas in one statement, or null when they change nothing: summed per
 * row first (a row may appear once in an upsert), the rows written in key order, so concurrent
 * writers queue rather than deadlock.
 */
export function dailyManyStatement(table: string, entries: readonly DayDelta[]): SqlStatement | null {
  const sums = new Map<string, { projectId: string; affiliateId: number; day: string; values: bigint[] }>()
  for (const { projectId, affiliateId, day, delta } of entries) {
    if (changedColumns(delta).length === 0) continue
    const key = `${projectId}|${affiliateId}|${day}`
    let sum = sums.get(key)
    if (!sum) sums.set(key, (sum = { projectId, affiliateId, day, values: DAILY_COLUMNS.map(() => 0n) }))
    DAILY_COLUMNS.forEach(([field], index) => (sum.values[index]! += BigInt(delta[field] ?? 0)))
  }
  if (sums.size === 0) return null
  const rows = [...sums.values()].sort((a, b) => (a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : a.affiliateId - b.affiliateId || a.day.localeCompare(b.day)))
  const columns = DAILY_COLUMNS.map(([, column]) => column)
  return {
    text: `INSERT INTO ${table} (project_id, affiliate_id, day, ${columns.join(', ')})
     SELECT d.* FROM unnest($1::text[], $2::bigint[], $3::date[], ${columns.map((_, index) => `$${index + 4}::numeric[]`).join(', ')}) AS d
     ON CONFLICT (project_id, affiliate_id, day) DO UPDATE SET ${columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')}`,
    params: [rows.map((row) => row.projectId), rows.map((row) => row.affiliateId), rows.map((row) => row.day), ...columns.map((_, index) => rows.map((row) => String(row.values[index])))],
  }
}

