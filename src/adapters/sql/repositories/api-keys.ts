// The API keys repository: looked up by the hash of the presented key; revoked in place.
import type { ApiKeyRepository } from '../../../core/storage.js'
import { run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function apiKeyRepository(db: SqlClient, t: Tables): ApiKeyRepository {
  return {
    insert: (key) => t.apiKeys.insert(db, key),
    findByHash: (hash) => t.apiKeys.findOne(db, 'hash = $1', [hash]),
    async list(projectId) {
      const rows = await run(db, `SELECT * FROM ${t.apiKeys.name} WHERE project_id = $1 ORDER BY id`, [projectId])
      return rows.map((row) => t.apiKeys.read(row))
    },
    async revoke(projectId, id, at) {
      const rows = await run(
        db,
        `UPDATE ${t.apiKeys.name} SET revoked_at = $3 WHERE project_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id`,
        [projectId, id, at],
      )
      return rows.length > 0
    },
  }
}
