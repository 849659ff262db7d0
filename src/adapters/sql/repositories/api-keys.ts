// The API keys repository: its table, and the key presented looked up by its hash in any project.
import { apiKeyRules } from '../../../core/ports/entity-filters.js'
import type { ApiKeyRepository } from '../../../core/ports/storage.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function apiKeyRepository(db: SqlClient, t: Tables): ApiKeyRepository {
  return {
    ...sqlEntityTable(db, t.apiKeys, apiKeyRules),
    findByHash: (hash) => t.apiKeys.findOne(db, 'hash = $1', [hash]),
  }
}
