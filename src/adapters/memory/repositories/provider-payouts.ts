// The in-memory provider payouts (docs/payouts.md "Automatic payouts"): their table alone.
import { providerPayoutRules } from '../../../core/ports/entity-filters.js'
import type { ProviderPayoutRepository } from '../../../core/ports/storage.js'
import { memoryEntityTable } from '../entity-table.js'
import type { MemoryState } from '../state.js'
import type { UndoLog } from '../table.js'

export function providerPayoutRepository(state: MemoryState, log: UndoLog): ProviderPayoutRepository {
  return memoryEntityTable(state.providerPayouts, providerPayoutRules, log)
}
