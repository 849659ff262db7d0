// The in-memory analytics data (written by analytics.ts, read by analytics-reads.ts): the raw
// clicks by project, each by its (id, hour) and by its id, and the rollup rows by project and key.
import type { ClickRollupDelta, ClickRow } from '../../../core/ports/analytics.js'

/** A rollup row: a delta's key (unknowns null) with the sums of every delta added to it. */
export type StoredRollup = Readonly<ClickRollupDelta>

export class AnalyticsState {
  /** project id -> `${id}|${hour}` -> the click. */
  clicks = new Map<string, Map<string, ClickRow>>()
  /** `${projectId}|${id}` -> the click: what a referred user or a conversion names. */
  clicksById = new Map<string, ClickRow>()
  /** project id -> rollup key -> the row. */
  rollups = new Map<string, Map<string, StoredRollup>>()
}
