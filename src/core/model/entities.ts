// Every stored entity defined once: its fields, their kinds, and what its view shows as stored.
// src/core/model/types.ts derives the records from these, src/core/rules/views.ts the view types; the SQL
// adapter names their columns (src/adapters/sql/tables.ts) and decodes rows by their kinds.
import { bool, date, float, id, int, json, money, notShown, nullable, text, withNulls } from './entity.js'
import type {
  AffiliateApplication,
  AffiliateStatus,
  CommissionBasis,
  CommissionSettings,
  ConversionType,
  CouponStatus,
  DeliveryStatus,
  EventType,
  IncentiveSettings,
  LedgerMovementType,
  PayoutRequestStatus,
  PayoutMethod,
  PayoutMethodPreference,
  PayoutStatus,
  ProviderPayoutProvider,
  ProviderPayoutState,
  ProjectSettings,
  ProviderEventStatus,
  ReferralStatus,
  RuleSource,
  Scope,
  StoredConversionStatus,
  StoredTaxDetails,
  WebhookSigningMode,
  WiseDetails,
} from './values.js'
import type { MailKind, MailStatus, MailTopic } from './mail-kinds.js'

const owned = {
  id: id(),
  projectId: notShown(text()),
  createdAt: date(),
}

export const projectFields = {
  id: text(),
  name: text(),
  settings: json<ProjectSettings>(),
  /** 1 when created, one more at each write of the settings: tells which settings a process applies. */
  settingsVersion: int(),
  createdAt: date(),
}

export const apiKeyFields = {
  ...owned,
  name: nullable(text()),
  /** First 8 characters of the key, for display. */
  prefix: text(),
  /** Hex SHA-256 of the full key. */
  hash: text(),
  scopes: json<Scope[]>(),
  revokedAt: nullable(date()),
}

/** Running totals kept on the affiliate row, changed by deltas in the same transaction. */
export const affiliateTotalsFields = {
  /** Sum of value over counted conversions (status pending or active). */
  countedValue: money(),
  /** Sum of value over counted conversions that are paid. */
  paidValue: money(),
  /** Payout money not matched to a whole counted conversion (docs/ledger.md "Credit"). */
  credit: money(),
  clicks: int(),
  /** Referred users linked to the affiliate. */
  signups: int(),
  /** Counted purchase conversions. */
  purchases: int(),
}

export const affiliateFields = {
  ...owned,
  email: text(),
  /** The host app's id of the user this affiliate is (docs/embed.md "Embed tokens"); unique in the project. */
  externalId: nullable(text()),
  name: nullable(text()),
  referralCode: text(),
  status: text<AffiliateStatus>(),
  partnerSlug: nullable(text()),
  paymentMethod: nullable(text()),
  paymentDetails: nullable(text()),
  payoutMethod: nullable(text<PayoutMethodPreference>()),
  paypalEmail: nullable(text()),
  wiseDetails: nullable(json<WiseDetails>()),
  parentId: nullable(id()),
  customFields: nullable(json<Record<string, unknown>>()),
  /** The affiliate's language for pages and emails (a code of LOCALES, src/core/model/i18n/locales.ts); null: the browser's, else the program's. */
  locale: nullable(text()),
  /** The email topics the affiliate turned off (docs/email.md "Preferences"). */
  emailOptOut: nullable(json<MailTopic[]>()),
  /** Set when the affiliate applied through the portal's application page. */
  application: nullable(json<AffiliateApplication>()),
  /** Legal name, country, form type and the encrypted tax id (docs/tax-details.md); never in a view. */
  taxDetails: notShown(nullable(json<StoredTaxDetails>())),
  /** The affiliate's own commission rules, over its sub-program's and the project's (docs/commissions.md). */
  commission: nullable(json<CommissionSettings>()),
  /** The affiliate's own incentives for the customers it refers, over its sub-program's and the project's (docs/incentives.md). */
  incentives: nullable(json<IncentiveSettings>()),
  /** The performance tier it holds (docs/commissions.md "Performance tiers"); null: none. */
  tier: nullable(text()),
  /** The Stripe Connect account it is paid to (acct_...), created by Connect onboarding (docs/payouts.md "Stripe Connect"). */
  stripeAccountId: notShown(nullable(text())),
}

/** The affiliate's payout preferences that webhook events carry (src/core/ports/events.ts names their keys). */
export const PAYOUT_PREFERENCES = ['paypalEmail', 'wiseDetails'] as const satisfies ReadonlyArray<keyof typeof affiliateFields>

export const referralFields = {
  ...owned,
  email: text(),
  affiliateId: nullable(id()),
  conversionStatus: text<ReferralStatus>(),
  conversionDate: nullable(date()),
  /** Set by the first purchase; renewals are measured from it. */
  firstPurchaseAt: notShown(nullable(date())),
  /** The customer's payments so far (lines of one payment count once; excluded products not at all). */
  payments: notShown(int()),
  /** The payment counted last, when it has lines (an invoice id): its other lines are not another payment. */
  lastPayment: notShown(nullable(text())),
  /** The click the customer came through (its signed referral named it): analytics report it by that click's link and campaign (docs/analytics.md). */
  clickId: notShown(nullable(text())),
}

export const conversionFields = {
  ...owned,
  affiliateId: id(),
  referredUserId: nullable(id()),
  customerEmail: nullable(text()),
  type: text<ConversionType>(),
  /** Commission in project currency minor units. */
  value: money(),
  /** Transaction value in `baseCurrency` minor units, reduced by partial refunds. */
  baseValue: nullable(money()),
  baseCurrency: notShown(nullable(text())),
  refundedBaseValue: money(),
  paid: bool(),
  /** The payout that settled it; null when unpaid or marked paid by hand. */
  paidByPayoutId: nullable(id()),
  /** What storage holds; views show `pending` for `active` before holdUntil. */
  status: notShown(text<StoredConversionStatus>()),
  /** created_at + hold period; equal to created_at when there is none. */
  holdUntil: date(),
  reference: nullable(text()),
  /** What a repeat request with the same reference must match (docs/idempotency.md "References"). */
  fingerprint: notShown(nullable(text())),
  couponCodeUsed: nullable(text()),
  basis: text<CommissionBasis>(),
  commissionType: text<'percentage' | 'fixed'>(),
  /** Percentage rate as decimal text, null for fixed amounts. */
  commissionRate: nullable(text()),
  tier: int<1 | 2>(),
  parentConversionId: nullable(id()),
  refundReason: nullable(text()),
  /** The product the payment was for (picks its product rule). */
  productId: nullable(text()),
  /** Which rule earned it; null on conversions stored before rules were recorded. */
  ruleSource: nullable(text<RuleSource>()),
  /** The fixed amount the rule gave, as decimal text in the project currency; null for percentages. */
  commissionAmount: nullable(text()),
  /** Why it was created held for review or rejected (docs/fraud.md); null when nothing held it. */
  reviewReason: nullable(text()),
  /** The attributed click's visitor (16 characters of a day's visitor hash), when the request named the click. */
  clickVisitor: notShown(nullable(text())),
  /** The payment card's fingerprint, where the provider gives it (Stripe charges). */
  cardFingerprint: notShown(nullable(text())),
  /** The click it came through: the one its request named, else its customer's (docs/analytics.md). */
  clickId: notShown(nullable(text())),
  /** A counted purchase's base value in the project currency when created (what stats count as revenue); null otherwise. */
  revenue: notShown(nullable(money())),
}

/** A new conversion from the fields it sets: those left out of the nullable ones are null. */
export const newConversion = withNulls(conversionFields)

export const couponFields = {
  ...owned,
  affiliateId: id(),
  code: text(),
  /** Only active coupons attribute conversions. */
  status: text<CouponStatus>(),
  processorCouponId: nullable(text()),
  discountType: nullable(text()),
  discountValue: nullable(text()),
}

/**
 * An affiliate's link (docs/links.md): its key (`/r/<key>`; unique in the project in any case, and
 * never a referral code), where it sends visitors, the short domain it is served on and the UTM
 * parameters it adds by default. A link with only a key is a link alias (docs/attribution.md).
 */
export const linkFields = {
  ...owned,
  affiliateId: id(),
  key: text(),
  /** An absolute http(s) URL (a deep link); null: the tracking handler's landing URL. */
  destination: nullable(text()),
  /** A configured short domain that serves `/<key>`; null: the tracking handler's host and prefix. */
  domain: nullable(text()),
  utmSource: nullable(text()),
  utmMedium: nullable(text()),
  utmCampaign: nullable(text()),
  utmTerm: nullable(text()),
  utmContent: nullable(text()),
}

/** A new link from the fields it sets: those left out of the nullable ones are null. */
export const newLink = withNulls(linkFields)

export const clickFields = {
  ...owned,
  affiliateId: id(),
  ipAddress: nullable(text()),
  userAgent: nullable(text()),
  landingUrl: nullable(text()),
}

export const payoutFields = {
  ...owned,
  affiliateId: id(),
  affiliateEmail: text(),
  amount: money(),
  currency: text(),
  method: text<PayoutMethod>(),
  status: notShown(text<PayoutStatus>()),
  paymentDate: date(),
  conversionsSettled: int(),
  unpaidAfter: money(),
}

/** An affiliate's request to be paid (docs/payouts.md "Payout requests"): open until a payout is recorded. */
export const payoutRequestFields = {
  ...owned,
  affiliateId: id(),
  /** The payable balance when it was requested. */
  amount: money(),
  currency: text(),
  status: text<PayoutRequestStatus>(),
  /** The payout that answered it. */
  payoutId: nullable(id()),
  resolvedAt: nullable(date()),
}

/**
 * One change of an affiliate's ledger, as recorded (docs/payouts.md "The ledger as of a date"):
 * createdAt is when it was recorded; the deltas are those of the running totals.
 */
export const ledgerMovementFields = {
  ...owned,
  affiliateId: id(),
  type: text<LedgerMovementType>(),
  conversionId: nullable(id()),
  payoutId: nullable(id()),
  /** The conversion's holdUntil (null for payouts): what held and payable as of a date read. */
  holdUntil: nullable(date()),
  countedValue: money(),
  paidValue: money(),
  credit: money(),
}

export const webhookEndpointFields = {
  ...owned,
  url: text(),
  events: json<EventType[]>(),
  secret: notShown(nullable(text())),
  /** Still signs (beside `secret`) until `previousSecretExpiresAt`, for secret rotation. */
  previousSecret: notShown(nullable(text())),
  previousSecretExpiresAt: notShown(nullable(date())),
  mode: text<WebhookSigningMode>(),
  active: bool(),
}

export const webhookEventFields = {
  ...owned,
  type: text<EventType>(),
  /** Serialized once when recorded; every attempt sends these exact bytes. */
  body: text(),
}

export const deliveryFields = {
  ...owned,
  eventId: id(),
  endpointId: id(),
  eventType: text<EventType>(),
  status: text<DeliveryStatus>(),
  attempts: int(),
  nextAttemptAt: nullable(date()),
  leaseUntil: nullable(date()),
  lastStatusCode: nullable(int()),
  updatedAt: date(),
}

export const deliveryAttemptFields = {
  id: id(),
  deliveryId: id(),
  projectId: text(),
  attemptedAt: date(),
  statusCode: nullable(int()),
  durationMs: float(),
  responseExcerpt: nullable(text()),
  error: nullable(text()),
}

/** One payment-provider event as received, with its outcome. Unique per (project, provider, eventId). */
export const providerEventFields = {
  ...owned,
  /** One of PROVIDER_NAMES (types.ts). */
  provider: text(),
  /** The provider's event id. */
  eventId: text(),
  /** The provider's event type, e.g. invoice.paid. */
  type: text(),
  /** The payment (invoice, transaction, order) or customer the event is about. */
  reference: nullable(text()),
  status: text<ProviderEventStatus>(),
  /** Why it was ignored or is waiting, or what it did, in words. */
  detail: nullable(text()),
  /** The conversion it created or changed. */
  conversionId: nullable(id()),
  /** Base value this event refunded, as decimal text in the payment's currency. */
  refundAmount: nullable(text()),
  /** What a waiting event waits for, e.g. customer:cus_123 or payment:in_123. */
  waitingFor: nullable(text()),
  /** The provider-neutral mapping of the event, kept while it may apply later (null on a record saved in its final state). */
  mapped: json<unknown>(),
  /** When the provider says the event happened. */
  occurredAt: date(),
  updatedAt: date(),
}

/** A payout sent through a provider (docs/payouts.md "Automatic payouts"): where it stands there. */
export const providerPayoutFields = {
  ...owned,
  payoutId: id(),
  affiliateId: id(),
  provider: text<ProviderPayoutProvider>(),
  state: text<ProviderPayoutState>(),
  /** The provider's own status of the item (PayPal's transaction_status, Stripe's transfer state). */
  itemStatus: nullable(text()),
  /** The provider's id of the batch or transfer, once known. */
  reference: nullable(text()),
  /** Where the money goes when that is not personal data: a Stripe connected account id (acct_...). */
  destination: nullable(text()),
  /** The provider's last reply worth showing (an error message, a return reason). */
  reply: nullable(text()),
  /** The period (YYYY-MM) a payout run paid it for: one per affiliate and period (docs/payouts.md "Payout runs"). */
  runPeriod: nullable(text()),
  updatedAt: date(),
}

/** One email to one affiliate, derived from an outbox event (docs/email.md). */
export const mailMessageFields = {
  ...owned,
  kind: text<MailKind>(),
  affiliateId: id(),
  /** The address at queue time; the send goes to the affiliate's current address when it still exists. */
  recipient: text(),
  /** What the template needs, as the event carried it. */
  payload: json<Record<string, unknown>>(),
  /** Unique per project when set: a summary or a follow-up is queued once. */
  dedupeKey: nullable(text()),
  status: text<MailStatus>(),
  /** Attempts started: counted when claimed, before the SMTP conversation (docs/email.md "Never twice"). */
  attempts: int(),
  nextAttemptAt: nullable(date()),
  leaseUntil: nullable(date()),
  /** The SMTP server's last reply, or the error when none came. */
  lastReply: nullable(text()),
  sentAt: nullable(date()),
  updatedAt: date(),
}

export const mailAttemptFields = {
  id: id(),
  mailId: id(),
  projectId: text(),
  attemptedAt: date(),
  outcome: text<'sent' | 'failed' | 'bounced' | 'skipped' | 'expired'>(),
  reply: nullable(text()),
  durationMs: float(),
}
