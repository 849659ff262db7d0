// What each entity's rows can be filtered by: the filters the use cases pass to its table's first,
// all and list (src/core/ports/entity-table.ts), each declared once as the field it reads and how it
// compares. Only fields an index serves are declared; both adapters build their queries from these.
import { filterRulesOf, type TableRules } from './entity-table.js'
import type { MailStatus } from '../model/mail-kinds.js'
import type {
  Affiliate,
  AffiliateStatus,
  ApiKeyRecord,
  Click,
  Conversion,
  ConversionType,
  Coupon,
  CouponStatus,
  Delivery,
  DeliveryAttempt,
  DeliveryStatus,
  EventType,
  LedgerMovement,
  Link,
  MailAttempt,
  MailMessage,
  Payout,
  PayoutRequest,
  PayoutRequestStatus,
  ProviderEvent,
  ProviderEventStatus,
  ProviderPayout,
  ProviderPayoutState,
  Referral,
  ReferralStatus,
  WebhookEndpoint,
} from '../model/types.js'

/** No filter: every row of the project. */
export type NoFilter = Record<never, never>
const none = { filters: {} }

export interface AffiliateFilter {
  /** Any of these statuses. */
  statuses?: AffiliateStatus[]
  /** Any of these ids. */
  ids?: readonly number[]
  /** Emails are stored normalized; compared in any case. */
  email?: string
  /** The host app's id of the user. */
  externalId?: string
}
const affiliate = filterRulesOf<Affiliate>()
export const affiliateRules: TableRules<Affiliate, AffiliateFilter> = {
  filters: { statuses: affiliate.oneOf('status'), ids: affiliate.oneOf('id'), email: affiliate.caseless('email', 'affiliate_email'), externalId: affiliate.equals('externalId', 'affiliate_external_id') },
}

export interface ReferralFilter {
  affiliateId?: number
  status?: ReferralStatus
  email?: string
}
const referral = filterRulesOf<Referral>()
export const referralRules: TableRules<Referral, ReferralFilter> = {
  filters: { affiliateId: referral.equals('affiliateId'), status: referral.equals('conversionStatus'), email: referral.caseless('email', 'referral_email') },
}

export interface ConversionFilter {
  type?: ConversionType
  affiliateId?: number
  referredUserId?: number
  paid?: boolean
  /** Inclusive. */
  from?: Date
  /** Exclusive. */
  to?: Date
  reference?: string
  /** The multi-tier shares of a conversion. */
  parentConversionId?: number
}
const conversion = filterRulesOf<Conversion>()
export const conversionRules: TableRules<Conversion, ConversionFilter> = {
  filters: {
    type: conversion.equals('type'),
    affiliateId: conversion.equals('affiliateId'),
    referredUserId: conversion.equals('referredUserId'),
    paid: conversion.equals('paid'),
    from: conversion.atLeast('createdAt'),
    to: conversion.below('createdAt'),
    reference: conversion.equals('reference', 'conversion_reference'),
    parentConversionId: conversion.equals('parentConversionId'),
  },
}

export interface CouponFilter {
  affiliateId?: number
  /** In any case. */
  code?: string
  status?: CouponStatus
  /** Exact (case-sensitive, as providers' ids are). */
  processorCouponId?: string
}
const coupon = filterRulesOf<Coupon>()
export const couponRules: TableRules<Coupon, CouponFilter> = {
  filters: {
    affiliateId: coupon.equals('affiliateId'),
    code: coupon.caseless('code', 'coupon_code'),
    status: coupon.equals('status'),
    processorCouponId: coupon.equals('processorCouponId'),
  },
}

export interface LinkFilter {
  affiliateId?: number
  /** In any case: a key names one link in the project. */
  key?: string
}
const link = filterRulesOf<Link>()
/** `all` oldest first (createdAt, then id): the order an affiliate's aliases are listed in. */
export const linkRules: TableRules<Link, LinkFilter> = {
  filters: { affiliateId: link.equals('affiliateId'), key: link.caseless('key', 'link_key') },
  order: 'createdAt',
}

export interface PayoutFilter {
  affiliateId?: number
  /** Only payouts recorded at or before this moment. */
  upTo?: Date
}
const payout = filterRulesOf<Payout>()
export const payoutRules: TableRules<Payout, PayoutFilter> = {
  filters: { affiliateId: payout.equals('affiliateId'), upTo: payout.atMost('createdAt') },
}

export interface PayoutRequestFilter {
  affiliateId?: number
  status?: PayoutRequestStatus
}
const payoutRequest = filterRulesOf<PayoutRequest>()
export const payoutRequestRules: TableRules<PayoutRequest, PayoutRequestFilter> = {
  filters: { affiliateId: payoutRequest.equals('affiliateId'), status: payoutRequest.equals('status') },
}

export interface ProviderPayoutFilter {
  payoutId?: number
  affiliateId?: number
  state?: ProviderPayoutState
  /** The period (YYYY-MM) a payout run paid for. */
  runPeriod?: string
}
const providerPayout = filterRulesOf<ProviderPayout>()
export const providerPayoutRules: TableRules<ProviderPayout, ProviderPayoutFilter> = {
  filters: {
    payoutId: providerPayout.equals('payoutId'),
    affiliateId: providerPayout.equals('affiliateId'),
    state: providerPayout.equals('state'),
    runPeriod: providerPayout.equals('runPeriod'),
  },
}

export interface LedgerFilter {
  affiliateId?: number
  /** Recorded after this moment. */
  after?: Date
  /** Recorded at or before this moment. */
  upTo?: Date
}
const movement = filterRulesOf<LedgerMovement>()
export const ledgerRules: TableRules<LedgerMovement, LedgerFilter> = {
  filters: { affiliateId: movement.equals('affiliateId'), after: movement.above('createdAt'), upTo: movement.atMost('createdAt') },
  order: 'createdAt',
}

export interface ProviderEventFilter {
  provider?: string
  status?: ProviderEventStatus
  reference?: string
  /** Waiting for any of these keys (with `status: 'waiting'`: the events a key wakes). */
  waitingFor?: readonly string[]
}
const providerEvent = filterRulesOf<ProviderEvent>()
/** `all` oldest payment first (occurredAt, then id): the order waiting events are applied in. */
export const providerEventRules: TableRules<ProviderEvent, ProviderEventFilter> = {
  filters: {
    provider: providerEvent.equals('provider'),
    status: providerEvent.equals('status'),
    reference: providerEvent.equals('reference'),
    waitingFor: providerEvent.oneOf('waitingFor'),
  },
  order: 'occurredAt',
}

export interface MailFilter {
  status?: MailStatus
  /** The mails to one affiliate (a personal data export's). */
  affiliateId?: number
  statusOtherThan?: MailStatus
  /** Any of these statuses. */
  statuses?: readonly MailStatus[]
}
const mail = filterRulesOf<MailMessage>()
export const mailRules: TableRules<MailMessage, MailFilter> = {
  filters: {
    status: mail.equals('status'),
    affiliateId: mail.equals('affiliateId'),
    statusOtherThan: mail.differs('status'),
    statuses: mail.oneOf('status'),
  },
}

export interface DeliveryFilter {
  endpointId?: number
  status?: DeliveryStatus
  eventType?: EventType
  statusOtherThan?: DeliveryStatus
}
const delivery = filterRulesOf<Delivery>()
export const deliveryRules: TableRules<Delivery, DeliveryFilter> = {
  filters: {
    endpointId: delivery.equals('endpointId'),
    status: delivery.equals('status'),
    eventType: delivery.equals('eventType'),
    statusOtherThan: delivery.differs('status'),
  },
}

export interface DeliveryAttemptFilter {
  deliveryId?: number
}
export const deliveryAttemptRules: TableRules<DeliveryAttempt, DeliveryAttemptFilter> = {
  filters: { deliveryId: filterRulesOf<DeliveryAttempt>().equals('deliveryId') },
}

export interface MailAttemptFilter {
  mailId?: number
}
export const mailAttemptRules: TableRules<MailAttempt, MailAttemptFilter> = {
  filters: { mailId: filterRulesOf<MailAttempt>().equals('mailId') },
}

export interface ApiKeyFilter {
  /** Not revoked (true), or revoked (false). */
  unrevoked?: boolean
}
export const apiKeyRules: TableRules<ApiKeyRecord, ApiKeyFilter> = {
  filters: { unrevoked: filterRulesOf<ApiKeyRecord>().isNull('revokedAt') },
}
export const clickRules: TableRules<Click, NoFilter> = none
export const webhookEndpointRules: TableRules<WebhookEndpoint, NoFilter> = none
