// affiliate-kit/pglite: the SQL storage over PGlite (embedded Postgres).
export { DataDirLockedError } from './data-dir-lock.js'
export { pgliteStorage } from './storage.js'
export { SchemaTooNewError } from '../sql/migrations.js'
export type { PgliteInstance, PgliteStorageOptions } from './storage.js'
export type { SqlLogEntry, SqlLogOption } from '../sql/sql-log.js'
