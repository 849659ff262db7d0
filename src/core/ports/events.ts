// Webhook event payloads (docs/webhooks.md "Payloads"): plain objects, serialized once by the
// adapter that records them. Dates and Money stay as they are until then (JSON.stringify writes
// them as ISO text and numbers), so an event no endpoint wants costs no formatting. What several
// events about one change share is computed once. Each builder's payload type is what
// affiliate-kit/webhooks publishes to receivers (src/webhooks/events.ts): one definition for both.
import { PAYOUT_PREFERENCES } from '../model/entities.js'
import { currencyOr, type Currency } from '../model/money.js'
import type { Affiliate, Conversion, EventType, Payout, PayoutRequest, Referral, WiseDetails } from '../model/types.js'
import type { NewEvent } from './storage.js'

interface Party {
  affiliate: Affiliate
  referred: Pick<Referral, 'id' | 'email'> | null
}

/** The payload's key of each payout preference (docs/webhooks.md "Payloads"). */
const PREFERENCE_KEYS: Record<(typeof PAYOUT_PREFERENCES)[number], string> = { paypalEmail: 'paypal_email', wiseDetails: 'wise_details' }

/** The payout preferences an affiliate has set, under their payload keys. */
export type PayoutPreferences = { paypal_email?: string; wise_details?: WiseDetails }

/** The payout preferences the affiliate has set, under their payload keys (paypal_email...). */
function payoutPreferences(affiliate: Affiliate): PayoutPreferences | null {
  let preferences: Record<string, unknown> | null = null
  for (const name of PAYOUT_PREFERENCES) {
    const value = affiliate[name]
    if (value) (preferences ??= {})[PREFERENCE_KEYS[name]] = value
  }
  return preferences
}

/** The fields every payload starts with, after `event` (a type, not an interface: payloads are records). */
type Envelope = {
  timestamp: number
  project_id: string
  affiliate: { id: string; email: string; payout_preferences?: PayoutPreferences }
  referred: { id: string; email: string } | null
}

type Section = 'conversion' | 'data' | 'payout' | 'sign_in' | 'application' | 'tier'

/** An event's payload: its type, the envelope, and its own section. */
export type EventPayload<T extends EventType, S extends Section, B> = { event: T } & Envelope & { [K in S]: B }

/** A recorded event whose payload type is known. */
export interface TypedEvent<T extends EventType, P extends NewEvent['payload']> extends NewEvent {
  type: T
  payload: P
}

function envelope(projectId: string, at: Date, party: Party): Envelope {
  const { affiliate } = party
  const preferences = payoutPreferences(affiliate)
  return {
    timestamp: Math.floor(at.getTime() / 1000),
    project_id: projectId,
    affiliate: preferences
      ? { id: String(affiliate.id), email: affiliate.email, payout_preferences: preferences }
      : { id: String(affiliate.id), email: affiliate.email },
    referred: party.referred ? { id: String(party.referred.id), email: party.referred.email } : null,
  }
}

function event<T extends EventType, S extends Section, B extends object>(type: T, projectId: string, at: Date, shared: Envelope, section: S, body: B): TypedEvent<T, EventPayload<T, S, B>> {
  const payload = { event: type, timestamp: shared.timestamp, project_id: shared.project_id, affiliate: shared.affiliate, referred: shared.referred, [section]: body } as EventPayload<T, S, B>
  return { projectId, type, payload, createdAt: at }
}

export interface ConversionEventContext extends Party {
  /** The project currency, in which the commission is. */
  currency: Currency
  at: Date
  paymentProcessor?: string | undefined
  productId?: string | undefined
}

/** The events about one conversion change, sharing their common parts. */
export function conversionEvents(conversion: Conversion, context: ConversionEventContext) {
  const { projectId } = conversion
  const { at } = context
  const shared = envelope(projectId, at, context)
  const baseCurrency = currencyOr(conversion.baseCurrency, context.currency)
  const id = String(conversion.id)
  const amount = conversion.baseValue === null ? 0 : baseCurrency.amount(conversion.baseValue)
  const commission = context.currency.amount(conversion.value)
  return {
    converted: () =>
      event('referral_converted', projectId, at, shared, 'conversion', {
        id,
        amount,
        currency: baseCurrency.code,
        commission_amount: commission,
        commission_type: conversion.commissionType,
        commission_rate: conversion.commissionRate === null ? 0 : Number(conversion.commissionRate),
        payment_processor: context.paymentProcessor ?? '',
        product_id: context.productId ?? '',
        order_id: conversion.reference ?? '',
        conversion_date: conversion.createdAt,
        // Why the fraud rules held or rejected it (docs/fraud.md); null when nothing did.
        review_reason: conversion.reviewReason,
      }),
    updated: (amountUsd: number | null) =>
      event('referral_updated', projectId, at, shared, 'conversion', {
        id,
        amount,
        amount_usd: amountUsd,
        commission_amount: commission,
        base_value: amount,
        conversion_date: conversion.createdAt,
        reference: conversion.reference ?? '',
        review_reason: conversion.reviewReason,
      }),
    canceled: (refundAmount: bigint, reason: string) =>
      event('referral_canceled', projectId, at, shared, 'conversion', {
        id,
        amount,
        commission_amount: commission,
        refund_amount: baseCurrency.amount(refundAmount),
        reason,
        canceled_date: at,
      }),
  }
}

export function referralSignedUp(
  referral: Referral,
  context: Party & { at: Date; userAgent: string; ipAddress: string },
) {
  return event('referral_signed_up', referral.projectId, context.at, envelope(referral.projectId, context.at, context), 'data', {
    referral_code: context.affiliate.referralCode,
    signup_date: referral.createdAt,
    user_agent: context.userAgent,
    ip_address: context.ipAddress,
  })
}

export function payoutCreated(payout: Payout, context: Party & { at: Date; currency: Currency }) {
  return event('payout.created', payout.projectId, context.at, envelope(payout.projectId, context.at, context), 'payout', {
    id: String(payout.id),
    amount: currencyOr(payout.currency, context.currency).amount(payout.amount).format(),
    currency: payout.currency,
    method: payout.method,
    payment_date: payout.paymentDate,
    conversions_settled: payout.conversionsSettled,
  })
}

/** An affiliate asked to be paid (docs/payouts.md "Payout requests"). */
export function payoutRequested(request: PayoutRequest, context: { affiliate: Affiliate; at: Date; currency: Currency }) {
  const shared = envelope(request.projectId, context.at, { affiliate: context.affiliate, referred: null })
  return event('payout.requested', request.projectId, context.at, shared, 'payout', {
    request_id: String(request.id),
    amount: currencyOr(request.currency, context.currency).amount(request.amount).format(),
    currency: request.currency,
  })
}

/** A recorded payout answered the affiliate's payout request. */
export function payoutPaid(request: PayoutRequest, payout: Payout, context: { affiliate: Affiliate; at: Date; currency: Currency }) {
  const shared = envelope(request.projectId, context.at, { affiliate: context.affiliate, referred: null })
  return event('payout.paid', request.projectId, context.at, shared, 'payout', {
    id: String(payout.id),
    request_id: String(request.id),
    amount: currencyOr(payout.currency, context.currency).amount(payout.amount).format(),
    currency: payout.currency,
    method: payout.method,
    payment_date: payout.paymentDate,
  })
}

/**
 * A payout sent through a provider did not reach the affiliate (failed, returned, blocked, or a
 * Stripe transfer reversed): its amount is back in the affiliate's balance (docs/payouts.md).
 */
export function payoutFailed(payout: Payout, report: { provider: string; status: string | null; reason: string | null }, context: { affiliate: Affiliate; at: Date; currency: Currency }) {
  const shared = envelope(payout.projectId, context.at, { affiliate: context.affiliate, referred: null })
  return event('payout.failed', payout.projectId, context.at, shared, 'payout', {
    id: String(payout.id),
    amount: currencyOr(payout.currency, context.currency).amount(payout.amount).format(),
    currency: payout.currency,
    method: payout.method,
    provider: report.provider,
    provider_status: report.status,
    reason: report.reason,
  })
}

/** An affiliate asked the portal for a sign-in link: the host emails `link` (docs/portal.md). */
export function portalSignInRequested(affiliate: Affiliate, context: { link: string; expiresAt: Date; at: Date; locale?: string | undefined }) {
  const shared = envelope(affiliate.projectId, context.at, { affiliate, referred: null })
  const body: { link: string; expires_at: Date; locale?: string } = { link: context.link, expires_at: context.expiresAt }
  if (context.locale) body.locale = context.locale
  return event('portal.sign_in_requested', affiliate.projectId, context.at, shared, 'sign_in', body)
}

/** The affiliate as an application event names it: its status after the change, name and sub-program. */
const applicant = (affiliate: Affiliate) => ({ status: affiliate.status, name: affiliate.name, partner_slug: affiliate.partnerSlug })

/** The portal's application page created an affiliate (docs/onboarding.md "Events"). */
export function affiliateApplied(affiliate: Affiliate, context: { at: Date }) {
  const shared = envelope(affiliate.projectId, context.at, { affiliate, referred: null })
  const application = affiliate.application
  return event('affiliate.applied', affiliate.projectId, context.at, shared, 'application', {
    ...applicant(affiliate),
    website: application?.website ?? null,
    promotion: application?.promotion ?? null,
    fields: application?.fields ?? {},
    applied_at: application?.appliedAt ?? context.at,
  })
}

/** A pending affiliate was approved (docs/onboarding.md "Events"). */
export function affiliateApproved(affiliate: Affiliate, context: { at: Date }) {
  const shared = envelope(affiliate.projectId, context.at, { affiliate, referred: null })
  return event('affiliate.approved', affiliate.projectId, context.at, shared, 'application', { ...applicant(affiliate), decided_at: context.at })
}

/** A pending affiliate was rejected, with the reason or null (docs/onboarding.md "Events"). */
export function affiliateRejected(affiliate: Affiliate, context: { at: Date; reason: string | null }) {
  const shared = envelope(affiliate.projectId, context.at, { affiliate, referred: null })
  return event('affiliate.rejected', affiliate.projectId, context.at, shared, 'application', { ...applicant(affiliate), reason: context.reason, decided_at: context.at })
}

/** The affiliate's performance tier changed (docs/commissions.md "Performance tiers"): names, null for none. */
export function tierChanged(affiliate: Affiliate, context: { from: string | null; to: string | null; period: string; at: Date }) {
  const shared = envelope(affiliate.projectId, context.at, { affiliate, referred: null })
  return event('affiliate.tier_changed', affiliate.projectId, context.at, shared, 'tier', { from: context.from, to: context.to, period: context.period, changed_at: context.at })
}
