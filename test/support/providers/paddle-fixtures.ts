// Paddle Billing notifications shaped like the published ones (webhook payload reference), typed
// with @paddle/paddle-node-sdk's notification types. Amounts are integer text in cents.
import type {
  IAdjustmentNotificationResponse,
  ICustomerNotificationResponse,
  ISubscriptionNotificationResponse,
  ITransactionNotificationResponse,
} from '@paddle/paddle-node-sdk'

export interface PaddleEventFixture<T> {
  event_id: string
  event_type: string
  occurred_at: string
  notification_id: string
  data: T
}

let counter = 0
function envelope<T>(eventType: string, at: string, data: T): PaddleEventFixture<T> {
  counter += 1
  const id = `${new Date(at).getTime().toString(36)}${counter}`
  return { event_id: `evt_01${id}`, event_type: eventType, occurred_at: new Date(at).toISOString(), notification_id: `ntf_01${id}`, data }
}

export function customerCreated(input: { at: string; id: string; email: string }) {
  const customer: ICustomerNotificationResponse = {
    id: input.id,
    name: null,
    email: input.email,
    marketing_consent: false,
    status: 'active',
    custom_data: null,
    locale: 'en',
    created_at: input.at,
    updated_at: input.at,
    import_meta: null,
  }
  return envelope('customer.created', input.at, customer)
}

export interface TransactionInput {
  at: string
  id: string
  customer: string
  subtotal: number
  discount?: { amount: number; id: string }
  tax: number
  subscription?: string
  origin: ITransactionNotificationResponse['origin']
  referral?: string
  /** The product of its one item (`items[].price.product_id`). @default no item listed */
  product?: string
}

/** The transaction's one item: a monthly price of `product`. */
function itemOf(product: string, amount: number): ITransactionNotificationResponse['items'][number] {
  return {
    price_id: `pri_${product}`,
    price: {
      id: `pri_${product}`,
      product_id: product,
      description: 'Monthly',
      tax_mode: 'account_setting',
      unit_price: { amount: String(amount), currency_code: 'USD' },
      unit_price_overrides: [],
      quantity: { minimum: 1, maximum: 1 },
      status: 'active',
    },
    quantity: 1,
    proration: null,
  }
}

export function transactionCompleted(input: TransactionInput) {
  const discount = input.discount?.amount ?? 0
  const total = input.subtotal - discount + input.tax
  const totals = {
    subtotal: String(input.subtotal),
    discount: String(discount),
    tax: String(input.tax),
    total: String(total),
    credit: '0',
    credit_to_balance: '0',
    balance: '0',
    grand_total: String(total),
    grand_total_tax: String(input.tax),
    fee: null,
    earnings: null,
    currency_code: 'USD' as const,
  }
  const transaction: ITransactionNotificationResponse = {
    id: input.id,
    status: 'completed',
    customer_id: input.customer,
    address_id: `add_${input.customer}`,
    business_id: null,
    custom_data: input.referral ? { referral: input.referral } : null,
    currency_code: 'USD',
    origin: input.origin,
    subscription_id: input.subscription ?? null,
    invoice_id: null,
    invoice_number: null,
    collection_mode: 'automatic',
    discount_id: input.discount?.id ?? null,
    billing_details: null,
    billing_period: null,
    items: input.product ? [itemOf(input.product, input.subtotal)] : [],
    details: { tax_rates_used: [], totals, adjusted_totals: null, payout_totals: null, adjusted_payout_totals: null, line_items: [] },
    payments: [],
    checkout: { url: null },
    created_at: input.at,
    updated_at: input.at,
    billed_at: input.at,
    revised_at: null,
  }
  return envelope('transaction.completed', input.at, transaction)
}

export interface AdjustmentInput {
  at: string
  id: string
  transaction: string
  customer: string
  type: 'full' | 'partial'
  status: IAdjustmentNotificationResponse['status']
  /** @default 'refund' */
  action?: IAdjustmentNotificationResponse['action']
  /** Before tax, in cents. */
  subtotal: number
  tax: number
}

/** A refund (or credit) adjustment: a refund is created pending approval, then updated once approved. */
export function adjustment(eventType: 'adjustment.created' | 'adjustment.updated', input: AdjustmentInput) {
  const data: IAdjustmentNotificationResponse = {
    id: input.id,
    action: input.action ?? 'refund',
    type: input.type,
    transaction_id: input.transaction,
    subscription_id: null,
    customer_id: input.customer,
    reason: 'requested by customer',
    credit_applied_to_balance: false,
    currency_code: 'USD',
    status: input.status,
    items: [],
    totals: {
      subtotal: String(input.subtotal),
      tax: String(input.tax),
      total: String(input.subtotal + input.tax),
      fee: '0',
      earnings: '0',
      currency_code: 'USD',
      retained_fee: '0',
    },
    payout_totals: null,
    created_at: input.at,
    updated_at: input.at,
  }
  return envelope(eventType, input.at, data)
}

/**
 * subscription.trialing (a subscription entering its trial: status `trialing`, `next_billed_at` at
 * the trial's end, the checkout's custom data) and subscription.canceled (status `canceled`).
 */
export function subscriptionEvent(eventType: 'subscription.trialing' | 'subscription.canceled', input: { at: string; id: string; customer: string; trialEnd: string; referral?: string }) {
  const canceled = eventType === 'subscription.canceled'
  const subscription: ISubscriptionNotificationResponse = {
    id: input.id,
    status: canceled ? 'canceled' : 'trialing',
    customer_id: input.customer,
    address_id: `add_${input.customer}`,
    business_id: null,
    currency_code: 'USD',
    created_at: input.at,
    updated_at: input.at,
    started_at: input.at,
    first_billed_at: null,
    next_billed_at: canceled ? null : input.trialEnd,
    paused_at: null,
    canceled_at: canceled ? input.at : null,
    discount: null,
    collection_mode: 'automatic',
    billing_details: null,
    current_billing_period: canceled ? null : { starts_at: input.at, ends_at: input.trialEnd },
    billing_cycle: { interval: 'month', frequency: 1 },
    scheduled_change: null,
    items: [],
    custom_data: input.referral ? { referral: input.referral } : null,
    import_meta: null,
  }
  return envelope(eventType, input.at, subscription)
}
