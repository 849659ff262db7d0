// The in-memory analytics store (its data in analytics-state.ts): the raw clicks by project (each
// (id, hour) once), the rollups by project and key, and the visitor-day marks shared with the
// tracking store; every write undone with the transaction that made it. The reads are in
// analytics-reads.ts.
import type { AnalyticsRepository, ClickRollupDelta, ClickRow } from '../../../core/ports/analytics.js'
import type { MemoryState } from '../state.js'
import { setMapEntry, type UndoLog } from '../table.js'
import { clickFigures, outcomeFigures } from './analytics-reads.js'
import type { AnalyticsState } from './analytics-state.js'

/** The map under `key`, made (and its making logged) when absent. */
function inner<K, V>(outer: Map<K, Map<string, V>>, key: K, log: UndoLog): Map<string, V> {
  let map = outer.get(key)
  if (!map) {
    map = new Map()
    setMapEntry(outer, key, map, log)
  }
  return map
}

const clickKey = (row: Pick<ClickRow, 'id' | 'hour'>) => `${row.id}|${row.hour.getTime()}`
const rollupKey = (delta: ClickRollupDelta) =>
  JSON.stringify([delta.day, delta.affiliateId, delta.linkId, delta.utmSource, delta.utmMedium, delta.utmCampaign, delta.country, delta.device])

export function analyticsRepository(state: MemoryState, log: UndoLog): AnalyticsRepository {
  const { analytics } = state
  return {
    async insertClicks(projectId, rows) {
      const written = new Set<string>()
      if (rows.length === 0) return written
      const clicks = inner(analytics.clicks, projectId, log)
      for (const row of rows) {
        const key = clickKey(row)
        if (clicks.has(key)) continue
        const stored = Object.freeze({ ...row })
        setMapEntry(clicks, key, stored, log)
        const byId = `${projectId}|${row.id}`
        if (!analytics.clicksById.has(byId)) setMapEntry(analytics.clicksById, byId, stored, log)
        written.add(row.id)
      }
      return written
    },
    async addRollups(projectId, deltas) {
      const rollups = inner(analytics.rollups, projectId, log)
      for (const delta of deltas) {
        if (delta.clicks === 0 && delta.visitors === 0 && delta.botClicks === 0) continue
        const key = rollupKey(delta)
        const row = rollups.get(key)
        const counts = { clicks: (row?.clicks ?? 0) + delta.clicks, visitors: (row?.visitors ?? 0) + delta.visitors, botClicks: (row?.botClicks ?? 0) + delta.botClicks }
        setMapEntry(rollups, key, Object.freeze({ ...delta, ...counts }), log)
      }
    },
    async markVisitors(projectId, marks) {
      const added = new Set<string>()
      for (const { affiliateId, day, visitor } of marks) {
        // The tracking store's marks: `${projectId}|${affiliateId}|${day}|${visitor}`.
        const key = `${projectId}|${affiliateId}|${day}|${visitor}`
        if (state.tracking.visitors.has(key)) continue
        state.tracking.visitors.add(key)
        log.push(() => state.tracking.visitors.delete(key))
        added.add(`${affiliateId}|${day}|${visitor}`)
      }
      return added
    },
    clickFigures: async (projectId, read) => clickFigures(analytics, projectId, read),
    outcomeFigures: async (projectId, read) => outcomeFigures(state, projectId, read),
  }
}

/** Deletes the clicks of the UTC months wholly before `before`'s month (the retention of raw clicks): how many months had some. */
export function dropClicksBefore(analytics: AnalyticsState, before: Date): number {
  const cutoff = Date.UTC(before.getUTCFullYear(), before.getUTCMonth(), 1)
  const months = new Set<number>()
  for (const [projectId, clicks] of analytics.clicks) {
    for (const [key, click] of clicks) {
      if (click.hour.getTime() >= cutoff) continue
      months.add(Date.UTC(click.hour.getUTCFullYear(), click.hour.getUTCMonth(), 1))
      clicks.delete(key)
      const byId = `${projectId}|${click.id}`
      if (analytics.clicksById.get(byId) === click) analytics.clicksById.delete(byId)
    }
  }
  return months.size
}
