// The in-memory provider payouts (docs/payouts.md "Automatic payouts").
import type { ProviderPayoutRepository } from '../../../core/storage.js'
import { found, inProject, type MemoryState } from '../state.js'
import type { UndoLog } from '../table.js'

export function providerPayoutRepository(state: MemoryState, log: UndoLog): ProviderPayoutRepository {
  const table = state.providerPayouts
  return {
    async insert(row) {
      return table.insert({ ...row }, log)
    },
    async getByPayout(projectId, payoutId) {
      return found(table.group('payout', payoutId).find((row) => row.projectId === projectId))
    },
    async update(projectId, id, patch) {
      const existing = inProject(table.get(id), projectId)
      if (existing) table.replace({ ...existing, ...patch }, log)
    },
    async listProcessing(projectId, affiliateId) {
      return table
        .group('processing', projectId)
        .filter((row) => affiliateId === undefined || row.affiliateId === affiliateId)
        .sort((a, b) => a.id - b.id)
    },
    async getByRun(projectId, affiliateId, period) {
      return found(table.group('run', `${projectId}|${period}`).find((row) => row.affiliateId === affiliateId))
    },
    async listByRun(projectId, period) {
      return table.group('run', `${projectId}|${period}`).sort((a, b) => a.id - b.id)
    },
    async setPayoutStatus(projectId, payoutId, status, conversionsSettled) {
      const existing = inProject(state.payouts.get(payoutId), projectId)
      if (existing) state.payouts.replace({ ...existing, status, conversionsSettled }, log)
    },
  }
}
