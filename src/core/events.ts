// Webhook event payloads (docs/webhooks.md "Payloads"), serialized once when recorded.
import { formatMoney, minorDigits, moneyNumber } from './money.js'
import type { Affiliate, Conversion, EventType, Payout, Referral } from './types.js'
import type { NewEvent } from './storage.js'

interface Party {
  affiliate: Affiliate
  referred: Pick<Referral, 'id' | 'email'> | null
}

function common(type: EventType, projectId: string, at: Date, party: Party) {
  const { affiliate } = party
  const preferences: { paypal_email?: string; wise_details?: { accountId: string; email: string } } = {}
  if (affiliate.paypalEmail) preferences.paypal_email = affiliate.paypalEmail
  if (affiliate.wiseDetails) preferences.wise_details = affiliate.wiseDetails
  return {
    event: type,
    timestamp: Math.floor(at.getTime() / 1000),
    project_id: projectId,
    affiliate: {
      id: String(affiliate.id),
      email: affiliate.email,
      ...(Object.keys(preferences).length > 0 ? { payout_preferences: preferences } : {}),
    },
    referred: party.referred ? { id: String(party.referred.id), email: party.referred.email } : null,
  }
}

/**
 * The body is built and serialized on first read, once: adapters that store nothing when no
 * endpoint subscribes never pay for it.
 */
class RecordedEvent implements NewEvent {
  private serialized: string | undefined
  constructor(
    readonly type: EventType,
    readonly projectId: string,
    readonly createdAt: Date,
    private readonly build: () => object,
  ) {}

  get body(): string {
    this.serialized ??= JSON.stringify(this.build())
    return this.serialized
  }
}

function event(type: EventType, projectId: string, at: Date, build: () => object): NewEvent {
  return new RecordedEvent(type, projectId, at, build)
}

function baseAmount(conversion: Conversion): number {
  return conversion.baseValue === null ? 0 : moneyNumber(conversion.baseValue, minorDigits(conversion.baseCurrency ?? 'USD'))
}

export interface ConversionEventContext extends Party {
  currency: string
  at: Date
  paymentProcessor?: string | undefined
  productId?: string | undefined
}

export function referralConverted(conversion: Conversion, context: ConversionEventContext): NewEvent {
  const digits = minorDigits(context.currency)
  return event('referral_converted', conversion.projectId, context.at, () => ({
    ...common('referral_converted', conversion.projectId, context.at, context),
    conversion: {
      id: String(conversion.id),
      amount: baseAmount(conversion),
      currency: conversion.baseCurrency ?? context.currency,
      commission_amount: moneyNumber(conversion.value, digits),
      commission_type: conversion.commissionType,
      commission_rate: conversion.commissionRate === null ? 0 : Number(conversion.commissionRate),
      payment_processor: context.paymentProcessor ?? '',
      product_id: context.productId ?? '',
      order_id: conversion.reference ?? '',
      conversion_date: conversion.createdAt.toISOString(),
    },
  }))
}

export function referralUpdated(
  conversion: Conversion,
  context: ConversionEventContext & { amountUsd: number | null },
): NewEvent {
  return event('referral_updated', conversion.projectId, context.at, () => {
    const base = baseAmount(conversion)
    return {
      ...common('referral_updated', conversion.projectId, context.at, context),
      conversion: {
        id: String(conversion.id),
        amount: base,
        amount_usd: context.amountUsd,
        commission_amount: moneyNumber(conversion.value, minorDigits(context.currency)),
        base_value: base,
        conversion_date: conversion.createdAt.toISOString(),
        reference: conversion.reference ?? '',
      },
    }
  })
}

export function referralCanceled(
  conversion: Conversion,
  context: ConversionEventContext & { refundAmount: bigint; reason: string },
): NewEvent {
  const digits = minorDigits(context.currency)
  const baseDigits = minorDigits(conversion.baseCurrency ?? context.currency)
  return event('referral_canceled', conversion.projectId, context.at, () => ({
    ...common('referral_canceled', conversion.projectId, context.at, context),
    conversion: {
      id: String(conversion.id),
      amount: baseAmount(conversion),
      commission_amount: moneyNumber(conversion.value, digits),
      refund_amount: moneyNumber(context.refundAmount, baseDigits),
      reason: context.reason,
      canceled_date: context.at.toISOString(),
    },
  }))
}

export function referralSignedUp(
  referral: Referral,
  context: Party & { at: Date; userAgent: string; ipAddress: string },
): NewEvent {
  return event('referral_signed_up', referral.projectId, context.at, () => ({
    ...common('referral_signed_up', referral.projectId, context.at, context),
    data: {
      referral_code: context.affiliate.referralCode,
      signup_date: referral.createdAt.toISOString(),
      user_agent: context.userAgent,
      ip_address: context.ipAddress,
    },
  }))
}

export function payoutCreated(payout: Payout, context: Party & { at: Date }): NewEvent {
  const digits = minorDigits(payout.currency)
  return event('payout.created', payout.projectId, context.at, () => ({
    ...common('payout.created', payout.projectId, context.at, context),
    payout: {
      id: String(payout.id),
      amount: formatMoney(payout.amount, digits),
      currency: payout.currency,
      method: payout.method,
      payment_date: payout.paymentDate.toISOString(),
      conversions_settled: payout.conversionsSettled,
    },
  }))
}

/** An affiliate asked the portal for a sign-in link: the host emails `link` (docs/portal.md). */
export function portalSignInRequested(affiliate: Affiliate, context: { link: string; expiresAt: Date; at: Date }): NewEvent {
  return event('portal.sign_in_requested', affiliate.projectId, context.at, () => ({
    ...common('portal.sign_in_requested', affiliate.projectId, context.at, { affiliate, referred: null }),
    sign_in: { link: context.link, expires_at: context.expiresAt.toISOString() },
  }))
}
