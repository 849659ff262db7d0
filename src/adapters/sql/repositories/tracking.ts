// The SQL tracking store: per-day counters (one upsert per event), visitor-day marks decided by
// their primary key, the project's visitor salt and referral times (migration 7).
import type { DailyCounts, TrackingRepository } from '../../../core/tracking-storage.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'

const COUNTERS: ReadonlyArray<readonly [keyof DailyCounts, string]> = [
  ['clicks', 'clicks'],
  ['visitors', 'visitors'],
  ['signups', 'signups'],
  ['purchases', 'purchases'],
  ['revenue', 'revenue_minor'],
  ['commission', 'commission_minor'],
]

/** The affiliate id of the project-wide counters (real ids start at 1). */
const PROJECT_ROW = 0

export function trackingRepository(db: SqlClient, schema: string): TrackingRepository {
  const daily = `${schema}.tracking_daily`
  return {
    async addDaily(projectId, affiliateId, day, delta) {
      const changed = COUNTERS.filter(([field]) => delta[field] !== undefined && delta[field] !== 0 && delta[field] !== 0n)
      if (changed.length === 0) return
      const params: unknown[] = [projectId, affiliateId, day, ...changed.map(([field]) => String(delta[field]))]
      const columns = changed.map(([, column]) => column)
      const values = columns.map((_, index) => `$${index + 4}`).join(', ')
      // The affiliate's row and the project's (affiliate 0): program-wide stats read one row per day too.
      await run(
        db,
        `INSERT INTO ${daily} (project_id, affiliate_id, day, ${columns.join(', ')})
         VALUES ($1, $2, $3, ${values}), ($1, ${PROJECT_ROW}, $3, ${values})
         ON CONFLICT (project_id, affiliate_id, day) DO UPDATE SET ${columns.map((column) => `${column} = ${daily}.${column} + excluded.${column}`).join(', ')}`,
        params,
      )
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
      const rows = await run(
        db,
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(clicks) AS clicks, sum(visitors) AS visitors, sum(signups) AS signups,
                sum(purchases) AS purchases, sum(revenue_minor) AS revenue, sum(commission_minor) AS commission
         FROM ${daily} WHERE project_id = $1 AND affiliate_id = $4 AND day >= $2::date AND day < $3::date
         GROUP BY day ORDER BY day`,
        [projectId, from, to, affiliateId ?? PROJECT_ROW],
      )
      return rows.map((row) => ({
        day: String(row.day),
        clicks: Number(row.clicks),
        visitors: Number(row.visitors),
        signups: Number(row.signups),
        purchases: Number(row.purchases),
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
  }
}
