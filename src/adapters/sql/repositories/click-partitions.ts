// The raw clicks' monthly partitions (docs/analytics.md "Retention and partitions"):
// `link_clicks_YYYY_MM` holds the clicks whose hour falls in that UTC month. They are made ahead:
// when the storage opens, by the pruning pass, and for a batch holding a month not known to be
// made. Each is made in a transaction of its own under an advisory lock, so processes making the
// same month at once queue and the later ones find it made. A month whose clicks already went to
// the default partition (nothing made it in time) is made by moving them into a new table
// attached as the month. Dropping a month drops its table; the default partition is never dropped,
// only its rows of those months deleted.
import type { ClickPartitions } from '../../../core/ports/analytics.js'
import type { SqlClient } from '../executor.js'

/** How long making or dropping a month waits for the table's lock before giving up (the rows then go to the default partition). */
const LOCK_TIMEOUT = '2s'

const PARTITION_NAME = /^link_clicks_(\d{4})_(\d{2})$/

/** check_violation: the default partition holds rows of the month being made. */
const ROWS_IN_DEFAULT = '23514'
/** duplicate_table, and unique_violation of the catalog when two sessions create one name at once. */
const ALREADY_MADE = new Set(['42P07', '23505'])

/** The first instant (UTC) of the month of `at`, as milliseconds. */
export const monthOf = (at: Date): number => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)

const nextMonth = (month: number, count = 1): number => {
  const at = new Date(month)
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + count, 1)
}

const partitionName = (month: number): string => {
  const at = new Date(month)
  return `link_clicks_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`
}

const bound = (month: number): string => `'${new Date(month).toISOString()}'`

/** The clicks' partitions of one storage; `ensure` is what a batch's insert calls. */
export interface SqlClickPartitions extends ClickPartitions {
  /**
   * Makes the months of these hours, where not known to be made, before rows of them are written
   * through `db`. Never fails: a month it cannot make now (its lock is busy) takes its rows into
   * the default partition, and a later prepare makes it.
   */
  ensure(db: SqlClient, hours: readonly Date[]): Promise<void>
}

export interface PartitionDatabase {
  /** `{s}`, the quoted schema. */
  schema: string
  /** Runs fn in a transaction of its own (another connection than a running transaction's, on PostgreSQL). */
  transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T>
  /** One connection for everything (PGlite): a batch's months are made inside its own transaction. */
  singleConnection: boolean
}

export function sqlClickPartitions(database: PartitionDatabase): SqlClickPartitions {
  const s = database.schema
  const unquoted = s.slice(1, -1)
  /** Months (their first instant) known to have a partition. */
  const known = new Set<number>()

  async function madeMonths(client: SqlClient): Promise<number[]> {
    const rows = await client.query(
      `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace n ON n.oid = p.relnamespace
       WHERE n.nspname = $1 AND p.relname = 'link_clicks'`,
      [unquoted],
    )
    const months: number[] = []
    for (const row of rows) {
      const match = PARTITION_NAME.exec(String(row.name))
      if (match) months.push(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1))
    }
    return months
  }

  async function lockPartitions(client: SqlClient, waitBounded: boolean): Promise<void> {
    if (waitBounded) await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`)
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`affiliate-kit:${unquoted}:link_clicks`])
  }

  /** Makes the month in the client's transaction (under the lock), unless it exists. */
  async function makeMonth(client: SqlClient, month: number, waitBounded: boolean): Promise<void> {
    const name = partitionName(month)
    await lockPartitions(client, waitBounded)
    const [exists] = await client.query('SELECT to_regclass($1) IS NOT NULL AS made', [`${s}.${name}`])
    if (exists?.made === true) return
    const range = `FOR VALUES FROM (${bound(month)}) TO (${bound(nextMonth(month))})`
    try {
      await client.transaction((inner) => inner.query(`CREATE TABLE ${s}.${name} PARTITION OF ${s}.link_clicks ${range}`))
    } catch (error) {
      if ((error as { code?: string }).code !== ROWS_IN_DEFAULT) throw error
      // Clicks of this month are in the default partition: they move to the new month's table.
      await client.query(`CREATE TABLE ${s}.${name} (LIKE ${s}.link_clicks INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`)
      await client.query(
        `WITH moved AS (DELETE FROM ${s}.link_clicks_default WHERE hour >= $1 AND hour < $2 RETURNING *) INSERT INTO ${s}.${name} SELECT * FROM moved`,
        [new Date(month), new Date(nextMonth(month))],
      )
      await client.query(`ALTER TABLE ${s}.link_clicks ATTACH PARTITION ${s}.${name} ${range}`)
    }
  }

  /** Makes the month in a transaction of its own. */
  async function makeMonthAlone(month: number): Promise<void> {
    try {
      await database.transaction((client) => makeMonth(client, month, !database.singleConnection))
    } catch (error) {
      if (!ALREADY_MADE.has((error as { code?: string }).code ?? '')) throw error
    }
    known.add(month)
  }

  return {
    async prepare(from, months) {
      const wanted = Array.from({ length: months + 1 }, (_, index) => nextMonth(monthOf(from), index))
      if (wanted.every((month) => known.has(month))) return
      for (const month of await database.transaction(madeMonths)) known.add(month)
      for (const month of wanted) if (!known.has(month)) await makeMonthAlone(month)
    },
    async ensure(db, hours) {
      const missing = new Set<number>()
      for (const hour of hours) {
        const month = monthOf(hour)
        if (!known.has(month)) missing.add(month)
      }
      for (const month of missing) {
        try {
          if (database.singleConnection && db.inTransaction) {
            // The one connection is this transaction's: the month is made inside it, in a savepoint.
            await db.transaction((client) => makeMonth(client, month, false))
            known.add(month)
          } else await makeMonthAlone(month)
        } catch {
          // The rows go to the default partition; the next prepare makes the month (moving them).
        }
      }
    },
    async dropBefore(before) {
      const cutoff = monthOf(before)
      const old = (await database.transaction(madeMonths)).filter((month) => month < cutoff).sort((a, b) => a - b)
      for (const month of old) {
        await database.transaction(async (client) => {
          await lockPartitions(client, !database.singleConnection)
          await client.query(`DROP TABLE IF EXISTS ${s}.${partitionName(month)}`)
        })
        known.delete(month)
      }
      await database.transaction((client) => client.query(`DELETE FROM ${s}.link_clicks_default WHERE hour < $1`, [new Date(cutoff)]))
      return old.length
    },
  }
}
