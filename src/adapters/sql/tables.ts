// Column maps of every table: which record field lives in which column, and how it is encoded.
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
  Referral,
  WebhookEndpoint,
  WebhookEvent,
} from '../../core/types.js'
import { decode, decodeRow, SqlTable, type Columns } from './codec.js'

const base = { id: ['id', 'id'], projectId: ['project_id', 'text'], createdAt: ['created_at', 'date'] } as const

export const affiliateTotals: Columns = {
  countedValue: ['counted_value_minor', 'money'],
  paidValue: ['paid_value_minor', 'money'],
  credit: ['credit_minor', 'money'],
  clicks: ['clicks', 'int'],
  signups: ['signups', 'int'],
  purchases: ['purchases', 'int'],
}

export function createTables(s: string) {
  const affiliateColumns: Columns = {
    ...base,
    email: ['email', 'text'],
    name: ['name', 'text'],
    referralCode: ['referral_code', 'text'],
    status: ['status', 'text'],
    partnerSlug: ['partner_slug', 'text'],
    paymentMethod: ['payment_method', 'text'],
    paymentDetails: ['payment_details', 'text'],
    payoutMethod: ['payout_method', 'text'],
    paypalEmail: ['paypal_email', 'text'],
    wiseDetails: ['wise_details', 'json'],
    parentId: ['parent_id', 'id'],
    customFields: ['custom_fields', 'json'],
  }
  return {
    schema: s,
    projects: new SqlTable<Project>(`${s}.projects`, {
      id: ['id', 'text'],
      name: ['name', 'text'],
      settings: ['settings', 'json'],
      createdAt: ['created_at', 'date'],
    }),
    apiKeys: new SqlTable<ApiKeyRecord>(`${s}.api_keys`, {
      ...base,
      name: ['name', 'text'],
      prefix: ['prefix', 'text'],
      hash: ['hash', 'text'],
      scopes: ['scopes', 'json'],
      revokedAt: ['revoked_at', 'date'],
    }),
    affiliates: new SqlTable<Affiliate>(`${s}.affiliates`, affiliateColumns, (row) => ({
      ...decodeRow<Omit<Affiliate, 'totals'>>(affiliateColumns, row),
      totals: decodeRow<Affiliate['totals']>(affiliateTotals, row),
    })),
    referrals: new SqlTable<Referral>(`${s}.referrals`, {
      ...base,
      email: ['email', 'text'],
      affiliateId: ['affiliate_id', 'id'],
      conversionStatus: ['conversion_status', 'text'],
      conversionDate: ['conversion_date', 'date'],
      firstPurchaseAt: ['first_purchase_at', 'date'],
    }),
    conversions: new SqlTable<Conversion>(`${s}.conversions`, {
      ...base,
      affiliateId: ['affiliate_id', 'id'],
      referredUserId: ['referred_user_id', 'id'],
      customerEmail: ['customer_email', 'text'],
      type: ['type', 'text'],
      value: ['value_minor', 'money'],
      baseValue: ['base_value_minor', 'money'],
      baseCurrency: ['base_currency', 'text'],
      refundedBaseValue: ['refunded_base_value_minor', 'money'],
      paid: ['paid', 'bool'],
      paidByPayoutId: ['paid_by_payout_id', 'id'],
      status: ['status', 'text'],
      holdUntil: ['hold_until', 'date'],
      reference: ['reference', 'text'],
      fingerprint: ['fingerprint', 'text'],
      couponCodeUsed: ['coupon_code_used', 'text'],
      basis: ['basis', 'text'],
      commissionType: ['commission_type', 'text'],
      commissionRate: ['commission_rate', 'text'],
      tier: ['tier', 'int'],
      parentConversionId: ['parent_conversion_id', 'id'],
      refundReason: ['refund_reason', 'text'],
    }),
    coupons: new SqlTable<Coupon>(`${s}.coupons`, {
      ...base,
      affiliateId: ['affiliate_id', 'id'],
      code: ['code', 'text'],
      status: ['status', 'text'],
      processorCouponId: ['processor_coupon_id', 'text'],
      discountType: ['discount_type', 'text'],
      discountValue: ['discount_value', 'text'],
    }),
    clicks: new SqlTable<Click>(`${s}.clicks`, {
      ...base,
      affiliateId: ['affiliate_id', 'id'],
      ipAddress: ['ip_address', 'text'],
      userAgent: ['user_agent', 'text'],
      landingUrl: ['landing_url', 'text'],
    }),
    payouts: new SqlTable<Payout>(`${s}.payouts`, {
      ...base,
      affiliateId: ['affiliate_id', 'id'],
      affiliateEmail: ['affiliate_email', 'text'],
      amount: ['amount_minor', 'money'],
      currency: ['currency', 'text'],
      method: ['method', 'text'],
      status: ['status', 'text'],
      paymentDate: ['payment_date', 'date'],
      conversionsSettled: ['conversions_settled', 'int'],
      unpaidAfter: ['unpaid_after_minor', 'money'],
    }),
    endpoints: new SqlTable<WebhookEndpoint>(`${s}.webhook_endpoints`, {
      ...base,
      url: ['url', 'text'],
      events: ['events', 'json'],
      secret: ['secret', 'text'],
      previousSecret: ['previous_secret', 'text'],
      previousSecretExpiresAt: ['previous_secret_expires_at', 'date'],
      mode: ['mode', 'text'],
      active: ['active', 'bool'],
    }),
    events: new SqlTable<WebhookEvent>(`${s}.webhook_events`, {
      ...base,
      type: ['type', 'text'],
      body: ['body', 'text'],
    }),
    deliveries: new SqlTable<Delivery>(`${s}.deliveries`, {
      ...base,
      eventId: ['event_id', 'id'],
      endpointId: ['endpoint_id', 'id'],
      eventType: ['event_type', 'text'],
      status: ['status', 'text'],
      attempts: ['attempts', 'int'],
      nextAttemptAt: ['next_attempt_at', 'date'],
      leaseUntil: ['lease_until', 'date'],
      lastStatusCode: ['last_status_code', 'int'],
      updatedAt: ['updated_at', 'date'],
    }),
    attempts: new SqlTable<DeliveryAttempt>(`${s}.delivery_attempts`, {
      id: ['id', 'id'],
      deliveryId: ['delivery_id', 'id'],
      projectId: ['project_id', 'text'],
      attemptedAt: ['attempted_at', 'date'],
      statusCode: ['status_code', 'int'],
      durationMs: ['duration_ms', 'float'],
      responseExcerpt: ['response_excerpt', 'text'],
      error: ['error', 'text'],
    }),
  }
}

export type Tables = ReturnType<typeof createTables>

/** Reads a numeric aggregate as bigint minor units. */
export const money = (value: unknown): bigint => (decode('money', value) as bigint | null) ?? 0n
