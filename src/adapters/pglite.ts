// pgliteStorage(): the SQL storage over PGlite (embedded Postgres), persisted in dataDir, in
// memory, or on the host's own PGlite instance. PGlite has one connection: its transaction
// mutex serializes our transactions with every other query, and it rolls back after errors.
import { PGlite } from '@electric-sql/pglite'
import type { StoragePort } from '../core/storage.js'
import { nestedClient, type SqlExecutor, type SqlRow } from './sql/executor.js'
import { sqlStorage, type SqlStorageOptions } from './sql/storage.js'

export interface PgliteStorageOptions extends SqlStorageOptions {
  /** Directory the database persists in. @default in memory (nothing persisted) */
  dataDir?: string
  /** The host's own PGlite instance; `close()` then leaves it open. */
  db?: PGlite
}

export function pgliteStorage(options: PgliteStorageOptions = {}): StoragePort {
  const db = options.db ?? new PGlite(options.dataDir)
  const rows = (result: { rows: unknown[] }) => result.rows as SqlRow[]
  const executor: SqlExecutor = {
    inTransaction: false,
    query: async (text, params) => rows(await db.query(text, params ? [...params] : [])) as never,
    transaction: (fn) => db.transaction((tx) => fn(nestedClient(async (text, params) => rows(await tx.query(text, params ? [...params] : [])) as never))),
    close: async () => {
      if (!options.db) await db.close()
    },
  }
  return sqlStorage(executor, options)
}
