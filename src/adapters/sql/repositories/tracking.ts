// The SQL tracking store: per-day counters (their statements in day-counters.ts; the projects'
// rows of a day written last in a transaction), the project's visitor salt and referral times
// (migration 7).
import type { TrackingRepository } from '../../../core/ports/tracking-storage.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'
import { dailyManyStatement, dailyUpsert, PROJECT_ROWS, projectShares, type DayDelta } from './day-counters.js'
import type { TransactionState } from './transaction-state.js'

/** Adds the deltas to the affiliates' days, then their projects' share (addProjectDays). */
export async function addDays(db: SqlClient, table: string, state: TransactionState | null, entries: readonly DayDelta[]): Promise<void> {
  const own = dailyManyStatement(table, entries)
  if (own) await run(db, own.text, own.params)
  await addProjectDays(db, table, state, entries)
}

/**
 * The projects' share of deltas already added to their affiliates' days: left for COMMIT in a
 * transaction (written last, see day-counters.ts), else written at once.
 */
export async function addProjectDays(db: SqlClient, table: string, state: TransactionState | null, entries: readonly DayDelta[]): Promise<void> {
  if (state) {
    state.projectDays.push(...entries)
    return
  }
  const statement = dailyManyStatement(table, projectShares(entries))
  if (statement) await run(db, statement.text, statement.params)
}

export function trackingRepository(db: SqlClient, t: Tables, state: TransactionState | null): TrackingRepository {
  const { schema, daily } = t
  return {
    async addDaily(projectId, affiliateId, day, delta) {
      const params: unknown[] = []
      const upsert = dailyUpsert(daily, projectId, affiliateId, day, delta, params)
      if (!upsert) return
      await run(db, upsert.text(), params)
      await addProjectDays(db, daily, state, [{ projectId, affiliateId, day, delta }])
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
