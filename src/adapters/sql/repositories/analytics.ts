// The SQL analytics repository (docs/analytics.md): a flush's batch of clicks, its visitor marks
// and its rollup deltas, each written by one statement whose text is the same for every batch
// (the rows travel as arrays, so PostgreSQL reuses the plan), and the reads of the analytics
// query (analytics-reads.ts).
import type { AnalyticsRepository, ClickRollupDelta, ClickRow } from '../../../core/ports/analytics.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'
import { clickFiguresQuery, outcomeFiguresQuery, readClickFigures, readOutcomeFigures, timeZoneRejected } from './analytics-reads.js'
import type { SqlClickPartitions } from './click-partitions.js'

/** The raw click's columns after project_id, each with its array type, in ClickRow's terms. */
const CLICK_COLUMNS: ReadonlyArray<readonly [column: string, type: string, value: (row: ClickRow) => unknown]> = [
  ['id', 'text', (row) => row.id],
  ['hour', 'timestamptz', (row) => row.hour.toISOString()],
  ['at', 'timestamptz', (row) => row.at.toISOString()],
  ['day', 'date', (row) => row.day],
  ['affiliate_id', 'bigint', (row) => row.affiliateId],
  ['link_id', 'bigint', (row) => row.linkId],
  ['new_visitor', 'boolean', (row) => row.newVisitor],
  ['utm_source', 'text', (row) => row.utmSource],
  ['utm_medium', 'text', (row) => row.utmMedium],
  ['utm_campaign', 'text', (row) => row.utmCampaign],
  ['utm_term', 'text', (row) => row.utmTerm],
  ['utm_content', 'text', (row) => row.utmContent],
  ['sub1', 'text', (row) => row.sub1],
  ['sub2', 'text', (row) => row.sub2],
  ['sub3', 'text', (row) => row.sub3],
  ['sub4', 'text', (row) => row.sub4],
  ['sub5', 'text', (row) => row.sub5],
  ['referrer_host', 'text', (row) => row.referrerHost],
  ['country', 'text', (row) => row.country],
  ['device', 'text', (row) => row.device],
  ['browser', 'text', (row) => row.browser],
]

const ROLLUP_KEY = ['day', 'affiliate_id', 'link_id', 'utm_source', 'utm_medium', 'utm_campaign', 'country', 'device'] as const
const ROLLUP_COUNTS = ['clicks', 'visitors', 'bot_clicks'] as const

/** A rollup delta's key columns as stored: unknown values are '' (link 0), being part of the primary key. */
function rollupKey(delta: ClickRollupDelta): [string, number, number, string, string, string, string, string] {
  return [delta.day, delta.affiliateId, delta.linkId ?? 0, delta.utmSource ?? '', delta.utmMedium ?? '', delta.utmCampaign ?? '', delta.country ?? '', delta.device]
}

function statementText(t: Tables, name: string, build: () => string): string {
  let text = t.statements.get(name)
  if (text === undefined) t.statements.set(name, (text = build()))
  return text
}

const insertClicksText = (t: Tables) =>
  statementText(
    t,
    'analytics insert clicks',
    () => `INSERT INTO ${t.schema}.link_clicks (project_id, ${CLICK_COLUMNS.map(([column]) => column).join(', ')})
     SELECT $1, c.* FROM unnest(${CLICK_COLUMNS.map(([, type], index) => `$${index + 2}::${type}[]`).join(', ')}) AS c
     ON CONFLICT DO NOTHING RETURNING id`,
  )

// Rows go in the order given (WITH ORDINALITY): concurrent flushes lock shared rollup rows in one order.
const addRollupsText = (t: Tables) =>
  statementText(t, 'analytics add rollups', () => {
    const columns = [...ROLLUP_KEY, ...ROLLUP_COUNTS]
    const types = ['date', 'bigint', 'bigint', 'text', 'text', 'text', 'text', 'text', 'bigint', 'bigint', 'bigint']
    return `INSERT INTO ${t.schema}.click_rollups (project_id, ${columns.join(', ')})
     SELECT $1, ${columns.map((column) => `d.${column}`).join(', ')}
     FROM unnest(${types.map((type, index) => `$${index + 2}::${type}[]`).join(', ')}) WITH ORDINALITY AS d (${columns.join(', ')}, n)
     ORDER BY d.n
     ON CONFLICT (project_id, ${ROLLUP_KEY.join(', ')}) DO UPDATE SET ${ROLLUP_COUNTS.map((column) => `${column} = ${t.schema}.click_rollups.${column} + excluded.${column}`).join(', ')}`
  })

const markVisitorsText = (t: Tables) =>
  statementText(
    t,
    'analytics mark visitors',
    () => `INSERT INTO ${t.schema}.tracking_visitors (project_id, affiliate_id, day, visitor)
     SELECT $1, m.affiliate_id, m.day, m.visitor FROM unnest($2::bigint[], $3::date[], $4::text[]) WITH ORDINALITY AS m (affiliate_id, day, visitor, n)
     ORDER BY m.n
     ON CONFLICT DO NOTHING RETURNING affiliate_id, to_char(day, 'YYYY-MM-DD') AS day, visitor`,
  )

export function analyticsRepository(db: SqlClient, t: Tables, partitions: SqlClickPartitions): AnalyticsRepository {
  return {
    async insertClicks(projectId, rows) {
      if (rows.length === 0) return new Set()
      await partitions.ensure(
        db,
        rows.map((row) => row.hour),
      )
      const written = await run(db, insertClicksText(t), [projectId, ...CLICK_COLUMNS.map(([, , value]) => rows.map(value))])
      return new Set(written.map((row) => String(row.id)))
    },
    async addRollups(projectId, deltas) {
      // A row may appear once in an upsert: deltas of one key are summed, where the key first appears.
      const sums = new Map<string, { key: ReturnType<typeof rollupKey>; counts: [number, number, number] }>()
      for (const delta of deltas) {
        if (delta.clicks === 0 && delta.visitors === 0 && delta.botClicks === 0) continue
        const key = rollupKey(delta)
        const name = JSON.stringify(key)
        const sum = sums.get(name)
        if (sum) {
          sum.counts[0] += delta.clicks
          sum.counts[1] += delta.visitors
          sum.counts[2] += delta.botClicks
        } else sums.set(name, { key, counts: [delta.clicks, delta.visitors, delta.botClicks] })
      }
      if (sums.size === 0) return
      const rows = [...sums.values()]
      const keyArrays = ROLLUP_KEY.map((_, index) => rows.map((row) => row.key[index]))
      const countArrays = ROLLUP_COUNTS.map((_, index) => rows.map((row) => row.counts[index]))
      await run(db, addRollupsText(t), [projectId, ...keyArrays, ...countArrays])
    },
    async markVisitors(projectId, marks) {
      // Distinct, in key order: concurrent flushes marking the same visitors wait for each other, never in a circle.
      const distinct = new Map<string, { affiliateId: number; day: string; visitor: string }>()
      for (const mark of marks) distinct.set(`${mark.affiliateId}|${mark.day}|${mark.visitor}`, mark)
      if (distinct.size === 0) return new Set()
      const ordered = [...distinct.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, mark]) => mark)
      const rows = await run(db, markVisitorsText(t), [
        projectId,
        ordered.map((mark) => mark.affiliateId),
        ordered.map((mark) => mark.day),
        ordered.map((mark) => mark.visitor),
      ])
      return new Set(rows.map((row) => `${Number(row.affiliate_id)}|${String(row.day)}|${String(row.visitor)}`))
    },
    async clickFigures(projectId, read) {
      const query = clickFiguresQuery(t, projectId, read)
      return readClickFigures(await run(db, query.text, query.params).catch(timeZoneRejected))
    },
    async outcomeFigures(projectId, read) {
      const query = outcomeFiguresQuery(t, projectId, read)
      return readOutcomeFigures(await run(db, query.text, query.params).catch(timeZoneRejected))
    },
  }
}
