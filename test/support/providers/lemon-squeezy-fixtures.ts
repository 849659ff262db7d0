// Lemon Squeezy webhook payloads shaped like the published Order and Subscription Invoice
// objects (JSON:API `data` with `attributes`, `meta.event_name`, `meta.custom_data`).

export interface LemonSqueezyEvent<A> {
  meta: { test_mode: boolean; event_name: string; webhook_id: string; custom_data?: Record<string, string> }
  data: { type: 'orders' | 'subscription-invoices' | 'subscriptions'; id: string; attributes: A; relationships: Record<string, unknown>; links: { self: string } }
}

interface Amounts {
  currency: string
  currency_rate: string
  subtotal: number
  discount_total: number
  tax: number
  total: number
  refunded: boolean
  refunded_at: string | null
  refunded_amount: number
  status: string
  created_at: string
  updated_at: string
  test_mode: boolean
}

export interface OrderAttributes extends Amounts {
  store_id: number
  customer_id: number
  identifier: string
  order_number: number
  user_name: string
  user_email: string
  setup_fee: number
  first_order_item: { id: number; order_id: number; product_id: number; variant_id: number; product_name: string; variant_name: string; price: number }
}

export interface SubscriptionInvoiceAttributes extends Amounts {
  store_id: number
  subscription_id: number
  customer_id: number
  user_name: string
  user_email: string
  billing_reason: 'initial' | 'renewal' | 'updated'
}

interface Money {
  subtotal: number
  discount?: number
  tax: number
  refundedAmount?: number
}

function amounts(at: string, money: Money, updatedAt = at): Amounts {
  const total = money.subtotal - (money.discount ?? 0) + money.tax
  const refunded = money.refundedAmount ?? 0
  return {
    currency: 'USD',
    currency_rate: '1.00000000',
    subtotal: money.subtotal,
    discount_total: money.discount ?? 0,
    tax: money.tax,
    total,
    refunded: refunded > 0 && refunded >= total,
    refunded_at: refunded > 0 ? updatedAt : null,
    refunded_amount: refunded,
    status: refunded === 0 ? 'paid' : refunded >= total ? 'refunded' : 'partial_refund',
    created_at: at,
    updated_at: updatedAt,
    test_mode: true,
  }
}

export function order(eventName: 'order_created' | 'order_refunded', input: { at: string; updatedAt?: string; id: number; customer: number; email: string; customData?: Record<string, string> } & Money): LemonSqueezyEvent<OrderAttributes> {
  return {
    meta: { test_mode: true, event_name: eventName, webhook_id: 'wh_scenario', ...(input.customData ? { custom_data: input.customData } : {}) },
    data: {
      type: 'orders',
      id: String(input.id),
      attributes: {
        ...amounts(input.at, input, input.updatedAt),
        store_id: 1,
        customer_id: input.customer,
        identifier: `00000000-0000-4000-8000-${String(input.id).padStart(12, '0')}`,
        order_number: input.id,
        user_name: 'Test Customer',
        user_email: input.email,
        setup_fee: 0,
        first_order_item: { id: input.id * 10, order_id: input.id, product_id: 7, variant_id: 70, product_name: 'Pro', variant_name: 'Monthly', price: input.subtotal },
      },
      relationships: {},
      links: { self: `https://api.lemonsqueezy.com/v1/orders/${input.id}` },
    },
  }
}

export function subscriptionInvoice(
  eventName: 'subscription_payment_success' | 'subscription_payment_refunded',
  input: { at: string; updatedAt?: string; id: number; subscription: number; customer: number; email: string; billingReason: SubscriptionInvoiceAttributes['billing_reason'] } & Money,
): LemonSqueezyEvent<SubscriptionInvoiceAttributes> {
  return {
    meta: { test_mode: true, event_name: eventName, webhook_id: 'wh_scenario' },
    data: {
      type: 'subscription-invoices',
      id: String(input.id),
      attributes: {
        ...amounts(input.at, input, input.updatedAt),
        store_id: 1,
        subscription_id: input.subscription,
        customer_id: input.customer,
        user_name: 'Test Customer',
        user_email: input.email,
        billing_reason: input.billingReason,
      },
      relationships: {},
      links: { self: `https://api.lemonsqueezy.com/v1/subscription-invoices/${input.id}` },
    },
  }
}

/** The published Subscription object's attributes (those a webhook of it carries that matter here). */
export interface SubscriptionAttributes {
  store_id: number
  customer_id: number
  order_id: number
  order_item_id: number
  product_id: number
  variant_id: number
  product_name: string
  variant_name: string
  user_name: string
  user_email: string
  status: 'on_trial' | 'active' | 'paused' | 'past_due' | 'unpaid' | 'cancelled' | 'expired'
  status_formatted: string
  cancelled: boolean
  trial_ends_at: string | null
  renews_at: string
  ends_at: string | null
  created_at: string
  updated_at: string
  test_mode: boolean
}

/**
 * subscription_created (status `on_trial`, `trial_ends_at` set, the checkout's custom data in
 * meta) and subscription_expired (status `expired`, `ends_at` when it ended).
 */
export function subscriptionEvent(
  eventName: 'subscription_created' | 'subscription_expired',
  input: { at: string; id: number; customer: number; email: string; order: number; trialEndsAt: string; customData?: Record<string, string> },
): LemonSqueezyEvent<SubscriptionAttributes> {
  const expired = eventName === 'subscription_expired'
  return {
    meta: { test_mode: true, event_name: eventName, webhook_id: 'wh_scenario', ...(input.customData ? { custom_data: input.customData } : {}) },
    data: {
      type: 'subscriptions',
      id: String(input.id),
      attributes: {
        store_id: 1,
        customer_id: input.customer,
        order_id: input.order,
        order_item_id: input.order * 10,
        product_id: 7,
        variant_id: 70,
        product_name: 'Pro',
        variant_name: 'Monthly',
        user_name: 'Test Customer',
        user_email: input.email,
        status: expired ? 'expired' : 'on_trial',
        status_formatted: expired ? 'Expired' : 'On Trial',
        cancelled: expired,
        trial_ends_at: input.trialEndsAt,
        renews_at: input.trialEndsAt,
        ends_at: expired ? input.at : null,
        created_at: input.at,
        updated_at: input.at,
        test_mode: true,
      },
      relationships: {},
      links: { self: `https://api.lemonsqueezy.com/v1/subscriptions/${input.id}` },
    },
  }
}
