// Test data for the analytics store (docs/analytics.md): click rows as the click flush writes
// them, the rollup deltas a flush adds for the rows it wrote (in key order), and a batch written
// the way the flush writes it, in one transaction.
import { dayFormatter } from '../../../src/core/model/calendar.js'
import type { ClickRollupDelta, ClickRow } from '../../../src/core/ports/analytics.js'
import type { StorageTx } from '../../../src/storage.js'

const HOUR_MS = 3_600_000
let sequence = 0

/** A click of `affiliateId` at `at`; the rest unknown unless given. `day` is computed in `timeZone`. */
export function clickRow(timeZone: string, fields: Partial<ClickRow> & Pick<ClickRow, 'affiliateId' | 'at'>): ClickRow {
  const hour = new Date(Math.floor(fields.at.getTime() / HOUR_MS) * HOUR_MS)
  return {
    id: `clk_${process.pid}_${(sequence += 1)}`,
    hour,
    day: dayFormatter(timeZone)(fields.at),
    linkId: null,
    newVisitor: false,
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    utmTerm: null,
    utmContent: null,
    sub1: null,
    sub2: null,
    sub3: null,
    sub4: null,
    sub5: null,
    referrerHost: null,
    country: null,
    device: 'desktop',
    browser: null,
    ...fields,
  }
}

/** A bot's visit: counted in the rollups only (no raw row), on its rollup key. */
export type BotVisit = Omit<ClickRollupDelta, 'clicks' | 'visitors' | 'botClicks'>

const keyOf = (row: BotVisit) => JSON.stringify([row.day, row.affiliateId, row.linkId ?? 0, row.utmSource ?? '', row.utmMedium ?? '', row.utmCampaign ?? '', row.country ?? '', row.device])

/** The deltas a flush adds: each written row's click (and visitor), each bot visit, summed per key, in key order. */
export function rollupDeltas(rows: readonly ClickRow[], bots: readonly BotVisit[] = []): ClickRollupDelta[] {
  const deltas = new Map<string, ClickRollupDelta>()
  const at = (row: BotVisit) => {
    const key = keyOf(row)
    let delta = deltas.get(key)
    if (!delta) {
      const { day, affiliateId, linkId, utmSource, utmMedium, utmCampaign, country, device } = row
      deltas.set(key, (delta = { day, affiliateId, linkId, utmSource, utmMedium, utmCampaign, country, device, clicks: 0, visitors: 0, botClicks: 0 }))
    }
    return delta
  }
  for (const row of rows) {
    const delta = at(row)
    delta.clicks += 1
    if (row.newVisitor) delta.visitors += 1
  }
  for (const bot of bots) at(bot).botClicks += 1
  return [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, delta]) => delta)
}

/** Writes a batch as the flush does: the rows (duplicates skipped), then the rollups of those written and of the bots. */
export async function writeBatch(tx: Pick<StorageTx, 'analytics'>, projectId: string, rows: readonly ClickRow[], bots: readonly BotVisit[] = []): Promise<Set<string>> {
  const written = await tx.analytics.insertClicks(projectId, rows)
  const firsts = new Map<string, ClickRow>()
  for (const row of rows) if (written.has(row.id) && !firsts.has(row.id)) firsts.set(row.id, row)
  await tx.analytics.addRollups(projectId, rollupDeltas([...firsts.values()], bots))
  return written
}

/** Marks one visitor of an affiliate's day: true the first time (analytics.markVisitors with one mark). */
export async function markVisitor(store: Pick<StorageTx, 'analytics'>, projectId: string, affiliateId: number, day: string, visitor: string): Promise<boolean> {
  return (await store.analytics.markVisitors(projectId, [{ affiliateId, day, visitor }])).size === 1
}
