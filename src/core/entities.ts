// Every stored entity defined once: its fields, their columns and codecs, and what its view
// shows as stored. src/core/types.ts derives the records from these, src/core/views.ts the view
// types, the SQL adapter its column lists and row decoding.
import { bool, date, float, id, int, json, money, notShown, nullable, text } from './entity.js'
import type {
  AffiliateStatus,
  CommissionBasis,
  ConversionType,
  CouponStatus,
  DeliveryStatus,
  EventType,
  PayoutMethod,
  PayoutMethodPreference,
  ProjectSettings,
  ProviderEventStatus,
  ReferralStatus,
  Scope,
  StoredConversionStatus,
  WebhookSigningMode,
  WiseDetails,
} from './types.js'

const owned = {
  id: id('id'),
  projectId: notShown(text('project_id')),
  createdAt: date('created_at'),
}

export const projectFields = {
  id: text('id'),
  name: text('name'),
  settings: json<ProjectSettings>('settings'),
  /** 1 when created, one more at each write of the settings: tells which settings a process applies. */
  settingsVersion: int('settings_version'),
  createdAt: date('created_at'),
}

export const apiKeyFields = {
  ...owned,
  name: nullable(text('name')),
  /** First 8 characters of the key, for display. */
  prefix: text('prefix'),
  /** Hex SHA-256 of the full key. */
  hash: text('hash'),
  scopes: json<Scope[]>('scopes'),
  revokedAt: nullable(date('revoked_at')),
}

/** Running totals kept on the affiliate row, changed by deltas in the same transaction. */
export const affiliateTotalsFields = {
  /** Sum of value over counted conversions (status pending or active). */
  countedValue: money('counted_value_minor'),
  /** Sum of value over counted conversions that are paid. */
  paidValue: money('paid_value_minor'),
  /** Payout money not matched to a whole counted conversion (docs/ledger.md "Credit"). */
  credit: money('credit_minor'),
  clicks: int('clicks'),
  /** Referred users linked to the affiliate. */
  signups: int('signups'),
  /** Counted purchase conversions. */
  purchases: int('purchases'),
}

export const affiliateFields = {
  ...owned,
  email: text('email'),
  name: nullable(text('name')),
  referralCode: text('referral_code'),
  status: text<AffiliateStatus>('status'),
  partnerSlug: nullable(text('partner_slug')),
  paymentMethod: nullable(text('payment_method')),
  paymentDetails: nullable(text('payment_details')),
  payoutMethod: nullable(text<PayoutMethodPreference>('payout_method')),
  paypalEmail: nullable(text('paypal_email')),
  wiseDetails: nullable(json<WiseDetails>('wise_details')),
  parentId: nullable(id('parent_id')),
  customFields: nullable(json<Record<string, unknown>>('custom_fields')),
}

/** The affiliate's payout preferences that webhook events carry (under their column names). */
export const PAYOUT_PREFERENCES = ['paypalEmail', 'wiseDetails'] as const satisfies ReadonlyArray<keyof typeof affiliateFields>

export const referralFields = {
  ...owned,
  email: text('email'),
  affiliateId: nullable(id('affiliate_id')),
  conversionStatus: text<ReferralStatus>('conversion_status'),
  conversionDate: nullable(date('conversion_date')),
  /** Set by the first purchase; renewals are measured from it. */
  firstPurchaseAt: notShown(nullable(date('first_purchase_at'))),
}

export const conversionFields = {
  ...owned,
  affiliateId: id('affiliate_id'),
  referredUserId: nullable(id('referred_user_id')),
  customerEmail: nullable(text('customer_email')),
  type: text<ConversionType>('type'),
  /** Commission in project currency minor units. */
  value: money('value_minor'),
  /** Transaction value in `baseCurrency` minor units, reduced by partial refunds. */
  baseValue: nullable(money('base_value_minor')),
  baseCurrency: notShown(nullable(text('base_currency'))),
  refundedBaseValue: money('refunded_base_value_minor'),
  paid: bool('paid'),
  /** The payout that settled it; null when unpaid or marked paid by hand. */
  paidByPayoutId: nullable(id('paid_by_payout_id')),
  /** What storage holds; views show `pending` for `active` before holdUntil. */
  status: notShown(text<StoredConversionStatus>('status')),
  /** created_at + hold period; equal to created_at when there is none. */
  holdUntil: date('hold_until'),
  reference: nullable(text('reference')),
  /** What a repeat request with the same reference must match (docs/idempotency.md "References"). */
  fingerprint: notShown(nullable(text('fingerprint'))),
  couponCodeUsed: nullable(text('coupon_code_used')),
  basis: text<CommissionBasis>('basis'),
  commissionType: text<'percentage' | 'fixed'>('commission_type'),
  /** Percentage rate as decimal text, null for fixed amounts. */
  commissionRate: nullable(text('commission_rate')),
  tier: int<1 | 2>('tier'),
  parentConversionId: nullable(id('parent_conversion_id')),
  refundReason: nullable(text('refund_reason')),
}

export const couponFields = {
  ...owned,
  affiliateId: id('affiliate_id'),
  code: text('code'),
  /** Only active coupons attribute conversions. */
  status: text<CouponStatus>('status'),
  processorCouponId: nullable(text('processor_coupon_id')),
  discountType: nullable(text('discount_type')),
  discountValue: nullable(text('discount_value')),
}

export const clickFields = {
  ...owned,
  affiliateId: id('affiliate_id'),
  ipAddress: nullable(text('ip_address')),
  userAgent: nullable(text('user_agent')),
  landingUrl: nullable(text('landing_url')),
}

export const payoutFields = {
  ...owned,
  affiliateId: id('affiliate_id'),
  affiliateEmail: text('affiliate_email'),
  amount: money('amount_minor'),
  currency: text('currency'),
  method: text<PayoutMethod>('method'),
  status: notShown(text<'paid'>('status')),
  paymentDate: date('payment_date'),
  conversionsSettled: int('conversions_settled'),
  unpaidAfter: money('unpaid_after_minor'),
}

export const webhookEndpointFields = {
  ...owned,
  url: text('url'),
  events: json<EventType[]>('events'),
  secret: notShown(nullable(text('secret'))),
  /** Still signs (beside `secret`) until `previousSecretExpiresAt`, for secret rotation. */
  previousSecret: notShown(nullable(text('previous_secret'))),
  previousSecretExpiresAt: notShown(nullable(date('previous_secret_expires_at'))),
  mode: text<WebhookSigningMode>('mode'),
  active: bool('active'),
}

export const webhookEventFields = {
  ...owned,
  type: text<EventType>('type'),
  /** Serialized once when recorded; every attempt sends these exact bytes. */
  body: text('body'),
}

export const deliveryFields = {
  ...owned,
  eventId: id('event_id'),
  endpointId: id('endpoint_id'),
  eventType: text<EventType>('event_type'),
  status: text<DeliveryStatus>('status'),
  attempts: int('attempts'),
  nextAttemptAt: nullable(date('next_attempt_at')),
  leaseUntil: nullable(date('lease_until')),
  lastStatusCode: nullable(int('last_status_code')),
  updatedAt: date('updated_at'),
}

export const deliveryAttemptFields = {
  id: id('id'),
  deliveryId: id('delivery_id'),
  projectId: text('project_id'),
  attemptedAt: date('attempted_at'),
  statusCode: nullable(int('status_code')),
  durationMs: float('duration_ms'),
  responseExcerpt: nullable(text('response_excerpt')),
  error: nullable(text('error')),
}

/** One payment-provider event as received, with its outcome. Unique per (project, provider, eventId). */
export const providerEventFields = {
  ...owned,
  /** One of PROVIDER_NAMES (types.ts). */
  provider: text('provider'),
  /** The provider's event id. */
  eventId: text('event_id'),
  /** The provider's event type, e.g. invoice.paid. */
  type: text('type'),
  /** The payment (invoice, transaction, order) or customer the event is about. */
  reference: nullable(text('reference')),
  status: text<ProviderEventStatus>('status'),
  /** Why it was ignored or is waiting, or what it did, in words. */
  detail: nullable(text('detail')),
  /** The conversion it created or changed. */
  conversionId: nullable(id('conversion_id')),
  /** Base value this event refunded, as decimal text in the payment's currency. */
  refundAmount: nullable(text('refund_amount')),
  /** What a waiting event waits for, e.g. customer:cus_123 or payment:in_123. */
  waitingFor: nullable(text('waiting_for')),
  /** The provider-neutral mapping of the event, kept while it may apply later (null on a record saved in its final state). */
  mapped: json<unknown>('mapped'),
  /** When the provider says the event happened. */
  occurredAt: date('occurred_at'),
  updatedAt: date('updated_at'),
}
