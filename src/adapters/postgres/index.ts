// affiliate-kit/postgres: the SQL storage over a node-postgres Pool.
export { postgresStorage } from './storage.js'
export { SchemaTooNewError } from '../sql/migrations.js'
export type { PostgresPool, PostgresStorageOptions } from './storage.js'
export type { SqlLogEntry, SqlLogOption } from '../sql/sql-log.js'
