// Values <-> SQL parameters and row values by field kind, rows -> records by their columns
// (tables.ts names them), running a statement with unique violations (23505) mapped to the port's
// UniqueViolation.
import { UniqueViolation, type UniqueConstraint } from '../../core/storage.js'
import type { FieldKind } from '../../core/entity.js'
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
  affiliates_referral_code_key: 'affiliate_referral_code',
  link_aliases_alias_key: 'affiliate_link_alias',
  referrals_email_key: 'referral_email',
  conversions_reference_key: 'conversion_reference',
  coupons_code_key: 'coupon_code',
  provider_events_event_key: 'provider_event',
}

/** Rethrows a unique violation as the port's UniqueViolation; other errors unchanged. */
export function mapError(error: unknown): never {
  const pgError = error as { code?: unknown; constraint?: unknown } | null
  if (pgError && pgError.code === '23505' && typeof pgError.constraint === 'string') {
    const constraint = CONSTRAINTS[pgError.constraint]
    if (constraint) throw new UniqueViolation(constraint)
  }
  throw error
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
