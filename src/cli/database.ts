// --database: where the standalone server keeps its data. Omitted: embedded PGlite persisted in
// ./affiliate-data; `memory`; or a postgres:// URL. Adapters load lazily, so `pg` is needed
// only for PostgreSQL.
import { resolve } from 'node:path'
import type { StoragePort } from '../core/storage.js'
import type { SqlStorageOptions } from '../adapters/sql/storage.js'

export const DEFAULT_DATA_DIR = './affiliate-data'

/** `sql` options (such as onMigrated) go to the PGlite and PostgreSQL adapters. */
export async function openStorage(target: string | undefined, sql: SqlStorageOptions = {}): Promise<{ storage: StoragePort; description: string }> {
  if (target === undefined || target.startsWith('file:') || target.startsWith('pglite:')) {
    const dataDir = resolve(target?.replace(/^(file|pglite):(\/\/)?/, '') || DEFAULT_DATA_DIR)
    const { pgliteStorage } = await import('../adapters/pglite.js')
    return { storage: pgliteStorage({ ...sql, dataDir }), description: `embedded PGlite in ${dataDir}` }
  }
  if (target === 'memory') {
    const { memoryStorage } = await import('../adapters/memory.js')
    return { storage: memoryStorage(), description: 'memory (nothing is kept after exit)' }
  }
  if (/^postgres(ql)?:\/\//.test(target)) {
    const { postgresStorage } = await import('../adapters/postgres.js')
    return { storage: postgresStorage({ ...sql, connectionString: target }), description: `PostgreSQL at ${new URL(target).host}` }
  }
  throw new Error(`--database must be memory, a postgres:// URL or pglite:<dir>; got "${target}"`)
}
