// Generated sample payloads for test deliveries: the same builders as real events, fed with
// clearly fake records (ids 0, example.com emails), so receivers see the real shape.
import { newConversion } from '../core/model/entities.js'
import { affiliateApplied, affiliateApproved, affiliateRejected, conversionEvents, payoutCreated, payoutFailed, payoutPaid, payoutRequested, portalSignInRequested, referralSignedUp, tierChanged } from '../core/ports/events.js'
import { Currency } from '../core/model/money.js'
import type { NewEvent } from '../core/ports/storage.js'
import type { Affiliate, Conversion, EventType, Payout, PayoutRequest, Referral } from '../core/model/types.js'

export function sampleEvent(projectId: string, type: EventType, at: Date, currency: string): NewEvent {
  const affiliate: Affiliate = {
    id: 0,
    projectId,
    email: 'affiliate@example.com',
    externalId: null,
    name: 'Sample Affiliate',
    referralCode: 'SAMPLE',
    status: 'active',
    partnerSlug: null,
    paymentMethod: null,
    paymentDetails: null,
    payoutMethod: null,
    paypalEmail: 'affiliate@example.com',
    wiseDetails: null,
    parentId: null,
    customFields: null,
    locale: null,
    emailOptOut: null,
    application: null,
    taxDetails: null,
    stripeAccountId: null,
    commission: null,
    incentives: null,
    tier: null,
    createdAt: at,
    totals: { countedValue: 0n, paidValue: 0n, credit: 0n, clicks: 0, signups: 0, purchases: 0 },
  }
  const referral: Referral = {
    id: 0,
    projectId,
    email: 'customer@example.com',
    affiliateId: 0,
    conversionStatus: 'converted',
    conversionDate: at,
    firstPurchaseAt: at,
    payments: 1,
    lastPayment: null,
    clickId: null,
    createdAt: at,
  }
  const conversion = newConversion<Conversion>({
    id: 0,
    projectId,
    affiliateId: 0,
    referredUserId: 0,
    customerEmail: referral.email,
    type: 'purchase',
    value: 3000n,
    baseValue: 10000n,
    baseCurrency: currency,
    refundedBaseValue: 0n,
    paid: false,
    status: 'active',
    holdUntil: at,
    reference: 'test_order',
    basis: 'purchase',
    commissionType: 'percentage',
    commissionRate: '30',
    tier: 1,
    refundReason: 'test',
    productId: 'prod_sample',
    ruleSource: 'project',
    createdAt: at,
  })
  const application = { website: 'https://example.com', promotion: 'A newsletter', fields: {}, appliedAt: at.toISOString(), termsAcceptedAt: null, decidedAt: null, rejectionReason: null }
  const party = { affiliate, referred: referral }
  const context = { ...party, currency: new Currency(currency), at, paymentProcessor: 'test', productId: 'test_product' }
  switch (type) {
    case 'referral_signed_up':
      return referralSignedUp(referral, { ...party, at, userAgent: 'affiliate-kit test delivery', ipAddress: '192.0.2.1' })
    case 'referral_converted':
      return conversionEvents(conversion, context).converted()
    case 'referral_canceled':
      return conversionEvents(conversion, context).canceled(10000n, 'test')
    case 'referral_updated':
      return conversionEvents(conversion, context).updated(currency === 'USD' ? 100 : null)
    case 'payout.created': {
      const payout: Payout = {
        id: 0,
        projectId,
        affiliateId: 0,
        affiliateEmail: affiliate.email,
        amount: 3000n,
        currency,
        method: 'paypal',
        status: 'paid',
        paymentDate: at,
        conversionsSettled: 1,
        unpaidAfter: 0n,
        createdAt: at,
      }
      return payoutCreated(payout, { affiliate, referred: null, at, currency: context.currency })
    }
    case 'payout.requested':
      return payoutRequested(sampleRequest(projectId, currency, at), { affiliate, at, currency: context.currency })
    case 'payout.paid': {
      const payout: Payout = { id: 0, projectId, affiliateId: 0, affiliateEmail: affiliate.email, amount: 5000n, currency, method: 'paypal', status: 'paid', paymentDate: at, conversionsSettled: 2, unpaidAfter: 0n, createdAt: at }
      return payoutPaid({ ...sampleRequest(projectId, currency, at), status: 'paid', payoutId: 0, resolvedAt: at }, payout, { affiliate, at, currency: context.currency })
    }
    case 'payout.failed': {
      const payout: Payout = { id: 0, projectId, affiliateId: 0, affiliateEmail: affiliate.email, amount: 5000n, currency, method: 'paypal', status: 'failed', paymentDate: at, conversionsSettled: 0, unpaidAfter: 0n, createdAt: at }
      return payoutFailed(payout, { provider: 'paypal', status: 'RETURNED', reason: null }, { affiliate, at, currency: context.currency })
    }
    case 'portal.sign_in_requested':
      return portalSignInRequested(affiliate, { link: 'https://example.com/portal/sign-in?token=sample', expiresAt: new Date(at.getTime() + 900_000), at })
    case 'affiliate.applied':
      return affiliateApplied({ ...affiliate, status: 'pending', application }, { at })
    case 'affiliate.approved':
      return affiliateApproved({ ...affiliate, application }, { at })
    case 'affiliate.rejected':
      return affiliateRejected({ ...affiliate, status: 'blocked', application }, { at, reason: 'test' })
    case 'affiliate.tier_changed':
      return tierChanged({ ...affiliate, tier: 'Gold' }, { from: null, to: 'Gold', period: 'month', at })
  }
}

function sampleRequest(projectId: string, currency: string, at: Date): PayoutRequest {
  return { id: 0, projectId, affiliateId: 0, amount: 5000n, currency, status: 'open', payoutId: null, resolvedAt: null, createdAt: at }
}
