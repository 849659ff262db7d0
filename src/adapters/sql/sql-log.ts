// The opt-in SQL log (option `logSql` of the PGlite and PostgreSQL storages; the standalone
// server's AFFILIATE_KIT_LOG_SQL=1): every statement the storage runs for its callers, with
// BEGIN / COMMIT / ROLLBACK and savepoints around them, as its text and parameter count. Parameter
// values are never logged: they hold emails, key digests, webhook secrets. Migrations are not
// logged. Without the option the executor is used as it is, at no cost.
import type { SqlClient, SqlExecutor, SqlStatement } from './executor.js'

export interface SqlLogEntry {
  /** The statement, its whitespace collapsed to single spaces (one line). */
  text: string
  /** How many parameters it ran with; their values are never given. */
  params: number
}

/** A function receiving each entry, or true to print them to stdout (`affiliate-kit sql: ... -- 3 params`). */
export type SqlLogOption = boolean | ((entry: SqlLogEntry) => void)

const printed = ({ text, params }: SqlLogEntry) => console.log(`affiliate-kit sql: ${text} -- ${params} params`)

/** The executor itself when logging is off; else one telling `logSql` each statement before it runs. */
export function loggedExecutor(executor: SqlExecutor, logSql: SqlLogOption | undefined): SqlExecutor {
  if (!logSql) return executor
  const write = logSql === true ? printed : logSql
  // Statement texts repeat (they are built once per shape): each is collapsed once.
  const collapsed = new Map<string, string>()
  const log = (text: string, params: readonly unknown[] = []) => {
    let line = collapsed.get(text)
    if (line === undefined) {
      line = text.replace(/\s+/g, ' ').trim()
      if (collapsed.size < 1000) collapsed.set(text, line)
    }
    write({ text: line, params: params.length })
  }
  const logged = (client: SqlClient): SqlClient => {
    const wrapped: SqlClient = {
      inTransaction: client.inTransaction,
      query(text, params) {
        log(text, params)
        return client.query(text, params)
      },
      async transaction(fn) {
        log('SAVEPOINT')
        try {
          const result = await client.transaction((inner) => fn(logged(inner)))
          log('RELEASE SAVEPOINT')
          return result
        } catch (error) {
          log('ROLLBACK TO SAVEPOINT')
          throw error
        }
      },
    }
    return wrapped
  }
  return {
    ...logged(executor),
    async transaction(fn, last) {
      let ended = false
      const lastLogged = last && ((): readonly SqlStatement[] => {
        const statements = last()
        for (const statement of statements) log(statement.text, statement.params)
        return statements
      })
      try {
        const result = await executor.transaction(async (client) => {
          // Once per attempt: PostgreSQL runs a deadlocked transaction again.
          log('BEGIN')
          ended = false
          try {
            return await fn(logged(client))
          } catch (error) {
            ended = true
            log('ROLLBACK')
            throw error
          }
        }, lastLogged)
        log('COMMIT')
        return result
      } catch (error) {
        // fn returned, but the statement before COMMIT or the COMMIT failed.
        if (!ended) log('ROLLBACK')
        throw error
      }
    },
    close: () => executor.close(),
  }
}
