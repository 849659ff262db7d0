// What an import reads: one async iterable per entity, in records already mapped from the tool's
// own shape to plain fields (each tool's folder does that mapping). Amounts are integer minor units
// of their currency, as every tool's API gives them.
import type { AffiliateStatus } from '../core/model/types.js'

export interface SourceAffiliate {
  /** The tool's id, named in the report. */
  sourceId: string
  email: string
  name: string | null
  status: AffiliateStatus
  paypalEmail: string | null
  /** Link tokens (`?via=`, `?ref=`...): the first becomes the referral code when it is free. */
  tokens: string[]
  /** What the tool keeps of some of those tokens beyond the token (Dub's links): imported into their links. */
  links?: SourceLink[]
  /** Campaign or group name: the sub-program slug when the project has one of that name. */
  group: string | null
}

/** A link token's destination and UTM parameters in the tool (docs/links.md "Imports"); null where it has none. */
export interface SourceLink {
  token: string
  destination: string | null
  utmSource: string | null
  utmMedium: string | null
  utmCampaign: string | null
  utmTerm: string | null
  utmContent: string | null
}

export interface SourceCoupon {
  sourceId: string
  affiliateSourceId: string
  code: string
  /** The payment provider's id of the coupon or promotion code. */
  providerCouponId: string | null
}

export interface SourceCustomer {
  sourceId: string
  affiliateSourceId: string
  /** Null for an anonymous visitor: nothing to import. */
  email: string | null
  /** Paid at least once (a conversion), else a lead. */
  converted: boolean
  /** The payment provider's customer id (Stripe `cus_...`, Paddle `ctm_...`): its next invoices credit the affiliate. */
  providerCustomerId: string | null
  /** When the customer first paid, when the tool says: renewals continue under the recurring rule's duration. */
  firstPurchaseAt?: Date | null
}

/** pending: inside the tool's hold; due: payable; paid; voided: cancelled (refund, fraud). */
export type SourceCommissionState = 'pending' | 'due' | 'paid' | 'voided'

export interface SourceCommission {
  sourceId: string
  affiliateSourceId: string
  customerEmail: string | null
  /** Commission, in minor units of `currency`. */
  amountMinor: number
  /** Null when the tool does not say (its account has one currency): the project's. */
  currency: string | null
  state: SourceCommissionState
  /** When the sale happened: the conversion's date. */
  occurredAt: Date
  /** The sale the commission is for, in minor units of `saleCurrency`; null when the tool does not say. */
  saleAmountMinor: number | null
  saleCurrency: string | null
}

/** A payout the tool made: the paid commissions it bundled. */
export interface SourcePayout {
  sourceId: string
  affiliateSourceId: string
  paidAt: Date
  commissionSourceIds: string[]
}

export interface ImportSource {
  /** Lowercase tool name, used in references: `import:<name>:<id>`. */
  name: string
  affiliates(): AsyncIterable<SourceAffiliate>
  coupons(): AsyncIterable<SourceCoupon>
  customers(): AsyncIterable<SourceCustomer>
  commissions(): AsyncIterable<SourceCommission>
  /** Paid payouts, from a tool that lists them with their commissions (else paid commissions are in no payout). */
  payouts?(): AsyncIterable<SourcePayout>
}

/** A failure of the source as a whole (refused key, unreachable API): stops the import. */
export class ImportSourceError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImportSourceError'
  }
}
