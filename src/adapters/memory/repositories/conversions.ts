// The in-memory conversions repository: idempotent insert by reference, the held balance (kept by
// held-balances.ts) and oldest-first settling over the unpaid index.
import { conversionRules } from '../../../core/ports/entity-filters.js'
import type { AffiliateRepository, ConversionRepository } from '../../../core/ports/storage.js'
import { conversionMovement } from '../../../core/rules/ledger-movements.js'
import type { Conversion } from '../../../core/model/types.js'
import type { TrackingRepository } from '../../../core/ports/tracking-storage.js'
import { memoryEntityTable } from '../entity-table.js'
import { inProject, type MemoryState } from '../state.js'
import { dayCounts } from './tracking.js'
import type { UndoLog } from '../table.js'

const unpaid = (state: MemoryState, projectId: string, affiliateId: number) =>
  state.conversions.group('unpaidActive', affiliateId).filter((row) => row.projectId === projectId)

export function conversionRepository(
  state: MemoryState,
  log: UndoLog,
  counters: { affiliates: AffiliateRepository; tracking: TrackingRepository },
): ConversionRepository {
  const repository: ConversionRepository = {
    ...memoryEntityTable(state.conversions, conversionRules, log),
    async insertMany(conversions) {
      const inserted: Array<Conversion | null> = []
      for (const { conversion, counts } of conversions) {
        const result = await repository.insert(conversion, counts)
        inserted.push(result.inserted ? result.conversion : null)
      }
      return inserted
    },
    async insert(conversion, counts) {
      const result = state.conversions.insertOrFind(conversion, 'conversion_reference', log)
      if (!result.inserted) return { inserted: false, existing: result.existing }
      const inserted = result.row
      if (!counts) return { inserted: true, conversion: inserted }
      const { projectId, affiliateId } = conversion
      await counters.affiliates.adjustTotals(projectId, affiliateId, counts.totals)
      await counters.tracking.addDaily(projectId, affiliateId, counts.day, counts.daily)
      const movement = counts.ledgerAt && conversionMovement(inserted, { before: null, after: inserted }, counts.totals, counts.ledgerAt)
      if (movement) state.ledger.insert(movement, log)
      if (!counts.answerCounted) return { inserted: true, conversion: inserted }
      const affiliate = inProject(state.affiliates.get(affiliateId), projectId)
      const day = dayCounts(state.tracking, projectId, affiliateId, counts.day)
      return {
        inserted: true,
        conversion: inserted,
        counted: { affiliate: affiliate ? { tier: affiliate.tier, status: affiliate.status } : null, day: day ? { day: counts.day, revenue: day.revenue, customers: day.customers } : null },
      }
    },
    async createReads(projectId, affiliateId, query) {
      const days = query.days ? await counters.tracking.daily(projectId, { from: query.days.from, to: query.days.to, affiliateId }) : []
      return {
        days,
        visitorSignals: query.visitorSignalsOf === null ? [] : (state.tracking.visitorSignals.get(`${projectId}|${affiliateId}|${query.visitorSignalsOf}`)?.kinds ?? []),
        signups: query.signupsOf === null ? null : state.conversions.groupSize('visitorSignups', `${projectId}|${query.signupsOf}`),
        cardCustomers: query.cardCustomersOf === null ? [] : state.cardCustomers.emails(projectId, query.cardCustomersOf, 100),
        affiliateSignups: query.affiliateSignupsIn ? signupsIn(state.conversions.group('affiliate', affiliateId), projectId, query.affiliateSignupsIn) : null,
      }
    },
    async heldSummary(projectId, affiliateId, now) {
      return state.heldBalances.heldAt(projectId, affiliateId, now)
    },
    async listOpen(projectId, affiliateId) {
      return state.conversions
        .group('project', projectId)
        .filter((row) => row.status === 'active' && !row.paid && (affiliateId === undefined || row.affiliateId === affiliateId))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
        .map((row) => ({ id: row.id, affiliateId: row.affiliateId, unpaid: row.value, holdUntil: row.holdUntil, createdAt: row.createdAt }))
    },
    async settleOldestFirst({ projectId, affiliateId, budget, now, payoutId }) {
      const eligible = unpaid(state, projectId, affiliateId)
        .filter((row) => row.holdUntil <= now)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
      let amount = 0n
      let count = 0
      for (const row of eligible) {
        if (amount + row.value > budget) break
        amount += row.value
        count += 1
        state.conversions.replace({ ...row, paid: true, paidByPayoutId: payoutId }, log)
      }
      return { count, amount }
    },
  }
  return repository
}

/** The affiliate's signup conversions created in [from, to). */
function signupsIn(rows: readonly Conversion[], projectId: string, { from, to }: { from: Date; to: Date }): number {
  return rows.filter((row) => row.projectId === projectId && row.type === 'signup' && row.createdAt >= from && row.createdAt < to).length
}
