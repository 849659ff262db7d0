// The tables of every entity: its qualified name and the entity's field definitions (columns and
// codecs, from src/core/entities.ts).
import {
  affiliateFields,
  affiliateTotalsFields,
  apiKeyFields,
  clickFields,
  conversionFields,
  couponFields,
  deliveryAttemptFields,
  deliveryFields,
  payoutFields,
  projectFields,
  providerEventFields,
  referralFields,
  webhookEndpointFields,
  webhookEventFields,
} from '../../core/entities.js'
import type {
  Affiliate,
  ApiKeyRecord,
  Click,
  Conversion,
  Coupon,
  Delivery,
  DeliveryAttempt,
  Payout,
  Project,
  ProviderEvent,
  Referral,
  WebhookEndpoint,
  WebhookEvent,
} from '../../core/types.js'
import { decode, decodeRow, SqlTable } from './codec.js'

export function createTables(s: string) {
  return {
    schema: s,
    projects: new SqlTable<Project>(`${s}.projects`, projectFields),
    apiKeys: new SqlTable<ApiKeyRecord>(`${s}.api_keys`, apiKeyFields),
    affiliates: new SqlTable<Affiliate>(`${s}.affiliates`, affiliateFields, (row) => ({
      ...decodeRow<Omit<Affiliate, 'totals'>>(affiliateFields, row),
      totals: decodeRow<Affiliate['totals']>(affiliateTotalsFields, row),
    })),
    referrals: new SqlTable<Referral>(`${s}.referrals`, referralFields),
    conversions: new SqlTable<Conversion>(`${s}.conversions`, conversionFields),
    coupons: new SqlTable<Coupon>(`${s}.coupons`, couponFields),
    clicks: new SqlTable<Click>(`${s}.clicks`, clickFields),
    payouts: new SqlTable<Payout>(`${s}.payouts`, payoutFields),
    endpoints: new SqlTable<WebhookEndpoint>(`${s}.webhook_endpoints`, webhookEndpointFields),
    events: new SqlTable<WebhookEvent>(`${s}.webhook_events`, webhookEventFields),
    deliveries: new SqlTable<Delivery>(`${s}.deliveries`, deliveryFields),
    attempts: new SqlTable<DeliveryAttempt>(`${s}.delivery_attempts`, deliveryAttemptFields),
    providerEvents: new SqlTable<ProviderEvent>(`${s}.provider_events`, providerEventFields),
  }
}

export type Tables = ReturnType<typeof createTables>

/** Reads a numeric aggregate as bigint minor units. */
export const money = (value: unknown): bigint => (decode('money', value) as bigint | null) ?? 0n
