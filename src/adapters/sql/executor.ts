// The tiny query interface the SQL storage runs on. The PGlite and pg entry points each supply
// one; everything else (SQL text, migrations, mapping) is shared.

export type SqlRow = Record<string, unknown>

/** A connection, or a transaction on one. */
export interface SqlClient {
  /** Runs one statement with $1.. parameters and returns its rows. */
  query<R extends SqlRow = SqlRow>(text: string, params?: readonly unknown[]): Promise<R[]>
  /**
   * Runs fn atomically: a transaction on the root executor, a savepoint inside a transaction.
   * Throwing out of fn rolls back.
   */
  transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T>
  /** True when this client is a transaction (writes are atomic with its other writes). */
  readonly inTransaction: boolean
}

export interface SqlStatement {
  text: string
  params: readonly unknown[]
  /** Called with the statement's rows once it has run (a statement left for COMMIT: before COMMIT answers). */
  answered?: (rows: SqlRow[]) => void
}

export interface SqlExecutor extends SqlClient {
  /**
   * As SqlClient's; `last`, called once fn has returned, may give more statements for the
   * transaction, run in order just before COMMIT (pipelined, they share its round trip).
   */
  transaction<T>(fn: (client: SqlClient) => Promise<T>, last?: () => readonly SqlStatement[]): Promise<T>
  close(): Promise<void>
  /**
   * One connection for everything (PGlite): a root statement inside a transaction would wait for
   * that transaction forever, so the storage fails it loudly. A pool just uses another connection.
   */
  readonly singleConnection?: boolean
}

/** Savepoint-based nested transactions over a client that is already inside a transaction. */
export function nestedClient(query: SqlClient['query']): SqlClient {
  let depth = 0
  const client: SqlClient = {
    query,
    inTransaction: true,
    async transaction(fn) {
      depth += 1
      const name = `ak_sp_${depth}`
      await query(`SAVEPOINT ${name}`)
      try {
        const result = await fn(client)
        await query(`RELEASE SAVEPOINT ${name}`)
        return result
      } catch (error) {
        await query(`ROLLBACK TO SAVEPOINT ${name}`)
        throw error
      } finally {
        depth -= 1
      }
    },
  }
  return client
}
