// The SQL tracking store: per-day counters (one upsert per event, dailyUpsert: also part of a new
// conversion's insert, repositories/conversions.ts), visitor-day marks decided by their primary
// key, the project's visitor salt and referral times (migration 7).
import type { DailyCounts, TrackingRepository, VisitorSignal } from '../../../core/tracking-storage.js'
import type { DayFigures } from '../../../core/commission-periods.js'
import { run } from '../codec.js'
import { param, returningClause, type CounterWrite } from '../counter-write.js'
import type { SqlClient } from '../executor.js'
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
 * where counts written before the split stay.
 */
const PROJECT_SHARDS = 16
const PROJECT_ROWS = Array.from({ length: PROJECT_SHARDS + 1 }, (_, index) => -index)
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
    text: (returning) => `INSERT INTO ${table} (project_id, affiliate_id, day, ${columns.join(', ')})
    SELECT ${project}, counted.affiliate_id, ${dayParam}::date, ${values.join(', ')}
    FROM (VALUES (${affiliate}::bigint), (${shard}::bigint)) AS counted (affiliate_id) WHERE ${guard}
    ON CONFLICT (project_id, affiliate_id, day) DO UPDATE SET ${columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')}${returningClause(returning)}`,
  }
}

/**
 * dailyUpsert for many (affiliate, day) deltas in one statement: summed per row first (a row may
 * appear once in an upsert), the rows written in key order, so concurrent writers queue rather than deadlock.
 */
export async function addDailyMany(db: SqlClient, table: string, projectId: string, entries: ReadonlyArray<{ affiliateId: number; day: string; delta: Partial<DailyCounts> }>): Promise<void> {
  const sums = new Map<string, { affiliateId: number; day: string; values: bigint[] }>()
  const add = (affiliateId: number, day: string, delta: Partial<DailyCounts>) => {
    const key = `${affiliateId}|${day}`
    let sum = sums.get(key)
    if (!sum) sums.set(key, (sum = { affiliateId, day, values: DAILY_COLUMNS.map(() => 0n) }))
    DAILY_COLUMNS.forEach(([field], index) => (sum.values[index]! += BigInt(delta[field] ?? 0)))
  }
  for (const { affiliateId, day, delta } of entries) {
    if (!DAILY_COLUMNS.some(([field]) => delta[field] !== undefined && delta[field] !== 0 && delta[field] !== 0n)) continue
    add(affiliateId, day, delta)
    add(projectRow(affiliateId), day, delta)
  }
  if (sums.size === 0) return
  const rows = [...sums.values()].sort((a, b) => a.affiliateId - b.affiliateId || a.day.localeCompare(b.day))
  const columns = DAILY_COLUMNS.map(([, column]) => column)
  await run(
    db,
    `INSERT INTO ${table} (project_id, affiliate_id, day, ${columns.join(', ')})
     SELECT $1, d.* FROM unnest($2::bigint[], $3::date[], ${columns.map((_, index) => `$${index + 4}::numeric[]`).join(', ')}) AS d
     ON CONFLICT (project_id, affiliate_id, day) DO UPDATE SET ${columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')}`,
    [projectId, rows.map((row) => row.affiliateId), rows.map((row) => row.day), ...columns.map((_, index) => rows.map((row) => String(row.values[index])))],
  )
}

export function trackingRepository(db: SqlClient, t: Tables): TrackingRepository {
  const { schema, daily } = t
  return {
    async addDaily(projectId, affiliateId, day, delta) {
      const params: unknown[] = []
      const upsert = dailyUpsert(daily, projectId, affiliateId, day, delta, params)
      if (upsert) await run(db, upsert.text(), params)
    },
    async markVisitor(projectId, affiliateId, day, visitor) {
      const rows = await run(
        db,
        `INSERT INTO ${schema}.tracking_visitors (project_id, affiliate_id, day, visitor) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING 1 AS inserted`,
        [projectId, affiliateId, day, visitor],
      )
      return rows.length === 1
    },
    async daily(projectId, { from, to, affiliateId }) {
      // An affiliate has one row a day (the primary key): read as stored, as tiers and bonuses do on
      // every conversion; the project's days are summed over its rows.
      const rows =
        affiliateId === undefined
          ? await run(
              db,
              `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(clicks) AS clicks, sum(visitors) AS visitors, sum(signups) AS signups,
                      sum(purchases) AS purchases, sum(customers) AS customers, sum(revenue_minor) AS revenue, sum(commission_minor) AS commission
               FROM ${daily} WHERE project_id = $1 AND affiliate_id = ANY($4::bigint[]) AND day >= $2::date AND day < $3::date
               GROUP BY day ORDER BY day`,
              [projectId, from, to, PROJECT_ROWS],
            )
          : await run(
              db,
              `SELECT to_char(day, 'YYYY-MM-DD') AS day, clicks, visitors, signups, purchases, customers, revenue_minor AS revenue, commission_minor AS commission
               FROM ${daily} WHERE project_id = $1 AND affiliate_id = $4 AND day >= $2::date AND day < $3::date ORDER BY day`,
              [projectId, from, to, affiliateId],
            )
      return rows.map((row) => ({
        day: String(row.day),
        clicks: Number(row.clicks),
        visitors: Number(row.visitors),
        signups: Number(row.signups),
        purchases: Number(row.purchases),
        customers: Number(row.customers),
        revenue: BigInt(String(row.revenue)),
        commission: BigInt(String(row.commission)),
      }))
    },
    async visitorSalt(projectId, candidate) {
      // The no-op update makes the statement return the standing salt when another process stored one first.
      const rows = await run(
        db,
        `INSERT INTO ${schema}.tracking_salts (project_id, salt) VALUES ($1, $2)
         ON CONFLICT (project_id) DO UPDATE SET salt = ${schema}.tracking_salts.salt RETURNING salt`,
        [projectId, candidate],
      )
      return String(rows[0]!.salt)
    },
    async referredAt(projectId, referralId) {
      const rows = await run(db, `SELECT referred_at FROM ${schema}.referral_times WHERE project_id = $1 AND referral_id = $2`, [projectId, referralId])
      const value = rows[0]?.referred_at
      return value === undefined || value === null ? null : value instanceof Date ? value : new Date(String(value))
    },
    async setReferredAt(projectId, referralId, at) {
      await run(
        db,
        `INSERT INTO ${schema}.referral_times (project_id, referral_id, referred_at) VALUES ($1, $2, $3)
         ON CONFLICT (project_id, referral_id) DO UPDATE SET referred_at = excluded.referred_at`,
        [projectId, referralId, at],
      )
    },
    async markVisitorSignal(projectId, affiliateId, visitor, kind, day) {
      await run(
        db,
        `INSERT INTO ${schema}.visitor_signals (project_id, affiliate_id, visitor, kind, day) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [projectId, affiliateId, visitor, kind, day],
      )
    },
  }
}
