// Migration 12: the projects' settings version.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// Each write of a project's settings adds one: processes sharing the database tell by it
// which settings they apply (the program reads them again at most a second old).
export const projectSettingsVersion: Migration = {
  version: 12,
  name: 'project settings version',
  statements: [`ALTER TABLE {s}.projects ADD COLUMN settings_version bigint NOT NULL DEFAULT 1`],
}
