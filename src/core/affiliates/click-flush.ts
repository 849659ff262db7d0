// Counting a batch of clicks in one transaction (docs/analytics.md "The click path"): the visitors
// new to their affiliate that day, the click rows (one per visitor, link and hour), the affiliates'
// click totals, the per-day counters and the rollups, each in a few multi-row statements. The
// tracking surface's buffer calls it once per flush; a link visit without a buffer, with one click.
import type { ProjectContext } from '../rules/context.js'
import type { ClickCampaign, ClickRollupDelta, ClickRow, DeviceClass } from '../ports/analytics.js'
import type { PaidAdClickId } from '../rules/fraud/signals.js'
import type { StorageTx } from '../ports/storage.js'
import { shortVisitor } from '../model/visitor-hash.js'

/** One visit through a link, as the tracking surface saw it. */
export interface ClickVisit extends ClickCampaign {
  /** The click's id (deterministic for the visitor, link and hour); unused for a bot. */
  id: string
  at: Date
  /** The day of `at` in the project's time zone, YYYY-MM-DD (the visitor's hash is of this day). */
  day: string
  affiliateId: number
  linkId: number | null
  /** The visitor's salted hash of the day; null for a bot, which is counted apart. */
  visitor: string | null
  referrerHost: string | null
  country: string | null
  device: DeviceClass
  browser: string | null
  /** The paid ad's click id parameter the visit carried: marks the visitor for the fraud rules. */
  paidAdClickId?: PaidAdClickId
}

/** What became of a visit: its click row written (`counted`), and whether its visitor was new to the affiliate that day. */
export interface ClickOutcome {
  counted: boolean
  newVisitor: boolean
}

const HOUR = 3_600_000

/** Counts the visits in `tx`; their outcomes in the order given. */
export async function recordClicks(ctx: ProjectContext, tx: StorageTx, visits: readonly ClickVisit[]): Promise<ClickOutcome[]> {
  const { projectId } = ctx
  const humans = visits.filter((visit) => visit.visitor !== null)
  const marks = humans.map((visit) => ({ affiliateId: visit.affiliateId, day: visit.day, visitor: visit.visitor! }))
  const newVisitors = marks.length === 0 ? new Set<string>() : await tx.analytics.markVisitors(projectId, marks)
  // Within the batch, the first visit of a row (a visitor, link and hour) makes it; the first of a
  // visitor's day is the first of its row, and only that row is the visitor's new one.
  const rows = new Map<string, ClickRow>()
  const makers = new Map<ClickVisit, ClickRow>()
  for (const visit of humans) {
    const hour = new Date(Math.floor(visit.at.getTime() / HOUR) * HOUR)
    const key = `${visit.id}|${hour.getTime()}`
    if (rows.has(key)) continue
    const markKey = `${visit.affiliateId}|${visit.day}|${visit.visitor}`
    const row = clickRow(visit, hour, newVisitors.delete(markKey))
    rows.set(key, row)
    makers.set(visit, row)
  }
  const written = rows.size === 0 ? new Set<string>() : await tx.analytics.insertClicks(projectId, [...rows.values()])
  for (const visit of humans) if (visit.paidAdClickId) await tx.tracking.markVisitorSignal(projectId, visit.affiliateId, shortVisitor(visit.visitor!), visit.paidAdClickId, visit.day)

  const counts = clickCounts()
  for (const [visit, row] of makers) if (written.has(row.id)) counts.add(visit, row.newVisitor)
  for (const visit of visits) if (visit.visitor === null) counts.addBot(visit)
  await counts.write(ctx, tx)

  return visits.map((visit) => {
    const row = makers.get(visit)
    const counted = row !== undefined && written.has(row.id)
    return { counted, newVisitor: counted && row.newVisitor }
  })
}

/** What a batch adds to the affiliates' totals, their days and the rollups. */
function clickCounts() {
  const totals = new Map<number, number>()
  const days = new Map<string, { affiliateId: number; day: string; clicks: number; visitors: number }>()
  const rollups = new Map<string, ClickRollupDelta>()
  const rollup = (visit: ClickVisit) => {
    const key = JSON.stringify([visit.day, visit.affiliateId, visit.linkId, visit.utmSource, visit.utmMedium, visit.utmCampaign, visit.country, visit.device])
    let found = rollups.get(key)
    if (!found) rollups.set(key, (found = { ...rollupKeyOf(visit), clicks: 0, visitors: 0, botClicks: 0 }))
    return found
  }
  return {
    add(visit: ClickVisit, newVisitor: boolean) {
      const visitors = newVisitor ? 1 : 0
      const counted = rollup(visit)
      counted.clicks += 1
      counted.visitors += visitors
      totals.set(visit.affiliateId, (totals.get(visit.affiliateId) ?? 0) + 1)
      const dayKey = `${visit.affiliateId}|${visit.day}`
      const day = days.get(dayKey) ?? { affiliateId: visit.affiliateId, day: visit.day, clicks: 0, visitors: 0 }
      day.clicks += 1
      day.visitors += visitors
      days.set(dayKey, day)
    },
    addBot(visit: ClickVisit) {
      rollup(visit).botClicks += 1
    },
    /** In the lock order (docs/architecture.md): affiliates by ascending id, then their days, then the rollups by key. */
    async write(ctx: ProjectContext, tx: StorageTx) {
      const { projectId } = ctx
      for (const [affiliateId, clicks] of [...totals].sort(([a], [b]) => a - b)) await tx.affiliates.adjustTotals(projectId, affiliateId, { clicks })
      const byAffiliateDay = [...days.values()].sort((a, b) => a.affiliateId - b.affiliateId || a.day.localeCompare(b.day))
      for (const day of byAffiliateDay) await tx.tracking.addDaily(projectId, day.affiliateId, day.day, { clicks: day.clicks, visitors: day.visitors })
      if (rollups.size > 0) await tx.analytics.addRollups(projectId, [...rollups.keys()].sort().map((key) => rollups.get(key)!))
    },
  }
}

function clickRow(visit: ClickVisit, hour: Date, newVisitor: boolean): ClickRow {
  const { visitor: _visitor, paidAdClickId: _paid, ...fields } = visit
  return { ...fields, hour, newVisitor }
}

function rollupKeyOf(visit: ClickVisit): Omit<ClickRollupDelta, 'clicks' | 'visitors' | 'botClicks'> {
  const { day, affiliateId, linkId, utmSource, utmMedium, utmCampaign, country, device } = visit
  return { day, affiliateId, linkId, utmSource, utmMedium, utmCampaign, country, device }
}
