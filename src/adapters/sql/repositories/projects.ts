// The projects repository: a project and its settings; each write of the settings adds one to
// settings_version (migration 12).
import type { ProjectRepository } from '../../../core/ports/storage.js'
import { encode, run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

export function projectRepository(db: SqlClient, t: Tables): ProjectRepository {
  return {
    insert: (project) => t.projects.insert(db, { ...project, settingsVersion: 1 }),
    get: (id) => t.projects.findOne(db, 'id = $1', [id]),
    getByName: (name) => t.projects.findOne(db, 'name = $1', [name]),
    async update(id, patch) {
      const rows = await run(
        db,
        `UPDATE ${t.projects.name} SET name = coalesce($2, name), settings = coalesce($3::jsonb, settings),
          settings_version = settings_version + CASE WHEN $3::jsonb IS NULL THEN 0 ELSE 1 END
         WHERE id = $1 RETURNING *`,
        [id, patch.name ?? null, encode('json', patch.settings)],
      )
      return rows[0] ? t.projects.read(rows[0]) : null
    },
  }
}
