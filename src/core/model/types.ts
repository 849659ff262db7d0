// Domain records as the core sees them, derived from their definitions in src/core/model/entities.ts.
// Money is bigint minor units of the project currency (or of `baseCurrency` for
// `Conversion.baseValue`); no driver or HTTP type appears here. The values records are made of
// (statuses, settings, rules) are in values.ts, which entities.ts imports; they are re-exported here.
import type * as entities from './entities.js'
import type { RecordOf } from './entity.js'

export * from './values.js'

export interface Project extends RecordOf<typeof entities.projectFields> {}

export interface ApiKeyRecord extends RecordOf<typeof entities.apiKeyFields> {}

/** Running totals kept on the affiliate row, changed by deltas in the same transaction. */
export interface AffiliateTotals extends RecordOf<typeof entities.affiliateTotalsFields> {}
export type TotalsDelta = Partial<AffiliateTotals>

export interface Affiliate extends RecordOf<typeof entities.affiliateFields> {
  totals: AffiliateTotals
}

export interface Referral extends RecordOf<typeof entities.referralFields> {}

export interface Conversion extends RecordOf<typeof entities.conversionFields> {}

export interface Coupon extends RecordOf<typeof entities.couponFields> {}

export interface Click extends RecordOf<typeof entities.clickFields> {}

/** An affiliate's link (docs/links.md). */
export interface Link extends RecordOf<typeof entities.linkFields> {}

export interface Payout extends RecordOf<typeof entities.payoutFields> {}
export interface PayoutRequest extends RecordOf<typeof entities.payoutRequestFields> {}
export interface LedgerMovement extends RecordOf<typeof entities.ledgerMovementFields> {}

export interface ProviderPayout extends RecordOf<typeof entities.providerPayoutFields> {}

export interface WebhookEndpoint extends RecordOf<typeof entities.webhookEndpointFields> {}

export interface WebhookEvent extends RecordOf<typeof entities.webhookEventFields> {}

export interface Delivery extends RecordOf<typeof entities.deliveryFields> {}

export interface DeliveryAttempt extends RecordOf<typeof entities.deliveryAttemptFields> {}

export interface MailMessage extends RecordOf<typeof entities.mailMessageFields> {}

export interface MailAttempt extends RecordOf<typeof entities.mailAttemptFields> {}

export interface Page<T> {
  items: T[]
  total: number
}

/** What a received payment-provider event did (see src/providers). */
/**
 * The payment providers, by the name in their URL, their event log and their entry point
 * (affiliate-kit/<name>): the one list the schemas, the OpenAPI documents, the server's config,
 * its event routes and the build entries read. Each has its folder, src/providers/<name>/, and
 * its line in src/providers/registry.ts.
 */
export const PROVIDER_NAMES = ['stripe', 'paddle', 'lemon-squeezy', 'polar', 'braintree', 'chargebee', 'recurly'] as const
export type ProviderName = (typeof PROVIDER_NAMES)[number]

/** The documented prefix of a provider's customer ids, where it has one (imports carry these ids). */
export const CUSTOMER_ID_PREFIXES: Partial<Record<ProviderName, string>> = { stripe: 'cus_', paddle: 'ctm_' }

/** One payment-provider event as received, with its outcome. Unique per (project, provider, eventId). */
export interface ProviderEvent extends RecordOf<typeof entities.providerEventFields> {}

/** A remembered fact about a provider object: a customer's email and referral, a payment's invoice. */
export interface ProviderLink {
  projectId: string
  provider: string
  /** 'customer' or 'payment'. */
  kind: string
  externalId: string
  data: Record<string, string | null>
}

/** An unpaid counted conversion: what terms need of it. */
export interface OpenCommission {
  id: number
  affiliateId: number
  /** Its unpaid money (minor units). */
  unpaid: bigint
  holdUntil: Date
  createdAt: Date
}
