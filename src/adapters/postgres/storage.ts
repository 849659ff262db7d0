// postgresStorage(): the SQL storage over a node-postgres Pool, ours (from connectionString) or
// the host's. Each transaction holds one pooled client from BEGIN to COMMIT / ROLLBACK. Nothing
// outlives a transaction on its connection except named prepared statements, so behind a pooler
// in transaction mode (`pooler: 'transaction'`) statements go unnamed (docs/pooler.md).
// Waits are bounded (statement, lock and checkout timeouts), a checked-out client always has an
// 'error' listener, and a lost connection or a timeout is a StorageUnavailableError (HTTP 503).
import { createHash } from 'node:crypto'
import type { Pool, PoolClient, PoolConfig } from 'pg'
import type { StoragePort } from '../storage-port.js'
import { nestedClient, type SqlExecutor, type SqlRow, type SqlStatement } from '../sql/executor.js'
import { sqlStorage, type SqlStorageOptions } from '../sql/storage.js'
import { connectionLost, unavailableError } from './unavailable.js'

/** Defaults of the bounded waits (docs/operations.md#faults). */
export const POSTGRES_TIMEOUTS = { statementTimeoutMs: 15_000, lockTimeoutMs: 5_000, connectionTimeoutMs: 5_000 } as const

export type PostgresStorageOptions = SqlStorageOptions & {
  /**
   * 'transaction': the connections go through a pooler in transaction mode (PgBouncer's
   * `pool_mode = transaction`, Supabase's pooler on port 6543, Neon's `-pooler` host), which may
   * run each transaction on another server connection: statements are then not prepared by name,
   * unless `preparedStatements: true` says the pooler keeps them (docs/pooler.md). A pooler in
   * session mode needs nothing.
   */
  pooler?: 'transaction'
  /**
   * Prepare statements once per connection (named statements), saving parse time. Off by default
   * with `pooler: 'transaction'`; turn on there only when the pooler keeps protocol-level
   * prepared statements (PgBouncer 1.21 or later with `max_prepared_statements` above 0).
   * @default true, false with `pooler: 'transaction'`
   */
  preparedStatements?: boolean
} & (
    | {
        connectionString: string
        /** Connections in the pool this storage creates. @default 10 */
        max?: number
        /**
         * Longest a statement may run (PostgreSQL's statement_timeout, SET on each new
         * connection); past it the request fails with a 503. 0 turns it off. Not set through a pooler in
         * transaction mode (set it on the role there: docs/operations.md). @default 15000
         */
        statementTimeoutMs?: number
        /**
         * Longest a statement waits for a lock (lock_timeout): a table locked by a migration or
         * VACUUM FULL answers 503 after this instead of holding every connection. 0 turns it off.
         * Not set through a pooler in transaction mode. @default 5000
         */
        lockTimeoutMs?: number
        /** Longest a request waits for a free pooled connection (or a new one to open). @default 5000 */
        connectionTimeoutMs?: number
      }
    | {
        /** The host's pool (`new pg.Pool(...)`); `close()` then leaves it open. */
        pool: PostgresPool
      }
  )

/**
 * The part of a node-postgres `Pool` this storage uses, written out so that affiliate-kit's
 * types load neither `pg` nor `@types/pg` in a project that does not use them. Any `pg.Pool` fits.
 */
export interface PostgresPool {
  connect(): Promise<unknown>
  query(...args: never[]): Promise<unknown>
  end(): Promise<void>
}

/** Thrown on first use of a storage made from a connectionString when the pg package is not installed. */
const PG_MISSING = 'affiliate-kit/postgres needs the pg package beside affiliate-kit: run "npm i pg"'

/** pg, loaded on first use: affiliate-kit/postgres loads without it (a host pool needs none). */
async function loadPg(): Promise<typeof import('pg').default> {
  try {
    return (await import('pg')).default
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw Object.assign(new Error(PG_MISSING, { cause: error }), { code: 'ERR_MODULE_NOT_FOUND' })
    throw error
  }
}

/** deadlock_detected and serialization_failure: safe to run the transaction again. */
const RETRIED_CODES = new Set(['40P01', '40001'])

/**
 * A named prepared statement over a table whose columns a newer release's migration changed while
 * this one runs (a rolling deploy: `SELECT *` now returns more columns). Nothing ran: the statement
 * is prepared again on another connection and the work run again (docs/operations.md "Upgrades").
 */
function stalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type')
}
const MAX_ATTEMPTS = 3

const POOLER_HINT = ": is the connection through a pooler in transaction mode? Then set pooler: 'transaction' (AFFILIATE_KIT_POOLER=transaction for the CLI); see docs/pooler.md"

/**
 * Turns on pg's pipeline mode (pg 8.23 and later: a query is written at once, without waiting
 * for the answer to the one before) on a pooled client for one transaction, when the client has
 * it; `restore` sets it back before the client returns to the pool. Null for an older pg.
 */
function pipelining(client: PoolClient): { restore(): void } | null {
  const modes = client as PoolClient & { pipeline?: boolean }
  if (typeof modes.pipeline !== 'boolean') return null
  const before = modes.pipeline
  modes.pipeline = true
  return { restore: () => void (modes.pipeline = before) }
}

/** Runs `send` with the client's socket corked: the statements it writes leave in one packet. */
function corked<T>(client: PoolClient, send: () => T): T {
  const stream = (client as PoolClient & { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream
  stream?.cork?.()
  try {
    return send()
  } finally {
    stream?.uncork?.()
  }
}

/** A pooled client while checked out, with the connection loss it heard of, if any. */
interface CheckedOut {
  client: PoolClient
  lost(): Error | null
  /** Back to the pool; discarded when `broken` or when its connection was lost meanwhile. */
  release(broken: boolean): void
}

/**
 * Listens to a client's 'error' from the moment it is checked out (pg-pool listens only while it
 * is idle). An error message read in the same packet as a statement's last answer reaches the
 * client before any code awaiting that statement runs again: without a listener it is an
 * unhandled 'error' event that ends the process (a failover, pg_terminate_backend).
 */
function listened(client: PoolClient): CheckedOut {
  let lost: Error | null = null
  const onError = (error: Error) => void (lost ??= error)
  client.on('error', onError)
  return {
    client,
    lost: () => lost,
    release(broken) {
      client.off('error', onError)
      // Released with an error, the pool ends the client instead of lending it again.
      client.release(lost ?? (broken || undefined))
    },
  }
}

/**
 * Storage in PostgreSQL: `postgresStorage({ connectionString })` or `postgresStorage({ pool })`
 * with your own `pg` Pool. Tables live in `schema`; migrations run on first use, once, even when
 * several processes start together.
 */
export function postgresStorage(options: PostgresStorageOptions): StoragePort {
  const owned = !('pool' in options)
  let pool: Pool | undefined = 'pool' in options ? (options.pool as unknown as Pool) : undefined
  let opening: Promise<Pool> | undefined
  // Checked now (a bad setting throws here), the pool made on first use: pg loads only then.
  const own = 'pool' in options ? null : ownPoolSettings(options)
  const open = (): Promise<Pool> => (opening ??= loadPg().then((pg) => (pool = ownPool(pg, own!))))
  // Statements with parameters are prepared once per connection (named), saving parse time.
  const prepared = options.preparedStatements ?? options.pooler !== 'transaction'
  const names = new Map<string, string>()
  // Bumped when a migration made the prepared statements stale (stalePlan): every connection then
  // prepares each statement again under a new name.
  let generation = 0
  const config = (text: string, params: readonly unknown[] | undefined) => {
    if (!params || params.length === 0 || !prepared) return { text, values: params ? [...params] : [] }
    let name = names.get(text)
    // Named by content, so storages on other schemas sharing a host pool never clash.
    if (!name) names.set(text, (name = `affiliate_kit_${createHash('sha256').update(text).digest('hex').slice(0, 24)}${generation > 0 ? `_${generation}` : ''}`))
    return { name, text, values: [...params] }
  }
  const forgetPrepared = (error: unknown): boolean => {
    if (!stalePlan(error)) return false
    generation += 1
    names.clear()
    return true
  }
  // A named statement that this server connection lacks (26000) or already has (42P05): another
  // client's connection, lent by a pooler in transaction mode. The error says what to set.
  const explained = (error: unknown): unknown => {
    const { code, message } = error as { code?: unknown; message?: unknown }
    if (prepared && (code === '26000' || code === '42P05') && typeof message === 'string' && !message.includes(POOLER_HINT)) {
      ;(error as { message: string }).message = `${message}${POOLER_HINT}`
    }
    return error
  }
  // Connections of our pool whose bounded waits are set (ownPoolSettings): once, before their first statement.
  const timed = new WeakSet<PoolClient>()
  const checkout = async (): Promise<CheckedOut> => {
    const client = await (pool ?? (await open())).connect().catch((error: unknown) => {
      throw unavailableError(error) ?? error
    })
    const held = listened(client)
    if (own?.settings && !timed.has(client)) {
      try {
        await client.query(own.settings)
      } catch (error) {
        held.release(true)
        throw unavailableError(error) ?? error
      }
      timed.add(client)
    }
    return held
  }
  const transactionOnce: SqlExecutor['transaction'] = async (fn, last) => {
    const held = await checkout()
    const { client } = held
    const pipelined = pipelining(client)
    let begun = false
    let broken = false
    const query = (text: string, params?: readonly unknown[]) => client.query(config(text, params))
    try {
      if (!pipelined) {
        await client.query('BEGIN')
        begun = true
      }
      const result = await fn(
        nestedClient(async (text, params) => {
          if (begun) return (await query(text, params)).rows as never
          // Pipelined, BEGIN leaves with the transaction's first statement, in one packet.
          begun = true
          const [, first] = await Promise.all(corked(client, () => [client.query('BEGIN'), query(text, params)]))
          return first.rows as never
        }),
      )
      const statements = last?.() ?? []
      // Written at once (inside `corked`), answered in order.
      const answered = (statement: SqlStatement) => query(statement.text, statement.params).then((done) => statement.answered?.(done.rows))
      if (!pipelined) {
        for (const statement of statements) await answered(statement)
        await client.query('COMMIT')
      } else if (begun || statements.length > 0) {
        // The last statements leave with COMMIT (and BEGIN, when fn ran none). When one fails, the
        // aborted transaction's COMMIT rolls back, and its error is the one thrown.
        const opening = begun ? [] : [client.query('BEGIN')]
        begun = true
        await Promise.all(corked(client, () => [...opening, ...statements.map(answered), client.query('COMMIT')]))
      }
      return result
    } catch (error) {
      // A lost connection rolls back on the server by itself; the client is discarded. A stale
      // prepared statement (stalePlan) renames them all, and the client is discarded too.
      if (held.lost() !== null || connectionLost(error)) broken = true
      else {
        if (forgetPrepared(error)) broken = true
        if (begun) await client.query('ROLLBACK').catch(() => (broken = true))
      }
      throw unavailableError(error) ?? explained(error)
    } finally {
      pipelined?.restore()
      held.release(broken)
    }
  }
  const executor: SqlExecutor = {
    inTransaction: false,
    async query(text, params) {
      for (let attempt = 1; ; attempt += 1) {
        const held = await checkout()
        let broken = false
        try {
          return (await held.client.query(config(text, params))).rows as never
        } catch (error) {
          // A lost connection, or one whose prepared statements a migration made stale: discarded.
          const stale = forgetPrepared(error)
          broken = connectionLost(error) || stale
          if (stale && attempt < MAX_ATTEMPTS) continue
          throw unavailableError(error) ?? explained(error)
        } finally {
          held.release(broken)
        }
      }
    },
    async transaction(fn, last) {
      // PostgreSQL ends one of two transactions that wait on each other's rows (deadlock) or on a
      // serialization conflict; the work is run again from the start, as PostgreSQL advises.
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await transactionOnce(fn, last)
        } catch (error) {
          if (attempt >= MAX_ATTEMPTS || !(RETRIED_CODES.has((error as { code?: unknown }).code as string) || stalePlan(error))) throw error
        }
      }
    },
    close: async () => {
      // A pool never opened (no statement ran, or pg is missing) has nothing to end.
      if (owned) await (pool ?? (await opening?.catch(() => undefined)))?.end()
    },
  }
  return sqlStorage(executor, options)
}

/** The pool settings of a storage that owns its pool, checked: bounded waits, TCP keepalive. */
function ownPoolSettings(options: { connectionString: string; max?: number; statementTimeoutMs?: number; lockTimeoutMs?: number; connectionTimeoutMs?: number; pooler?: 'transaction' }) {
  const statementTimeout = milliseconds('statementTimeoutMs', options.statementTimeoutMs ?? POSTGRES_TIMEOUTS.statementTimeoutMs)
  const lockTimeout = milliseconds('lockTimeoutMs', options.lockTimeoutMs ?? POSTGRES_TIMEOUTS.lockTimeoutMs)
  const config: PoolConfig = {
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: milliseconds('connectionTimeoutMs', options.connectionTimeoutMs ?? POSTGRES_TIMEOUTS.connectionTimeoutMs),
    keepAlive: true,
  }
  // Set on each new connection by a statement before its first (checkout in postgresStorage): as
  // startup parameters a pooler (PgBouncer, even in session mode) refuses them. Through a pooler in transaction
  // mode a SET would outlive the transaction on a server connection others use: the role's
  // settings bound the waits there (docs/operations.md#faults).
  const settings = options.pooler === 'transaction' ? null : `SET statement_timeout = ${statementTimeout}; SET lock_timeout = ${lockTimeout}`
  return { config, settings }
}

/** The pool this storage owns, with no crash when an idle client's connection is lost. */
function ownPool(pg: typeof import('pg').default, { config }: ReturnType<typeof ownPoolSettings>): Pool {
  const pool = new pg.Pool(config)
  pool.on('error', () => {})
  // A connection ended in the same network read that finished its start-up arrives before any
  // listener of a checkout: every client of ours keeps one for its whole life.
  pool.on('connect', (client) => client.on('error', () => {}))
  return pool
}

function milliseconds(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a whole number of milliseconds, 0 or more`)
  return value
}
