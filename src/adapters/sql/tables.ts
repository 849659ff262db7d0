// Where every entity is stored: its table's qualified name and its columns. A field's column is
// its name in snake_case, money with `_minor` (exact minor units, NUMERIC): `baseValue` is
// `base_value_minor`. The core defines the fields (src/core/model/entities.ts); the columns are named
// here only, and test/adapters/sql/sql-adapter.test.ts checks them against the migrated schema.
import * as entities from '../../core/model/entities.js'
import type { FieldKind, Fields, RecordOf } from '../../core/model/entity.js'
import type { Affiliate } from '../../core/model/types.js'
import { decode, decodeRow, type Column, type Columns } from './codec.js'
import { SqlTable } from './table.js'

/** The column of a field: `paidByPayoutId` is `paid_by_payout_id`, money `value` is `value_minor`. */
export function columnName(field: string, kind: FieldKind): string {
  const column = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
  return kind === 'money' ? `${column}_minor` : column
}

/** The columns of an entity's fields. */
export function columnsOf<F extends Fields>(fields: F): { readonly [K in keyof F]: Column } {
  const columns: Record<string, Column> = {}
  for (const [field, { kind }] of Object.entries(fields)) columns[field] = { column: columnName(field, kind), kind }
  return columns as { readonly [K in keyof F]: Column }
}

/** The running totals kept on the affiliate's row (written by the affiliates repository's totalsUpdate). */
export const affiliateTotalsColumns = columnsOf(entities.affiliateTotalsFields)
const affiliateColumns: Columns = columnsOf(entities.affiliateFields)

export function createTables(s: string) {
  const table = <F extends Fields>(name: string, fields: F) => new SqlTable<RecordOf<F>>(`${s}.${name}`, columnsOf(fields))
  return {
    schema: s,
    projects: table('projects', entities.projectFields),
    apiKeys: table('api_keys', entities.apiKeyFields),
    affiliates: new SqlTable<Affiliate>(`${s}.affiliates`, affiliateColumns, (row) => ({
      ...decodeRow<Omit<Affiliate, 'totals'>>(affiliateColumns, row),
      totals: decodeRow<Affiliate['totals']>(affiliateTotalsColumns, row),
    })),
    referrals: table('referrals', entities.referralFields),
    conversions: table('conversions', entities.conversionFields),
    coupons: table('coupons', entities.couponFields),
    links: table('links', entities.linkFields),
    clicks: table('clicks', entities.clickFields),
    payouts: table('payouts', entities.payoutFields),
    ledger: table('ledger_movements', entities.ledgerMovementFields),
    payoutRequests: table('payout_requests', entities.payoutRequestFields),
    providerPayouts: table('provider_payouts', entities.providerPayoutFields),
    endpoints: table('webhook_endpoints', entities.webhookEndpointFields),
    events: table('webhook_events', entities.webhookEventFields),
    deliveries: table('deliveries', entities.deliveryFields),
    attempts: table('delivery_attempts', entities.deliveryAttemptFields),
    providerEvents: table('provider_events', entities.providerEventFields),
    mail: table('mail_messages', entities.mailMessageFields),
    mailAttempts: table('mail_attempts', entities.mailAttemptFields),
    /** One row once a mail dispatcher has run (repositories/mail.ts). */
    mailSwitch: `${s}.mail_switch`,
    /** The per-day counters (written by the tracking repository's dailyUpsert, also inside a conversion's insert). */
    daily: `${s}.tracking_daily`,
    /**
     * Statement texts built from a shape (which columns a write touches), kept for the storage's
     * life: repositories are built per transaction, and the same text each time is also what lets
     * PostgreSQL reuse its prepared statement.
     */
    statements: new Map<string, string>(),
  }
}

export type Tables = ReturnType<typeof createTables>

/** Reads a numeric aggregate as bigint minor units. */
export const money = (value: unknown): bigint => (decode('money', value) as bigint | null) ?? 0n
