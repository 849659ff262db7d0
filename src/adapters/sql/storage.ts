// sqlStorage(executor): the whole storage port in SQL, shared by the PGlite and PostgreSQL
// entry points: one repository per entity (repositories/, each with its statements) over the
// tables of tables.ts. Migrations run on first use; root calls made inside one of this storage's
// transactions fail loudly (they would deadlock on PGlite and see stale data on PostgreSQL).
// With `logSql`, the repositories' statements go through the SQL log (sql-log.ts).
import { AsyncLocalStorage } from 'node:async_hooks'
import { mailAttemptRules } from '../../core/ports/entity-filters.js'
import type { StorageTx } from '../../core/ports/storage.js'
import type { AdapterRepositories, StoragePort } from '../storage-port.js'
import { sqlEntityTable } from './entity-table.js'
import type { SqlClient, SqlExecutor } from './executor.js'
import { migrate, quoteSchema, type AppliedMigration } from './migrations.js'
import { conversionRepository } from './repositories/conversions.js'
import { affiliateRepository } from './repositories/affiliates.js'
import { apiKeyRepository } from './repositories/api-keys.js'
import { clickRepository } from './repositories/clicks.js'
import { couponRepository } from './repositories/coupons.js'
import { linkRepository } from './repositories/links.js'
import { payoutRepository } from './repositories/payouts.js'
import { ledgerRepository } from './repositories/ledger.js'
import { payoutRequestRepository } from './repositories/payout-requests.js'
import { providerPayoutRepository } from './repositories/provider-payouts.js'
import { projectRepository } from './repositories/projects.js'
import { referralRepository } from './repositories/referrals.js'
import { webhookEndpointRepository } from './repositories/webhook-endpoints.js'
import { keyedStateStore } from './repositories/keyed-state.js'
import { deliveryLog, outboxRepository } from './repositories/outbox.js'
import { mailRepository } from './repositories/mail.js'
import { providerEventRepository } from './repositories/provider-events.js'
import { trackingRepository } from './repositories/tracking.js'
import { erasureRepository } from './repositories/erasure.js'
import { sqlRetention } from './repositories/retention.js'
import { sqlSessionStore } from './repositories/sessions.js'
import { sqlAuditLog } from './repositories/audit-log.js'
import { analyticsRepository } from './repositories/analytics.js'
import { sqlClickPartitions, type SqlClickPartitions } from './repositories/click-partitions.js'
import { CLICK_MONTHS_AHEAD } from '../../core/ports/analytics.js'
import { mapTransactionError } from './codec.js'
import { createTables, type Tables } from './tables.js'
import { loggedExecutor, type SqlLogOption } from './sql-log.js'
import { statementsBeforeCommit, transactionState, type TransactionState } from './repositories/transaction-state.js'

/** The schema of the tables when `schema` is not given. */
export const DEFAULT_SCHEMA = 'affiliate_kit'

export interface SqlStorageOptions {
  /**
   * Schema holding the tables, beside the host application's own.
   * @default 'affiliate_kit'
   */
  schema?: string
  /**
   * Called as each migration has run, inside the migrations' transaction (`onMigrated` follows
   * once they are committed), with how long it took.
   */
  onMigration?: (migration: AppliedMigration & { ms: number }) => void
  /** Called once the schema is up to date, with the migrations this storage applied (often none). */
  onMigrated?: (applied: AppliedMigration[]) => void
  /**
   * Logs every statement the storage runs (not the migrations), with BEGIN, COMMIT and ROLLBACK:
   * its text and how many parameters it has, never their values. A function receives each
   * `{ text, params }`; true prints them to stdout. For debugging (docs/operations.md "SQL log").
   * @default off
   */
  logSql?: SqlLogOption
}

/**
 * The repositories of the port over a client (a transaction's, or the root one), each made when
 * first read: a create uses 5 of the 22, and making them all cost about 10 µs per transaction.
 * Own enumerable getters, so a spread of the object (a wrapper's `{ ...tx }`) still has them all.
 */
function repositories(db: SqlClient, t: Tables, cache: TransactionState | null, partitions: SqlClickPartitions): AdapterRepositories {
  const made: Partial<AdapterRepositories> = {}
  return {
    get projects() { return (made.projects ??= projectRepository(db, t)) },
    get apiKeys() { return (made.apiKeys ??= apiKeyRepository(db, t)) },
    get affiliates() { return (made.affiliates ??= affiliateRepository(db, t, cache)) },
    get referrals() { return (made.referrals ??= referralRepository(db, t)) },
    get conversions() { return (made.conversions ??= conversionRepository(db, t, cache)) },
    get coupons() { return (made.coupons ??= couponRepository(db, t)) },
    get links() { return (made.links ??= linkRepository(db, t)) },
    get clicks() { return (made.clicks ??= clickRepository(db, t)) },
    get payouts() { return (made.payouts ??= payoutRepository(db, t)) },
    get ledger() { return (made.ledger ??= ledgerRepository(db, t)) },
    get payoutRequests() { return (made.payoutRequests ??= payoutRequestRepository(db, t)) },
    get providerPayouts() { return (made.providerPayouts ??= providerPayoutRepository(db, t)) },
    get webhookEndpoints() { return (made.webhookEndpoints ??= webhookEndpointRepository(db, t, cache)) },
    get outbox() { return (made.outbox ??= outboxRepository(db, t, cache)) },
    get deliveries() { return (made.deliveries ??= deliveryLog(db, t, cache).deliveries) },
    get deliveryAttempts() { return (made.deliveryAttempts ??= deliveryLog(db, t, cache).deliveryAttempts) },
    get providerEvents() { return (made.providerEvents ??= providerEventRepository(db, t, cache)) },
    get tracking() { return (made.tracking ??= trackingRepository(db, t, cache)) },
    get analytics() { return (made.analytics ??= analyticsRepository(db, t, partitions)) },
    get mail() { return (made.mail ??= mailRepository(db, t)) },
    get mailAttempts() { return (made.mailAttempts ??= sqlEntityTable(db, t.mailAttempts, mailAttemptRules)) },
    get erasure() { return (made.erasure ??= erasureRepository(db, t)) },
    get auditLog() { return (made.auditLog ??= sqlAuditLog(db, t.schema)) },
  }
}

/** Builds the storage port over an executor; `close()` closes the executor, once however often it is called. */
export function sqlStorage(driver: SqlExecutor, options: SqlStorageOptions = {}): StoragePort {
  const schema = options.schema ?? DEFAULT_SCHEMA
  // Migrations run on the driver's executor, the repositories' statements on the logged one.
  const executor = loggedExecutor(driver, options.logSql)
  const tables = createTables(quoteSchema(schema))
  // Only where it can deadlock: on Node 20 an AsyncLocalStorage turns on promise hooks for the whole
  // process, a cost on every promise of every request.
  const inTransaction = driver.singleConnection ? new AsyncLocalStorage<true>() : null
  let closing: Promise<void> | undefined
  let ready: Promise<void> | null = null
  const guard = (what: string) => {
    if (inTransaction?.getStore()) {
      throw new Error(`affiliate-kit sql storage: ${what} was called inside a transaction; use the tx argument`)
    }
  }
  // The months' transactions run on the driver: before the storage is ready, while opening it.
  const partitions = sqlClickPartitions({
    schema: tables.schema,
    singleConnection: driver.singleConnection === true,
    transaction: (fn) => {
      guard('the click partitions')
      return driver.transaction(fn)
    },
  })
  const ensureReady = () => {
    if (!ready) {
      ready = migrate(driver, schema, options.onMigration)
        .then((applied) => options.onMigrated?.(applied))
        // Without its month's partition a click goes to the default partition: opening never waits on a busy lock for it.
        .then(() => partitions.prepare(new Date(), CLICK_MONTHS_AHEAD).catch(() => {}))
      ready.catch(() => (ready = null))
    }
    return ready
  }

  // Root repositories run each statement on its own; multi-statement methods open their own transaction.
  const rootClient: SqlClient = {
    inTransaction: false,
    async query(text, params) {
      guard('the root storage')
      await ensureReady()
      return executor.query(text, params)
    },
    transaction: (fn) => transaction((_tx, client) => fn(client)),
  }

  async function transaction<T>(fn: (tx: StorageTx, client: SqlClient) => Promise<T>): Promise<T> {
    guard('transaction()')
    await ensureReady()
    let state = transactionState()
    try {
      const result = await executor.transaction(
        (client) => {
          // A fresh state per attempt: the executor may run fn again after a deadlock.
          state = transactionState()
          const tracked = droppingOnRollback(client, state)
          const run = () => fn(repositories(tracked, tables, state, partitions), tracked)
          return inTransaction ? inTransaction.run(true, run) : run()
        },
        () => statementsBeforeCommit(tables, state),
      )
      for (const write of state.atCommit) write.committed()
      return result
    } catch (error) {
      for (const write of state.atCommit) write.failed(error)
      // A write left for COMMIT breaking a unique index fails the transaction as the port's UniqueViolation.
      return mapTransactionError(error)
    }
  }

  return {
    ...repositories(rootClient, tables, null, partitions),
    transaction: (fn) => transaction((tx) => fn(tx)),
    keyedState: keyedStateStore(rootClient, tables),
    sessions: sqlSessionStore(rootClient, tables.schema),
    auditLog: sqlAuditLog(rootClient, tables.schema),
    retention: sqlRetention(rootClient, tables.schema),
    clickPartitions: {
      prepare: async (from, months) => {
        await ensureReady()
        return partitions.prepare(from, months)
      },
      dropBefore: async (before) => {
        await ensureReady()
        return partitions.dropBefore(before)
      },
    },
    ping: async () => {
      await rootClient.query('SELECT 1')
    },
    // program.close() closes the storage too: an app that then closes the storage it passed in must not fail.
    close: () => (closing ??= driver.close()),
  }
}

/**
 * The client of a transaction whose savepoints, when rolled back, also take the pending events
 * back to what they were (events recorded inside are dropped; ones written inside are pending again)
 * and drop the writes left for COMMIT inside them.
 */
function droppingOnRollback(client: SqlClient, state: TransactionState): SqlClient {
  const tracked: SqlClient = {
    inTransaction: true,
    query: (text, params) => client.query(text, params),
    async transaction(fn) {
      const pending = [...state.pending]
      const mails = [...state.mails]
      const atCommit = state.atCommit.length
      const projectDays = state.projectDays.length
      try {
        return await client.transaction(() => fn(tracked))
      } catch (error) {
        state.pending = pending
        state.mails = mails
        state.projectDays.length = projectDays
        for (const write of state.atCommit.splice(atCommit)) write.failed(error)
        throw error
      }
    },
  }
  return tracked
}
