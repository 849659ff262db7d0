// affiliate-kit/pglite: the SQL storage over PGlite (embedded Postgres).
export { DataDirLockedError } from './data-dir-lock.js'
export { pgliteStorage } from './storage.js'
export { DEFAULT_MIN_FREE_BYTES, diskSpaceGuard } from './disk-space.js'
export type { DiskSpaceGuard, DiskSpaceStatus } from './disk-space.js'
export { SchemaTooNewError } from '../sql/migrations.js'
export type { PgliteInstance, PgliteStorageOptions } from './storage.js'
export type { SqlLogEntry, SqlLogOption } from '../sql/sql-log.js'
