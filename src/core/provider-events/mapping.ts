// The provider-neutral mapping: what a payment provider's event means in the core's terms.
// Every provider module (src/providers/<name>/) turns its verified event into a MappedEvent;
// apply.ts applies it, and the event log keeps it as JSON (storedMapping, revivedMapping).

/** A payment that may earn a commission (an invoice, transaction or order that was paid). */
export interface PaidAction {
  kind: 'paid'
  /** The payment's id (invoice, transaction, order): the conversion's reference. */
  reference: string
  customerId: string | null
  email: string | null
  /** Before tax and after discounts, in minor units of `currency`. */
  amount: bigint
  /** ISO 4217, upper case. */
  currency: string
  /** The names of the discount used (see CustomerAction's `coupons`). */
  coupons: string[]
  subscriptionId: string | null
  /** True for one-off payments and the first payment of a subscription. */
  firstPayment: boolean
  /** Other ids a later refund may name this payment by (payment intent, charge). */
  aliases: string[]
  /**
   * All the customer paid for it, tax included, in the provider's minor units, when it may be
   * paid in parts (a Stripe invoice paid by several payment intents): a refund of one part counts
   * against this.
   */
  paidTotal?: bigint
  /** The card's fingerprint, where the provider gives it (a Stripe charge's payment_method_details.card.fingerprint): the fraud rules' signal (docs/fraud.md). */
  cardFingerprint?: string
  /** The product paid for (picks its commission rule, docs/commissions.md "Products"); null or absent when not known. */
  productId?: string | null
  /**
   * The payment's lines when they are of several products (a subscription and its setup fee):
   * each earns by its own product's rule, as one conversion (docs/commissions.md "Products").
   */
  lines?: PaidLine[]
}

/** One line of a payment: its own id, product, and value (before tax, after discounts, in the payment's minor units). */
export interface PaidLine {
  id: string
  productId: string | null
  amount: bigint
}

/** A refund of an earlier payment. */
export interface RefundedAction {
  kind: 'refunded'
  /** The refunded payment's reference, or one of its aliases. */
  paymentReference: string
  /** Everything was refunded. */
  full: boolean
  /**
   * The provider's running total: `refunded` so far out of `of` (both in the payment's minor
   * units, tax included or not, as long as both alike): the commission shrinks pro rata.
   */
  soFar?: {
    refunded: bigint
    of: bigint
    /** The part of the payment (a charge) these totals are of, when it may be paid in parts. */
    part?: string
  }
  /** One refund of `amount` base-value minor units, applied once per refund id. */
  single?: { refundId: string; amount: bigint }
}

/** Ids of a payment learned after it (a payment intent that paid an invoice): refunds may name it by them. */
export interface AliasAction {
  kind: 'alias'
  /** The payment's reference (or one of its aliases). */
  paymentReference: string
  aliases: string[]
}

/** Who a customer is and which referral their checkout carried. */
export interface CustomerAction {
  kind: 'customer'
  customerId: string | null
  email: string | null
  /** An affiliate's referral code. */
  referral: string | null
  /**
   * The names of a discount used at checkout (its promotion code's text or id, its coupon id),
   * most specific first, each matched against the affiliates' coupons by code and by processor
   * coupon id: the coupon's affiliate is credited when there is no referral code.
   */
  coupons: string[]
}

/**
 * A transfer paying one of the program's payouts was reversed (Stripe Connect's transfer.reversed,
 * docs/payouts.md "Stripe Connect"): in full, the payout's amount is back in the balance.
 */
export interface TransferReversedAction {
  kind: 'transfer-reversed'
  /** The transfer's id (tr_...): the provider payout's reference. */
  transfer: string
  /** The payout the transfer paid and its project, from the transfer's metadata; null when it carries none. */
  payoutId: number | null
  projectId: string | null
  /** The whole amount was reversed (a partial reversal is shown, not applied). */
  full: boolean
}

/** A subscription's free trial started: the customer's affiliate earns the trial reward, once (docs/commissions.md "Leads and trials"). */
export interface TrialStartedAction {
  kind: 'trial-started'
  /** The subscription's id: the trial conversion's reference is `trial:<id>`. */
  subscriptionId: string
  customerId: string | null
  email: string | null
}

/**
 * A subscription ended for good (canceled, expired, unpaid): a trial reward it earned is taken
 * back when its customer never paid and the rule says `clawbackUnpaid`.
 */
export interface SubscriptionEndedAction {
  kind: 'subscription-ended'
  subscriptionId: string
}

export type ProviderAction = PaidAction | RefundedAction | CustomerAction | AliasAction | TransferReversedAction | TrialStartedAction | SubscriptionEndedAction

export interface MappedEvent {
  eventId: string
  /** The provider's event type. */
  type: string
  occurredAt: Date
  /** The payment or customer the event is about (for listing by reference). */
  reference: string | null
  /** What to apply, in order; empty when the event is ignored. */
  actions: ProviderAction[]
  /** Why nothing is applied (unknown type, zero amount...). */
  ignored?: string
}

/** The event as JSON-safe data for the event log (bigints as integer text, dates as ISO text). */
export function storedMapping(mapped: MappedEvent): unknown {
  const actions = mapped.actions.map((action) => {
    if (action.kind === 'paid') {
      const lines = action.lines?.map((line) => ({ ...line, amount: line.amount.toString() }))
      return { ...action, amount: action.amount.toString(), paidTotal: action.paidTotal?.toString(), ...(lines ? { lines } : {}) }
    }
    if (action.kind !== 'refunded') return action
    return {
      ...action,
      ...(action.soFar ? { soFar: { ...action.soFar, refunded: action.soFar.refunded.toString(), of: action.soFar.of.toString() } } : {}),
      ...(action.single ? { single: { refundId: action.single.refundId, amount: action.single.amount.toString() } } : {}),
    }
  })
  return { ...mapped, occurredAt: mapped.occurredAt.toISOString(), actions }
}

/** The event back from storedMapping's form. */
export function revivedMapping(stored: unknown): MappedEvent {
  const data = stored as MappedEvent & { occurredAt: string }
  const big = (value: unknown) => BigInt(value as string)
  const actions = data.actions.map((stored): ProviderAction => {
    const action = withCoupons(stored)
    if (action.kind === 'paid') {
      const lines = action.lines?.map((line) => ({ ...line, amount: big(line.amount) }))
      return { ...action, amount: big(action.amount), paidTotal: action.paidTotal == null ? undefined : big(action.paidTotal), ...(lines ? { lines } : {}) }
    }
    if (action.kind === 'refunded') {
      return {
        ...action,
        ...(action.soFar ? { soFar: { ...action.soFar, refunded: big(action.soFar.refunded), of: big(action.soFar.of) } } : {}),
        ...(action.single ? { single: { refundId: action.single.refundId, amount: big(action.single.amount) } } : {}),
      }
    }
    return action
  })
  return { ...data, occurredAt: new Date(data.occurredAt), actions }
}

/** Mappings stored by earlier versions name one coupon, as `couponCode`. */
function withCoupons(action: ProviderAction & { couponCode?: string | null }): ProviderAction {
  if (action.kind !== 'paid' && action.kind !== 'customer') return action
  if (Array.isArray(action.coupons)) return action
  const { couponCode, ...rest } = action
  return { ...rest, coupons: couponCode ? [couponCode] : [] }
}
