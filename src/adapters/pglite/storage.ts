// pgliteStorage(): the SQL storage over PGlite (embedded Postgres), persisted in dataDir, in
// memory, or on the host's own PGlite instance. PGlite has one connection: its transaction
// mutex serializes our transactions with every other query, and it rolls back after errors.
// A data directory is locked for as long as the storage is open (see data-dir-lock.ts). Writes
// are refused (StorageFullError, HTTP 507) while its disk is short of space (disk-space.ts).
import { PGlite } from '@electric-sql/pglite'
import type { StoragePort } from '../storage-port.js'
import { lockDataDir } from './data-dir-lock.js'
import { diskSpaceGuard, writesData, type DiskSpaceGuard } from './disk-space.js'
import { startMaintenance } from './maintenance.js'
import { preparedQuery } from './prepared-statements.js'
import { nestedClient, type SqlExecutor, type SqlRow } from '../sql/executor.js'
import { DEFAULT_SCHEMA, sqlStorage, type SqlStorageOptions } from '../sql/storage.js'

export interface PgliteStorageOptions extends SqlStorageOptions {
  /**
   * Directory the database persists in, locked while this storage is open: another opener, in
   * this process or another, gets a `DataDirLockedError` naming the holder's pid.
   * @default in memory (nothing persisted)
   */
  dataDir?: string
  /** The host's own PGlite instance (`new PGlite(...)`); `close()` then leaves it open. */
  db?: PgliteInstance
  /**
   * Refuses writes while the disk of `dataDir` has less free space than this: PGlite that runs
   * out of disk mid-write stops answering altogether. 0 never refuses. Ignored when `diskSpace`
   * is given. @default 33554432 (32 MiB)
   */
  minFreeBytes?: number
  /** The guard of the data directory's disk (the server's, which logs and measures it). */
  diskSpace?: DiskSpaceGuard
  /**
   * How often the storage's tables that grew are vacuumed and analyzed, and the WAL checkpointed:
   * PGlite has no autovacuum and no checkpointer (maintenance.ts). 0 turns it off. @default 60000
   */
  maintenanceIntervalMs?: number
}

/**
 * The part of a PGlite instance this storage uses, written out so that affiliate-kit's types do
 * not load PGlite's own (they need `@types/emscripten`, which PGlite does not install). Any
 * `new PGlite()` fits.
 */
export interface PgliteInstance {
  readonly waitReady: Promise<void>
  query(...args: never[]): Promise<unknown>
  transaction(...args: never[]): Promise<unknown>
  execProtocol(...args: never[]): Promise<unknown>
  close(): Promise<void>
}

/**
 * Storage in PGlite: `pgliteStorage()` in memory, `pgliteStorage({ dataDir })` persisted, or
 * `pgliteStorage({ db })` on your own instance. Tables live in `schema`; migrations run on first use.
 */
export function pgliteStorage(options: PgliteStorageOptions = {}): StoragePort {
  const dataDir = options.db ? undefined : localDirectory(options.dataDir)
  const unlock = dataDir === undefined ? () => {} : lockDataDir(dataDir)
  let db: PGlite
  try {
    db = (options.db as PGlite | undefined) ?? new PGlite(options.dataDir)
  } catch (error) {
    unlock()
    throw error
  }
  if (!options.db) holdEventLoopUntil(db.waitReady)
  const rows = (result: { rows: unknown[] }) => result.rows as SqlRow[]
  const disk = options.diskSpace ?? (dataDir === undefined ? undefined : diskSpaceGuard(dataDir, { ...(options.minFreeBytes !== undefined ? { minFreeBytes: options.minFreeBytes } : {}) }))
  // Checked before each statement that writes: refused, it never starts, and its transaction rolls back.
  const guard = disk ? (text: string) => void (writesData(text) && disk.checkWrite()) : () => {}
  const intervalMs = options.maintenanceIntervalMs ?? 60_000
  const maintenance =
    intervalMs > 0 ? startMaintenance(db, { schema: options.schema ?? DEFAULT_SCHEMA, intervalMs, mayWrite: () => !disk?.status().low }) : null
  const executor: SqlExecutor = {
    inTransaction: false,
    singleConnection: true,
    // A statement with parameters runs prepared in a transaction of its own: PGlite's query()
    // parses and plans it afresh each time, which costs more than the BEGIN and COMMIT.
    query: async (text, params) => {
      guard(text)
      return (params?.length ? db.transaction(() => preparedQuery(db, text, params)) : rows(await db.query(text))) as never
    },
    // Inside our transaction we hold the database, so statements with parameters may run prepared.
    transaction: (fn, last) =>
      db.transaction(async (tx) => {
        const result = await fn(
          nestedClient(async (text, params) => {
            guard(text)
            return (params?.length ? preparedQuery(db, text, params) : rows(await tx.query(text))) as never
          }),
        )
        for (const statement of last?.() ?? []) {
          guard(statement.text)
          const rows = await preparedQuery(db, statement.text, statement.params)
          statement.answered?.(rows)
        }
        return result
      }),
    close: async () => {
      try {
        await maintenance?.stop()
        if (!options.db) await db.close()
      } finally {
        unlock()
      }
    },
  }
  return sqlStorage(executor, options)
}

/**
 * Keeps Node's event loop holding a handle while the engine starts. Its start-up (WebAssembly
 * instantiation, then our first queries) runs on promises alone; whenever the loop has no handle
 * left, Node blocks in its drain of background tasks until every pending WebAssembly tier-up
 * compilation of the engine is done (0.3 to 1 s), and timers and sockets made meanwhile wait.
 */
function holdEventLoopUntil(ready: Promise<void>): void {
  const hold = setInterval(() => {}, 60_000)
  const release = () => clearInterval(hold)
  ready.then(release, release)
}

/** The file system directory of a PGlite dataDir (`./dir` or `file://dir`); undefined for memory. */
function localDirectory(dataDir: string | undefined): string | undefined {
  if (!dataDir || dataDir.startsWith('memory://') || dataDir.startsWith('idb://')) return undefined
  return dataDir.replace(/^file:\/\//, '')
}
