// Values <-> SQL parameters and row values by field kind, rows -> records by their columns
// (tables.ts names them), running a statement with PostgreSQL's errors mapped to the core's: unique
// violations (23505) to the port's UniqueViolation, a row referred to but deleted meanwhile (23503)
// to a 404 or 409, concurrent writes that outlasted their retries (40P01, 40001) to a 503.
import { BusyError, ConflictError, NotFoundError } from '../../core/model/errors.js'
import { UniqueViolation, type UniqueConstraint } from '../../core/ports/storage.js'
import type { FieldKind } from '../../core/model/entity.js'
import type { SqlClient, SqlRow } from './executor.js'

/** Where a field is stored: its column and the kind its value is encoded and decoded by. */
export interface Column {
  readonly column: string
  readonly kind: FieldKind
}

/** The columns of an entity's fields, by field name. */
export type Columns = Readonly<Record<string, Column>>

const CONSTRAINTS: Record<string, UniqueConstraint> = {
  projects_name_key: 'project_name',
  api_keys_hash_key: 'api_key_hash',
  affiliates_email_key: 'affiliate_email',
  affiliates_external_id_key: 'affiliate_external_id',
  affiliates_referral_code_key: 'affiliate_referral_code',
  links_key_key: 'link_key',
  referrals_email_key: 'referral_email',
  conversions_reference_key: 'conversion_reference',
  coupons_code_key: 'coupon_code',
  provider_events_event_key: 'provider_event',
}

/** What a missing row of a table is called in a 404, with the input field that names it. */
const MISSING: Record<string, readonly [message: string, field: string]> = {
  affiliates: ['affiliate not found', 'affiliateId'],
  referrals: ['referred user not found', 'referredUserId'],
  payouts: ['payout not found', 'payoutId'],
  webhook_endpoints: ['webhook endpoint not found', 'endpointId'],
}

/** deadlock_detected and serialization_failure, once the storage's own retries ran out. */
const BUSY_CODES = new Set(['40P01', '40001'])

/** Rethrows a PostgreSQL error the core knows as the core's error (see the header); other errors unchanged. */
export function mapError(error: unknown): never {
  const pgError = error as { code?: unknown; constraint?: unknown; detail?: unknown } | null
  if (pgError && pgError.code === '23505' && typeof pgError.constraint === 'string') {
    const constraint = CONSTRAINTS[pgError.constraint]
    if (constraint) throw new UniqueViolation(constraint)
  }
  if (pgError && pgError.code === '23503') throw missingRow(String(pgError.detail ?? ''))
  throw error
}

/**
 * mapError for a transaction that failed for good: a deadlock or serialization failure is one
 * the executor no longer runs again (inside, it stays PostgreSQL's, for the executor to retry).
 */
export function mapTransactionError(error: unknown): never {
  if (BUSY_CODES.has((error as { code?: unknown } | null)?.code as string)) {
    throw new BusyError('too many concurrent writes on the same records; nothing was stored, send the request again')
  }
  mapError(error)
}

/** A foreign key violated because a row was deleted by a concurrent request: the one written refers to it (404), or it is still referred to (409). */
function missingRow(detail: string): Error {
  const referred = /is still referenced from table "([^"]+)"/.exec(detail)
  if (referred) return new ConflictError(`still referred to by ${referred[1]!.replace(/_/g, ' ')}`)
  const table = /is not present in table "([^"]+)"/.exec(detail)?.[1] ?? ''
  const [message, field] = MISSING[table] ?? [`${table.replace(/_/g, ' ') || 'a record this refers to'} not found`, undefined]
  return new NotFoundError(`${message} (deleted by a concurrent request)`, field)
}

export function encode(kind: FieldKind, value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (kind) {
    case 'money':
      return (value as bigint).toString()
    case 'json':
      return JSON.stringify(value)
    case 'date':
      return value as Date
    default:
      return value
  }
}

export function decode(kind: FieldKind, value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (kind) {
    case 'id':
    case 'int':
    case 'float':
      return Number(value)
    case 'money':
      return BigInt(String(value))
    case 'bool':
      return value === true || value === 't' || value === 'true'
    case 'date':
      return value instanceof Date ? value : new Date(String(value))
    case 'json':
      return typeof value === 'string' ? JSON.parse(value) : value
    default:
      return value
  }
}

export function decodeRow<T>(columns: Columns, row: SqlRow): T {
  const record: Record<string, unknown> = {}
  for (const [name, { column, kind }] of Object.entries(columns)) record[name] = decode(kind, row[column])
  return record as T
}

/** Runs a statement, mapping unique violations. */
export async function run(db: SqlClient, text: string, params: readonly unknown[] = []): Promise<SqlRow[]> {
  try {
    return await db.query(text, params)
  } catch (error) {
    mapError(error)
  }
}

/** Runs fn atomically: in the caller's transaction when there is one, else in a new one. */
export function atomic<T>(db: SqlClient, fn: (db: SqlClient) => Promise<T>): Promise<T> {
  return db.inTransaction ? fn(db) : db.transaction(fn)
}
