// Domain records as the core sees them. Money is bigint minor units of the project currency
// (or of `baseCurrency` for `Conversion.baseValue`); no driver or HTTP type appears here.

export type AffiliateStatus = 'active' | 'inactive' | 'pending' | 'blocked'
export type PayoutMethodPreference = 'paypal' | 'wise' | 'manual'
export type ReferralStatus = 'pending' | 'converted' | 'direct' | 'direct_signup'
export type ConversionType = 'signup' | 'purchase'
/** What storage holds. `pending` is never stored: it is `active` seen before `holdUntil`. */
export type StoredConversionStatus = 'active' | 'review' | 'refunded' | 'rejected'
export type ConversionStatus = 'pending' | StoredConversionStatus
export type PayoutMethod = 'manual' | 'paypal' | 'wise' | 'bank' | 'crypto' | 'other'
export type EventType =
  | 'referral_signed_up'
  | 'referral_converted'
  | 'referral_canceled'
  | 'referral_updated'
  | 'payout.created'
  | 'portal.sign_in_requested'
export const EVENT_TYPES: readonly EventType[] = [
  'referral_signed_up',
  'referral_converted',
  'referral_canceled',
  'referral_updated',
  'payout.created',
  'portal.sign_in_requested',
]

export const SCOPES = [
  'affiliates:read',
  'affiliates:write',
  'referrals:read',
  'referrals:write',
  'conversions:read',
  'conversions:write',
  'coupons:read',
  'coupons:write',
  'payouts:read',
  'payouts:write',
  'webhooks:read',
  'webhooks:write',
] as const
export type Scope = (typeof SCOPES)[number] | '*'

export interface Project {
  id: string
  name: string
  settings: ProjectSettings
  createdAt: Date
}

export type CommissionRule =
  | { type: 'percentage'; rate: number | string }
  | { type: 'fixed'; amount: string }

export interface CommissionSettings {
  purchase: CommissionRule
  /** Signups earn this fixed amount. @default nothing (signups earn 0) */
  signup?: { amount: string }
  /** Repeat purchases by the same customer email. @default the purchase rule, for life */
  recurring?: { rate?: number | string; amount?: string; durationMonths?: number | null }
}

export interface ProjectSettings {
  /** ISO 4217 code of every commission and balance. @default 'USD' */
  currency: string
  /** @default 0 (no hold period) */
  holdPeriodDays: number
  /** @default 30% of every purchase, signups earn nothing */
  commission: CommissionSettings
  multiTier?: { enabled: boolean; tier2Rate: number | string }
  subPrograms?: Record<string, { commission: CommissionSettings }>
  /** Delays before webhook attempts 2, 3 and 4. @default [5, 300, 1800] */
  webhookRetryDelaysSeconds?: number[]
  /** Lets webhooks reach loopback and private addresses (tests, local receivers). @default false */
  allowPrivateNetworks?: boolean
  /** IANA time zone of the project's days (stats buckets). @default 'UTC' */
  timeZone?: string
  /** Who keeps a referred customer, and for how long a referral counts (docs/attribution.md). @default none: the request's fields decide */
  attribution?: AttributionSettings
}

export type AttributionModel = 'first_click' | 'last_click'

export interface AttributionSettings {
  /** @default 'first_click' */
  model: AttributionModel
  /** Days a referral counts for its first purchase. @default 60 */
  windowDays: number
}

export interface ApiKeyRecord {
  id: number
  projectId: string
  name: string | null
  /** First 8 characters of the key, for display. */
  prefix: string
  /** Hex SHA-256 of the full key. */
  hash: string
  scopes: Scope[]
  createdAt: Date
  revokedAt: Date | null
}

/** Running totals kept on the affiliate row, changed by deltas in the same transaction. */
export interface AffiliateTotals {
  /** Sum of value over counted conversions (status pending or active). */
  countedValue: bigint
  /** Sum of value over counted conversions that are paid. */
  paidValue: bigint
  /** Payout money not matched to a whole counted conversion (docs/ledger.md "Credit"). */
  credit: bigint
  clicks: number
  /** Referred users linked to the affiliate. */
  signups: number
  /** Counted purchase conversions. */
  purchases: number
}
export type TotalsDelta = Partial<AffiliateTotals>

export interface WiseDetails {
  accountId: string
  email: string
}

export interface Affiliate {
  id: number
  projectId: string
  email: string
  name: string | null
  referralCode: string
  status: AffiliateStatus
  partnerSlug: string | null
  paymentMethod: string | null
  paymentDetails: string | null
  payoutMethod: PayoutMethodPreference | null
  paypalEmail: string | null
  wiseDetails: WiseDetails | null
  parentId: number | null
  customFields: Record<string, unknown> | null
  createdAt: Date
  totals: AffiliateTotals
}

export interface Referral {
  id: number
  projectId: string
  email: string
  affiliateId: number | null
  conversionStatus: ReferralStatus
  conversionDate: Date | null
  /** Set by the first purchase; renewals are measured from it. */
  firstPurchaseAt: Date | null
  createdAt: Date
}

export type CommissionBasis =
  | 'purchase'
  | 'recurring'
  | 'recurring_expired'
  | 'signup'
  | 'explicit'
  | 'tier2'

export interface Conversion {
  id: number
  projectId: string
  affiliateId: number
  referredUserId: number | null
  customerEmail: string | null
  type: ConversionType
  /** Commission in project currency minor units. */
  value: bigint
  /** Transaction value in `baseCurrency` minor units, reduced by partial refunds. */
  baseValue: bigint | null
  baseCurrency: string | null
  refundedBaseValue: bigint
  paid: boolean
  /** The payout that settled it; null when unpaid or marked paid by hand. */
  paidByPayoutId: number | null
  status: StoredConversionStatus
  /** created_at + hold period; equal to created_at when there is none. */
  holdUntil: Date
  reference: string | null
  /** What a repeat request with the same reference must match (docs/idempotency.md "References"). */
  fingerprint: string | null
  couponCodeUsed: string | null
  basis: CommissionBasis
  commissionType: 'percentage' | 'fixed'
  /** Percentage rate as decimal text, null for fixed amounts. */
  commissionRate: string | null
  tier: 1 | 2
  parentConversionId: number | null
  refundReason: string | null
  createdAt: Date
}

/** Only active coupons attribute conversions. */
export type CouponStatus = 'active' | 'inactive'

export interface Coupon {
  id: number
  projectId: string
  affiliateId: number
  code: string
  status: CouponStatus
  processorCouponId: string | null
  discountType: string | null
  discountValue: string | null
  createdAt: Date
}

export interface Click {
  id: number
  projectId: string
  affiliateId: number
  ipAddress: string | null
  userAgent: string | null
  landingUrl: string | null
  createdAt: Date
}

export interface Payout {
  id: number
  projectId: string
  affiliateId: number
  affiliateEmail: string
  amount: bigint
  currency: string
  method: PayoutMethod
  status: 'paid'
  paymentDate: Date
  conversionsSettled: number
  unpaidAfter: bigint
  createdAt: Date
}

export type WebhookSigningMode = 'service' | 'standard'

export interface WebhookEndpoint {
  id: number
  projectId: string
  url: string
  events: EventType[]
  secret: string | null
  /** Still signs (beside `secret`) until `previousSecretExpiresAt`, for secret rotation. */
  previousSecret: string | null
  previousSecretExpiresAt: Date | null
  mode: WebhookSigningMode
  active: boolean
  createdAt: Date
}

export interface WebhookEvent {
  id: number
  projectId: string
  type: EventType
  /** Serialized once when recorded; every attempt sends these exact bytes. */
  body: string
  createdAt: Date
}

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export interface Delivery {
  id: number
  projectId: string
  eventId: number
  endpointId: number
  eventType: EventType
  status: DeliveryStatus
  attempts: number
  nextAttemptAt: Date | null
  leaseUntil: Date | null
  lastStatusCode: number | null
  createdAt: Date
  updatedAt: Date
}

export interface DeliveryAttempt {
  id: number
  deliveryId: number
  projectId: string
  attemptedAt: Date
  statusCode: number | null
  durationMs: number
  responseExcerpt: string | null
  error: string | null
}

export interface Page<T> {
  items: T[]
  total: number
}

/** What a received payment-provider event did (see src/providers). */
export type ProviderEventStatus = 'processing' | 'applied' | 'ignored' | 'waiting'

/** One payment-provider event as received, with its outcome. Unique per (project, provider, eventId). */
export interface ProviderEvent {
  id: number
  projectId: string
  /** 'stripe', 'paddle' or 'lemon-squeezy'. */
  provider: string
  /** The provider's event id. */
  eventId: string
  /** The provider's event type, e.g. invoice.paid. */
  type: string
  /** The payment (invoice, transaction, order) or customer the event is about. */
  reference: string | null
  status: ProviderEventStatus
  /** Why it was ignored or is waiting, or what it did, in words. */
  detail: string | null
  /** The conversion it created or changed. */
  conversionId: number | null
  /** Base value this event refunded, as decimal text in the payment's currency. */
  refundAmount: string | null
  /** What a waiting event waits for, e.g. customer:cus_123 or payment:in_123. */
  waitingFor: string | null
  /** The provider-neutral mapping of the event (kept to apply it later). */
  mapped: unknown
  /** When the provider says the event happened. */
  occurredAt: Date
  /** When it was received. */
  createdAt: Date
  updatedAt: Date
}

/** A remembered fact about a provider object: a customer's email and referral, a payment's invoice. */
export interface ProviderLink {
  projectId: string
  provider: string
  /** 'customer' or 'payment'. */
  kind: string
  externalId: string
  data: Record<string, string | null>
}
