// The webhook endpoints repository. A change of endpoints first writes the events the transaction
// recorded so far (to the endpoints as they were), then forgets the endpoints it knew.
import type { WebhookEndpointRepository } from '../../../core/storage.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'
import { flushPending, type TransactionState } from './transaction-state.js'

export function webhookEndpointRepository(db: SqlClient, t: Tables, cache: TransactionState | null): WebhookEndpointRepository {
  const table = t.endpoints
  // Events recorded earlier in the transaction go to the endpoints as they were then.
  const change = async <T>(write: () => Promise<T>): Promise<T> => {
    await flushPending(db, t, cache)
    cache?.endpoints.clear()
    return write()
  }
  return {
    insert: (endpoint) => change(() => table.insert(db, endpoint)),
    get: (projectId, id) => table.get(db, projectId, id),
    async list(projectId) {
      const rows = await run(db, `SELECT * FROM ${table.name} WHERE project_id = $1 ORDER BY id`, [projectId])
      return rows.map((row) => table.read(row))
    },
    update: (projectId, id, patch) => change(() => table.update(db, projectId, id, patch)),
    // Its deliveries and their attempts go by the foreign keys of migration 2.
    delete: (projectId, id) => change(() => table.delete(db, projectId, id)),
  }
}
