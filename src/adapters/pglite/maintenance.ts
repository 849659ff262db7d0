// PGlite runs PostgreSQL as one backend with no background workers: nothing vacuums, analyzes or
// checkpoints by itself. Without ANALYZE, the plans made while the tables were small stay in use
// as they grow; without VACUUM, dead row versions and unset visibility maps make every read walk
// more; without a checkpoint, the WAL's files are never recycled. Measured in-process at 12,500
// conversions: a purchase cost 10 ms of CPU, 5 ms after an ANALYZE, 4 ms after VACUUM (ANALYZE)
// (docs/scaling.md "PGlite"). This does autovacuum's and the checkpointer's jobs on the storage's
// own tables, between transactions (PGlite's mutex orders them), each `intervalMs`.

/** What maintenance needs of a PGlite instance. */
export interface MaintainedDatabase {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>
  exec(text: string): Promise<unknown>
}

export interface PgliteMaintenanceOptions {
  schema: string
  intervalMs: number
  /** False skips a round (the disk is short of space: VACUUM and CHECKPOINT write). */
  mayWrite?: () => boolean
}

/** A table is vacuumed and analyzed once its heap is this much larger than when last done. */
const GROWTH = 1.1
/** Tables smaller than this (8 pages) are read whole whatever the plan. */
const MIN_BYTES = 8 * 8192
/** A checkpoint once this much WAL was written since the last. */
const WAL_BYTES = 64 * 1024 * 1024

/** The storage's tables whose heap grew by a tenth since VACUUM or ANALYZE last measured it (pg_class.relpages). */
async function grownTables(db: MaintainedDatabase, schema: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind = 'r' AND pg_relation_size(c.oid) >= $2
       AND pg_relation_size(c.oid) >= $3 * c.relpages::float8 * current_setting('block_size')::int`,
    [schema, MIN_BYTES, GROWTH],
  )
  return rows.map((row) => row.name)
}

async function walSinceCheckpoint(db: MaintainedDatabase): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::text AS bytes FROM pg_control_checkpoint()')
  return Number(rows[0]?.bytes ?? 0)
}

/** One round: the grown tables vacuumed and analyzed, then a checkpoint when `walBytes` of WAL were written since the last. */
export async function maintainOnce(db: MaintainedDatabase, schema: string, walBytes = WAL_BYTES): Promise<{ tables: string[]; checkpoint: boolean }> {
  const tables = await grownTables(db, schema)
  for (const table of tables) await db.exec(`VACUUM (ANALYZE) ${table}`)
  const checkpoint = (await walSinceCheckpoint(db)) >= walBytes
  if (checkpoint) await db.exec('CHECKPOINT')
  return { tables, checkpoint }
}

/** Runs maintainOnce every `intervalMs` until stopped (a round still running skips the next; a failed one is tried again). */
export function startMaintenance(db: MaintainedDatabase, options: PgliteMaintenanceOptions): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null
  const timer = setInterval(() => {
    if (running || (options.mayWrite && !options.mayWrite())) return
    running = maintainOnce(db, options.schema)
      .catch(() => {})
      .finally(() => (running = null))
  }, options.intervalMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
