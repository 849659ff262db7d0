// Which node-postgres failures mean "the database cannot be used right now" rather than "this
// statement is wrong": a lost connection (restart, failover, pg_terminate_backend, a pooler
// restart), a bounded wait that ran out (statement_timeout, lock_timeout, the pool's checkout
// timeout) or a server refusing sessions. Those become a StorageUnavailableError (HTTP 503).
import { StorageUnavailableError } from '../../core/model/errors.js'

/** SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now, query_canceled (statement_timeout), lock_not_available (lock_timeout), too_many_connections, disk_full. */
const CODES: Record<string, string> = {
  '57P01': 'the database server ended the connection (a restart, failover or terminated session)',
  '57P02': 'the database server crashed',
  '57P03': 'the database server is starting up or shutting down',
  '57014': 'a statement ran longer than the statement timeout',
  '55P03': 'a lock could not be taken within the lock timeout',
  '53300': 'the database server has no connection slot left',
  '53100': "the database server's disk is full",
}

/** Socket-level failures node reports by errno. */
const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED'])

/** pg and pg-pool's own messages for a connection that is gone or never came. */
const MESSAGES: [RegExp, string][] = [
  [/^timeout exceeded when trying to connect/i, 'no pooled connection was free within the checkout timeout'],
  [/Connection terminated/i, 'the connection to the database was lost'],
  [/not queryable/i, 'the connection to the database was lost'],
  [/^Query read timeout/i, 'the database did not answer in time'],
]

/** The failure as a StorageUnavailableError, or null when it is not about reaching the database. */
export function unavailableError(error: unknown): StorageUnavailableError | null {
  if (error instanceof StorageUnavailableError) return error
  if (typeof error !== 'object' || error === null) return null
  const { code, message } = error as { code?: unknown; message?: unknown }
  let reason: string | undefined
  if (typeof code === 'string') reason = CODES[code] ?? (code.startsWith('08') ? 'the connection to the database failed' : NETWORK.has(code) ? `the database cannot be reached (${code})` : undefined)
  if (!reason && typeof message === 'string') reason = MESSAGES.find(([pattern]) => pattern.test(message))?.[1]
  return reason ? new StorageUnavailableError(reason, 5, { cause: error }) : null
}

/** True when the client's connection itself failed (the client must be discarded, not reused). */
export function connectionLost(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown }
  if (code === '57014' || code === '55P03' || code === '53300' || code === '53100') return false
  return unavailableError(error) !== null
}
