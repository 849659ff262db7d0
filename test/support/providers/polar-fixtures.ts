// Polar webhook payloads shaped like the published ones: { type, timestamp, data }, data an Order
// (order.paid, order.refunded) or a Subscription (subscription.canceled), with the fields of the
// Order and Subscription schemas of Polar's API (polar.sh/docs/api-reference, the same as
// polarsource/polar-js src/models/components/order.ts, ordercustomer.ts, orderitemschema.ts,
// subscription.ts). Amounts are integer cents; the currency is lower case.

export interface PolarEvent<T> {
  type: string
  timestamp: string
  data: T
}

export type BillingReason = 'purchase' | 'subscription_create' | 'subscription_cycle' | 'subscription_update'

export interface OrderInput {
  at: string
  id: string
  customer: string
  email: string
  subtotal: number
  tax: number
  billingReason: BillingReason
  product: string
  discount?: { amount: number; code: string; id: string }
  subscription?: string
  /** The checkout's metadata (copied to the order). */
  metadata?: Record<string, string>
  externalId?: string
  currency?: string
  /** order.refunded: the refunds so far, before tax, and when the last was made. */
  refunded?: { amount: number; tax: number; at: string }
}

function customerOf(input: OrderInput) {
  return {
    id: input.customer,
    created_at: input.at,
    modified_at: null,
    metadata: {},
    external_id: input.externalId ?? null,
    email: input.email,
    email_verified: false,
    name: null,
    billing_address: null,
    tax_id: null,
    organization_id: 'org_shop',
    deleted_at: null,
    avatar_url: 'https://www.gravatar.com/avatar/0',
  }
}

function orderOf(input: OrderInput) {
  const discount = input.discount?.amount ?? 0
  const net = input.subtotal - discount
  const refunded = input.refunded
  const status = !refunded ? 'paid' : refunded.amount >= net ? 'refunded' : 'partially_refunded'
  return {
    id: input.id,
    created_at: input.at,
    modified_at: refunded?.at ?? input.at,
    status,
    paid: true,
    subtotal_amount: input.subtotal,
    discount_amount: discount,
    net_amount: net,
    tax_amount: input.tax,
    total_amount: net + input.tax,
    applied_balance_amount: 0,
    due_amount: 0,
    refunded_amount: refunded?.amount ?? 0,
    refunded_tax_amount: refunded?.tax ?? 0,
    currency: input.currency ?? 'usd',
    billing_reason: input.billingReason,
    billing_name: null,
    billing_address: null,
    invoice_number: `INV-${input.id}`,
    is_invoice_generated: false,
    customer_id: input.customer,
    product_id: input.product,
    discount_id: input.discount?.id ?? null,
    subscription_id: input.subscription ?? null,
    checkout_id: input.billingReason === 'purchase' || input.billingReason === 'subscription_create' ? `chk_${input.id}` : null,
    metadata: input.metadata ?? {},
    custom_field_data: {},
    platform_fee_amount: 0,
    customer: customerOf(input),
    user_id: input.customer,
    product: { id: input.product, name: input.product, description: null, is_recurring: input.subscription !== undefined, is_archived: false, organization_id: 'org_shop', metadata: {}, created_at: input.at, modified_at: null, recurring_interval: input.subscription ? 'month' : null },
    discount: input.discount
      ? { id: input.discount.id, code: input.discount.code, name: input.discount.code, duration: 'once', type: 'fixed', amount: input.discount.amount, currency: 'usd', metadata: {}, starts_at: null, ends_at: null, max_redemptions: null, redemptions_count: 1, organization_id: 'org_shop', created_at: input.at, modified_at: null }
      : null,
    subscription: null,
    items: [{ id: `item_${input.id}`, created_at: input.at, modified_at: null, label: input.product, amount: input.subtotal, tax_amount: input.tax, proration: false, product_price_id: `price_${input.product}` }],
    description: input.product,
  }
}

export const orderPaid = (input: OrderInput): PolarEvent<ReturnType<typeof orderOf>> => ({ type: 'order.paid', timestamp: input.at, data: orderOf(input) })

export function orderRefunded(input: OrderInput & { refunded: NonNullable<OrderInput['refunded']> }): PolarEvent<ReturnType<typeof orderOf>> {
  return { type: 'order.refunded', timestamp: input.refunded.at, data: orderOf(input) }
}

export function subscriptionCanceled(input: { at: string; id: string; customer: string; email: string; product: string; amount: number }) {
  const customer = customerOf({ ...input, subtotal: 0, tax: 0, billingReason: 'subscription_create' })
  return {
    type: 'subscription.canceled',
    timestamp: input.at,
    data: {
      created_at: input.at,
      modified_at: input.at,
      id: input.id,
      amount: input.amount,
      currency: 'usd',
      recurring_interval: 'month',
      status: 'active',
      current_period_start: input.at,
      current_period_end: null,
      cancel_at_period_end: true,
      canceled_at: input.at,
      started_at: input.at,
      ends_at: null,
      ended_at: null,
      customer_id: input.customer,
      product_id: input.product,
      discount_id: null,
      checkout_id: null,
      customer_cancellation_reason: 'too_expensive',
      customer_cancellation_comment: null,
      metadata: {},
      customer,
      product: { id: input.product, name: input.product },
      discount: null,
      prices: [],
      meters: [],
    },
  }
}
