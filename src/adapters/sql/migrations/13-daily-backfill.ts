// Migration 13: the backfill of the per-day counters (its statements' text never changes once
// released: databases applied it as written). Migration 7 created the counters empty, and every
// event has counted since, in its own transaction; the clicks, referred users and conversions
// stored before then were never counted, so stats over time started at the upgrade. Each such row
// is counted once, on its day in its project's time zone (the day function live counting uses),
// as it would have been then, in batches of ids: each batch is a short transaction that also
// records how far it got, so a large table holds no long lock and a stopped start resumes.
import { dayFormatter } from '../../../core/model/calendar.js'
import type { DailyCounts } from '../../../core/ports/tracking-storage.js'
import type { SqlClient, SqlRow } from '../executor.js'
import type { Migration } from './migration.js'

const BATCH_IDS = 5000

type Source = 'clicks' | 'referrals' | 'conversions'
const SOURCES: Source[] = ['clicks', 'referrals', 'conversions']

/**
 * The migration's statements (run again until the backfill is done, so each is idempotent): per
 * source table, the rows to count. `counted_from` is when the counters began (migration 7 applied,
 * or now when it is applied in the same run); `below_id` excludes the rows written since, which
 * were counted when written, including one dated back before then (a conversion with an earlier
 * occurredAt): ids grow with each insert, so the first row dated from then on marks where counting began.
 */
const BACKFILL_SETUP = [
  `CREATE TABLE IF NOT EXISTS {s}.tracking_backfill (
    source text PRIMARY KEY,
    counted_from timestamptz NOT NULL,
    below_id bigint NOT NULL,
    next_id bigint NOT NULL
  )`,
  ...SOURCES.map(
    (source) => `INSERT INTO {s}.tracking_backfill (source, counted_from, below_id, next_id)
      SELECT '${source}', started.at,
        coalesce((SELECT min(id) FROM {s}.${source} WHERE created_at >= started.at), (SELECT coalesce(max(id), 0) + 1 FROM {s}.${source})),
        coalesce((SELECT min(id) FROM {s}.${source}), 1)
      FROM (SELECT coalesce((SELECT applied_at FROM {s}.schema_migrations WHERE version = 7), now()) AS at) AS started
      ON CONFLICT (source) DO NOTHING`,
  ),
]

/** The rows of a source in [$1, $2) stored before $3, with what they count. */
const SELECTS: Record<Source, string> = {
  clicks: `SELECT project_id, affiliate_id, created_at FROM {s}.clicks WHERE id >= $1 AND id < $2 AND created_at < $3`,
  referrals: `SELECT project_id, affiliate_id, created_at FROM {s}.referrals
    WHERE id >= $1 AND id < $2 AND created_at < $3 AND affiliate_id IS NOT NULL`,
  // Conversions that were active when recorded count (review ones never did; a rejected one may
  // have been either, and is left out). Revenue is the base value before refunds, when it was in
  // the project's currency (the rate of another was not kept).
  conversions: `SELECT project_id, affiliate_id, created_at, tier, type, value_minor, base_currency,
      base_value_minor + refunded_base_value_minor AS revenue_minor
    FROM {s}.conversions WHERE id >= $1 AND id < $2 AND created_at < $3 AND status IN ('active', 'refunded')`,
}

interface ProjectDays {
  dayOf: (at: Date) => string
  currency: string
}

function counts(source: Source, row: SqlRow, project: ProjectDays): Partial<DailyCounts> {
  if (source === 'clicks') return { clicks: 1 }
  if (source === 'referrals') return { signups: 1 }
  const delta: Partial<DailyCounts> = { commission: BigInt(String(row.value_minor)) }
  if (Number(row.tier) === 1 && row.type === 'purchase' && row.revenue_minor !== null) {
    delta.purchases = 1
    if ((row.base_currency ?? project.currency) === project.currency) delta.revenue = BigInt(String(row.revenue_minor))
  }
  return delta
}

const zero = (): DailyCounts => ({ clicks: 0, visitors: 0, signups: 0, purchases: 0, customers: 0, revenue: 0n, commission: 0n })

/**
 * Counts the next batch of one source, inside the caller's transaction (which holds the
 * migrations' lock); true when nothing is left to count.
 */
async function backfillDailyBatch(tx: SqlClient, s: string): Promise<boolean> {
  const [progress] = await tx.query(`SELECT source, counted_from, below_id, next_id FROM ${s}.tracking_backfill WHERE next_id < below_id ORDER BY source LIMIT 1`)
  if (!progress) return true
  const source = progress.source as Source
  const upper = Math.min(Number(progress.next_id) + BATCH_IDS, Number(progress.below_id))
  const rows = await tx.query(SELECTS[source].replaceAll('{s}', s), [progress.next_id, upper, progress.counted_from])
  const projects = await projectDays(tx, s, [...new Set(rows.map((row) => String(row.project_id)))])
  const days = new Map<string, { projectId: string; affiliateId: number; day: string; counts: DailyCounts }>()
  for (const row of rows) {
    const project = projects.get(String(row.project_id))
    if (!project) continue
    const at = row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at))
    const day = project.dayOf(at)
    const delta = counts(source, row, project)
    // The affiliate's row, and the project's row 0 (stats of the whole program read it with the shards).
    for (const affiliateId of [Number(row.affiliate_id), 0]) {
      const key = `${row.project_id} ${affiliateId} ${day}`
      let entry = days.get(key)
      if (!entry) days.set(key, (entry = { projectId: String(row.project_id), affiliateId, day, counts: zero() }))
      entry.counts.clicks += delta.clicks ?? 0
      entry.counts.signups += delta.signups ?? 0
      entry.counts.purchases += delta.purchases ?? 0
      entry.counts.revenue += delta.revenue ?? 0n
      entry.counts.commission += delta.commission ?? 0n
    }
  }
  if (days.size > 0) await addDays(tx, s, [...days.values()])
  await tx.query(`UPDATE ${s}.tracking_backfill SET next_id = $2 WHERE source = $1`, [source, upper])
  return false
}

async function projectDays(tx: SqlClient, s: string, ids: string[]): Promise<Map<string, ProjectDays>> {
  if (ids.length === 0) return new Map()
  const rows = await tx.query(`SELECT id, settings FROM ${s}.projects WHERE id = ANY($1::text[])`, [ids])
  return new Map(
    rows.map((row) => {
      const settings = (typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings) as { timeZone?: string; currency: string }
      return [String(row.id), { dayOf: dayFormatter(settings.timeZone ?? 'UTC'), currency: settings.currency }]
    }),
  )
}

/** Adds the counts to their (project, affiliate, day) rows, creating them: one statement. */
async function addDays(tx: SqlClient, s: string, entries: Array<{ projectId: string; affiliateId: number; day: string; counts: DailyCounts }>) {
  const column = <T>(pick: (entry: (typeof entries)[number]) => T) => entries.map(pick)
  await tx.query(
    `INSERT INTO ${s}.tracking_daily AS daily (project_id, affiliate_id, day, clicks, signups, purchases, revenue_minor, commission_minor)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::date[], $4::bigint[], $5::bigint[], $6::bigint[], $7::numeric[], $8::numeric[])
     ON CONFLICT (project_id, affiliate_id, day) DO UPDATE SET clicks = daily.clicks + excluded.clicks, signups = daily.signups + excluded.signups,
       purchases = daily.purchases + excluded.purchases, revenue_minor = daily.revenue_minor + excluded.revenue_minor,
       commission_minor = daily.commission_minor + excluded.commission_minor`,
    [
      column((entry) => entry.projectId),
      column((entry) => entry.affiliateId),
      column((entry) => entry.day),
      column((entry) => entry.counts.clicks),
      column((entry) => entry.counts.signups),
      column((entry) => entry.counts.purchases),
      column((entry) => entry.counts.revenue.toString()),
      column((entry) => entry.counts.commission.toString()),
    ],
  )
}

export const dailyBackfill: Migration = {
  version: 13,
  name: 'count the history stored before the daily counters',
  statements: BACKFILL_SETUP,
  batch: backfillDailyBatch,
}
