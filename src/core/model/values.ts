// The values records are made of: statuses, event types, scopes, the settings' and rules' shapes.
// src/core/model/entities.ts types its fields with them; src/core/model/types.ts, which derives the
// records from the entities, re-exports them, so they are imported from there as before.

export type AffiliateStatus = 'active' | 'inactive' | 'pending' | 'blocked'
export type PayoutMethodPreference = 'paypal' | 'wise' | 'manual'
export type ReferralStatus = 'pending' | 'converted' | 'direct' | 'direct_signup'
/** `bonus`: a milestone bonus (docs/commissions.md "Bonuses"), created by the program, never by a request. */
export type ConversionType = 'signup' | 'purchase' | 'bonus' | 'trial'
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
  | 'payout.requested'
  | 'payout.paid'
  | 'payout.failed'
  | 'portal.sign_in_requested'
  | 'affiliate.applied'
  | 'affiliate.approved'
  | 'affiliate.rejected'
  | 'affiliate.tier_changed'
export const EVENT_TYPES: readonly EventType[] = [
  'referral_signed_up',
  'referral_converted',
  'referral_canceled',
  'referral_updated',
  'payout.created',
  'payout.requested',
  'payout.paid',
  'payout.failed',
  'portal.sign_in_requested',
  'affiliate.applied',
  'affiliate.approved',
  'affiliate.rejected',
  'affiliate.tier_changed',
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

export type CommissionRule =
  | { type: 'percentage'; rate: number | string }
  | { type: 'fixed'; amount: string }

/** One step of staged renewals: `payments` renewals at this rate or amount (the last step: every later one). */
export interface RecurringStage {
  payments?: number
  rate?: number | string
  amount?: string
}

export interface RecurringRule {
  rate?: number | string
  amount?: string
  /** Calendar months from the customer's first purchase during which renewals earn. @default no end */
  durationMonths?: number | null
  /** The customer's payments that earn, the first included. @default no end */
  maxPayments?: number | null
  /** Renewals in steps: `[{ payments: 3, rate: 40 }, { rate: 20 }]` (docs/commissions.md "Stages"). */
  stages?: RecurringStage[]
}

/** A product's own rules: what it leaves out comes from the next rule in precedence; or it earns nothing. */
export type ProductRule = { purchase?: CommissionRule; recurring?: RecurringRule; signup?: { amount: string } } | { excluded: true }

export interface CommissionSettings {
  purchase: CommissionRule
  /** Signups earn this fixed amount. @default nothing (signups earn 0) */
  signup?: { amount: string }
  /**
   * A trial started (a provider's subscription in trial) earns this fixed amount, once per
   * customer; `clawbackUnpaid` takes it back when the trial ends unpaid (docs/commissions.md
   * "Leads and trials"). @default nothing (trials earn 0)
   */
  trial?: TrialRule
  /** Repeat purchases by the same customer email. @default the purchase rule, for life */
  recurring?: RecurringRule
  /** Rules per product id (a conversion's `productId`). */
  products?: Record<string, ProductRule>
  /** Renewals keep the rules in force at the customer's first purchase. @default false */
  grandfather?: boolean
  /** Performance tiers, lowest first (docs/commissions.md "Performance tiers"). */
  tiers?: TierRule[]
  /** The period a tier's figures count over. @default 'month' */
  tierPeriod?: CommissionPeriod
  /** One bonus per affiliate per milestone per period (docs/commissions.md "Bonuses"). */
  bonuses?: BonusRule[]
}

/** The reward of a trial started (docs/commissions.md "Leads and trials"). */
export interface TrialRule {
  amount: string
  /** Refund the trial's conversion when the trial ends without a payment. @default false */
  clawbackUnpaid?: boolean
}

export type CommissionPeriod = 'month' | 'quarter' | 'year' | 'lifetime'

/** A performance tier: reached at `minRevenue` (program currency) or `minCustomers` in the period; its rules replace the purchase, recurring and signup rules they name. */
export interface TierRule {
  name: string
  minRevenue?: string
  minCustomers?: number
  purchase?: CommissionRule
  recurring?: RecurringRule
  signup?: { amount: string }
}

/** A bonus: `amount` once the affiliate's `customers` or `revenue` in the period reach the milestone. */
export interface BonusRule {
  name: string
  customers?: number
  revenue?: string
  amount: string
  period: CommissionPeriod
}

/** Every rule set that may apply to a conversion of one affiliate: what a grandfathered customer keeps. */
export interface RuleSet {
  affiliate: CommissionSettings | null
  subProgram: CommissionSettings | null
  project: CommissionSettings
  /** The performance tier the affiliate held (absent in rules kept before tiers existed). */
  tier?: TierRule | null
}

export interface ProjectSettings {
  /** ISO 4217 code of every commission and balance. @default 'USD' */
  currency: string
  /** @default 0 (no hold period) */
  holdPeriodDays: number
  /** @default 30% of every purchase, signups earn nothing */
  commission: CommissionSettings
  multiTier?: { enabled: boolean; tier2Rate: number | string }
  subPrograms?: Record<string, SubProgramSettings>
  /** Delays before webhook attempts 2, 3 and 4. @default [5, 300, 1800] */
  webhookRetryDelaysSeconds?: number[]
  /** Lets webhooks reach loopback and private addresses (tests, local receivers). @default false */
  allowPrivateNetworks?: boolean
  /** IANA time zone of the project's days (stats buckets). @default 'UTC' */
  timeZone?: string
  /** Who keeps a referred customer, and for how long a referral counts (docs/attribution.md). @default none: the request's fields decide */
  attribution?: AttributionSettings
  /** When money is due, whether affiliates may ask for it (docs/payouts.md), and whether tax details are required (docs/tax-details.md). @default none: payable as soon as the hold ends, no minimum */
  payouts?: PayoutSettings
  /** What each fraud rule does to a conversion that trips it (docs/fraud.md). @default self-referrals go to review, the other rules allow */
  fraud?: FraudSettings
  /** What referred customers get (docs/incentives.md). @default none */
  incentives?: ProjectIncentiveSettings
}

/**
 * What a referred customer gets (docs/incentives.md): the discount's terms, as the banner states
 * them, and its id at each payment provider, which the checkout parameters apply.
 */
export interface CustomerIncentive {
  /** Percent off (above 0, at most 100, two decimals at most); or amountOff. */
  percentOff?: number
  /** Amount off in the project currency, decimal text ("10.00"); or percentOff. */
  amountOff?: string
  /** As Stripe's coupons: the first payment, every payment, or `durationInMonths` months. @default 'once' */
  duration?: 'once' | 'repeating' | 'forever'
  /** Months the discount lasts, with duration 'repeating'. */
  durationInMonths?: number
  /** The Stripe coupon Checkout applies (`discounts: [{ coupon }]`). */
  stripe?: { couponId: string }
  /** The Paddle discount (`discount_id`). */
  paddle?: { discountId: string }
  /** The Lemon Squeezy discount code (`discount_code`). */
  lemonSqueezy?: { discountCode: string }
}

/** Incentives at one level (a sub-program's, an affiliate's own): `customer: null` offers none at that level. */
export interface IncentiveSettings {
  customer?: CustomerIncentive | null
}

/** The project's incentives. */
export interface ProjectIncentiveSettings extends IncentiveSettings {
  /** Name the affiliate in the banner ("via Ann": the first word of its name, never more). @default true */
  showAffiliateName?: boolean
}

/**
 * The payout settings: the terms (all four set together, defaults filled in, once any is given) and
 * whether tax details are required. Without terms, payable equals eligible and there is no minimum.
 */
export interface PayoutSettings extends Partial<PayoutTermsSettings> {
  /** An affiliate without tax details on file is not paid (docs/tax-details.md). @default false */
  requireTaxDetails?: boolean
  /** Which providers may pay automatically; each off unless set (docs/payouts.md). */
  automatic?: { paypal?: boolean; stripe?: boolean }
}

/** When money is due (docs/payouts.md). */
export interface PayoutTermsSettings {
  /** The payable balance an affiliate must reach to be due, decimal text. @default '0' */
  minimumAmount: string
  /** Days after the end of the month a commission's hold ended in before it is payable. @default 0 */
  termsDays: number
  /** The day of the month payouts are made (1 to 28). @default 1 */
  schedule: { day: number }
  /** Affiliates above the minimum may ask for a payout in the portal. @default false */
  requests: boolean
}

/** Who may join through the portal's application page (docs/onboarding.md). */
export type SignupMode = 'open' | 'review' | 'closed'

export interface SubProgramSettings {
  commission: CommissionSettings
  /** How `<portal>/apply/<slug>` admits applicants. @default 'review' */
  signup?: SignupMode
  /** The sub-program's incentives, over the project's (docs/incentives.md). */
  incentives?: IncentiveSettings
}

export type FraudAction = 'allow' | 'review' | 'reject'

/** The fraud rules, each with its action (docs/fraud.md); stored complete, defaults filled in. */
export interface FraudSettings {
  /** The customer's email (or card) is the affiliate's own. @default 'review' */
  selfReferral: FraudAction
  /** The attributed click came from the affiliate's own browser. @default 'allow' */
  sameVisitor: FraudAction
  /** The customer's email is at a disposable-mail domain. @default 'allow' */
  disposableEmail: FraudAction
  /** The attributed click came from a paid ad (gclid, fbclid, msclkid). @default 'allow' */
  paidAdsClick: FraudAction
  /** A purchase whose amount, in the project currency, is above `amount`. @default none */
  amountAbove?: { amount: string; action: FraudAction }
  /** More than `max` signups from one visitor (one day's visitor of a click). @default none */
  signupsPerVisitorPerDay?: { max: number; action: FraudAction }
  /** More than `max` signup conversions of one affiliate in one day of the project's time zone. @default none */
  signupsPerAffiliatePerDay?: { max: number; action: FraudAction }
}

export type AttributionModel = 'first_click' | 'last_click'

export interface AttributionSettings {
  /** @default 'first_click' */
  model: AttributionModel
  /** Days a referral counts for its first purchase. @default 60 */
  windowDays: number
}

export interface WiseDetails {
  accountId: string
  email: string
}

/**
 * What an affiliate told the portal's application page, and the owner's decision (docs/onboarding.md).
 * Dates are ISO strings: the record is stored as JSON.
 */
export interface AffiliateApplication {
  /** Their website or channel. */
  website: string | null
  /** How they will promote the program. */
  promotion: string | null
  /** The program's own fields (portal option application.fields), by name. */
  fields: Record<string, string | boolean>
  appliedAt: string
  /** When they agreed to the terms at application.termsUrl; null when the program has none. */
  termsAcceptedAt: string | null
  /** When the owner approved or rejected the application; null while pending or when admitted at once. */
  decidedAt: string | null
  /** Why the owner rejected it (optional). */
  rejectionReason: string | null
}

export type TaxFormType = 'W-9' | 'W-8BEN'

/** An affiliate's tax details as stored: the tax id only encrypted (docs/tax-details.md). */
export interface StoredTaxDetails {
  legalName: string
  /** ISO 3166-1 alpha-2, upper case. */
  country: string
  formType: TaxFormType
  /** `v1.<key id>.<iv>.<tag>.<ciphertext>` (AES-256-GCM, base64url parts): src/core/model/tax-id-cipher.ts. */
  taxId: string
  /** The tax id's last four characters, what every page shows. */
  taxIdLast4: string
  /** ISO time of the last change. */
  updatedAt: string
}

export type CommissionBasis =
  | 'purchase'
  | 'recurring'
  | 'recurring_expired'
  | 'signup'
  | 'explicit'
  | 'tier2'
  | 'excluded'
  | 'bonus'
  | 'trial'

/** Which rule earned a conversion (docs/commissions.md "Precedence"). */
export type RuleSource = 'explicit' | 'product' | 'affiliate' | 'tier' | 'sub_program' | 'project'
export const RULE_SOURCES: readonly RuleSource[] = ['explicit', 'product', 'affiliate', 'tier', 'sub_program', 'project']

/** Only active coupons attribute conversions. */
export type CouponStatus = 'active' | 'inactive'

export type PayoutRequestStatus = 'open' | 'paid'

/** What moved an affiliate's ledger (docs/payouts.md "Ledger export"). */
export const LEDGER_MOVEMENT_TYPES = ['opening', 'commission', 'reversal', 'clawback', 'paid_outside', 'unpaid_outside', 'credit_return', 'payout', 'release'] as const
export type LedgerMovementType = (typeof LEDGER_MOVEMENT_TYPES)[number]
/** `processing`: sent through a provider, its amount held; `failed`: the provider did not pay, the amount went back. */
export type PayoutStatus = 'paid' | 'processing' | 'failed'
export type ProviderPayoutProvider = 'paypal' | 'stripe'
export type ProviderPayoutState = 'processing' | 'paid' | 'failed'

export type WebhookSigningMode = 'service' | 'standard'

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export type ProviderEventStatus = 'processing' | 'applied' | 'ignored' | 'waiting'
