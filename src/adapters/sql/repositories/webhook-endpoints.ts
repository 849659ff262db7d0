// The webhook endpoints repository. A change of endpoints first writes the events the transaction
// recorded so far (to the endpoints as they were), then forgets the endpoints it knew.
import { webhookEndpointRules } from '../../../core/ports/entity-filters.js'
import type { WebhookEndpointRepository } from '../../../core/ports/storage.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'
import { flushPending, type TransactionState } from './transaction-state.js'

export function webhookEndpointRepository(db: SqlClient, t: Tables, cache: TransactionState | null): WebhookEndpointRepository {
  const table = sqlEntityTable(db, t.endpoints, webhookEndpointRules)
  // Events recorded earlier in the transaction go to the endpoints as they were then.
  const change = async <T>(write: () => Promise<T>): Promise<T> => {
    await flushPending(db, t, cache)
    cache?.endpoints.clear()
    return write()
  }
  return {
    ...table,
    insert: (endpoint) => change(() => table.insert(endpoint)),
    update: (projectId, id, patch, expected) => change(() => table.update(projectId, id, patch, expected)),
    updateAll: (projectId, filter, patch) => change(() => table.updateAll(projectId, filter, patch)),
    // Its deliveries and their attempts go by the foreign keys of migration 2.
    delete: (projectId, id) => change(() => table.delete(projectId, id)),
  }
}
