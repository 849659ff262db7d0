// The tables of every entity: its qualified name and the entity's field definitions (columns and
// codecs, from src/core/entities.ts).
import * as entities from '../../core/entities.js'
import type { Fields, RecordOf } from '../../core/entity.js'
import type { Affiliate } from '../../core/types.js'
import { decode, decodeRow, SqlTable } from './codec.js'

export function createTables(s: string) {
  const table = <F extends Fields>(name: string, fields: F) => new SqlTable<RecordOf<F>>(`${s}.${name}`, fields)
  return {
    schema: s,
    projects: table('projects', entities.projectFields),
    apiKeys: table('api_keys', entities.apiKeyFields),
    affiliates: new SqlTable<Affiliate>(`${s}.affiliates`, entities.affiliateFields, (row) => ({
      ...decodeRow<Omit<Affiliate, 'totals'>>(entities.affiliateFields, row),
      totals: decodeRow<Affiliate['totals']>(entities.affiliateTotalsFields, row),
    })),
    referrals: table('referrals', entities.referralFields),
    conversions: table('conversions', entities.conversionFields),
    coupons: table('coupons', entities.couponFields),
    clicks: table('clicks', entities.clickFields),
    payouts: table('payouts', entities.payoutFields),
    endpoints: table('webhook_endpoints', entities.webhookEndpointFields),
    events: table('webhook_events', entities.webhookEventFields),
    deliveries: table('deliveries', entities.deliveryFields),
    attempts: table('delivery_attempts', entities.deliveryAttemptFields),
    providerEvents: table('provider_events', entities.providerEventFields),
    /** The per-day counters (written by counters.ts, read by the tracking repository). */
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
