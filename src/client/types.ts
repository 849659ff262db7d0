// Wire types of the primary shape (docs/api.md), as the typed client returns them.

export interface Pagination {
  limit: number
  offset: number
  total: number
  has_more: boolean
}

export interface ListResponse<T> {
  success: true
  data: T[]
  pagination: Pagination
}

export interface ItemResponse<T> {
  success: true
  data: T
}

export interface ApiAffiliate {
  id: number
  user_email: string
  referral_code: string
  created_at: string
  status: 'active' | 'inactive'
  clicks?: number
  signups?: number
  purchases?: number
  unpaid_earnings: string | null
  total_earnings: string | null
  eligible_earnings?: string
  held_earnings?: string
  next_release_date?: string | null
}

export interface ApiConversion {
  id: number
  type: 'signup' | 'purchase'
  affiliate_id: number
  referred_user_id: number | null
  value: number
  base_value: number | null
  base_value_currency: string | null
  paid: boolean
  created_at: string
  reference: string | null
  coupon_code_used: string | null
  status: 'pending' | 'active' | 'review' | 'refunded' | 'rejected'
}

export interface ApiAttribution {
  affiliate_id: number
  matched_by: 'affiliate_id' | 'referral_code' | 'email' | 'coupon'
}

export interface ConversionCreated extends ItemResponse<ApiConversion> {
  attribution: ApiAttribution
  duplicate?: true
}

export interface ApiReferral {
  id: number
  user_email: string
  conversion_status: 'pending' | 'converted' | 'direct' | 'direct_signup'
  conversion_date: string | null
  created_at: string
  affiliate_id: number | null
  affiliate_code?: string | null
}

export interface ApiCoupon {
  id: number
  affiliate_id: number
  coupon_code: string
  /** Only active coupons attribute conversions. */
  status: 'active' | 'inactive'
  /** The processor's coupon id; the same value under all three names. */
  processor_coupon_id: string | null
  stripe_coupon_id: string | null
  lemonsqueezy_discount_code: string | null
  created_at: string
}

export interface ApiPayout {
  id: number
  affiliate_id: number
  affiliate_email: string
  amount: string
  status: 'Paid'
  payment_method: 'manual' | 'paypal' | 'wise' | 'bank' | 'crypto' | 'other'
  payment_date: string
  conversions_settled: number
  unpaid_earnings_after: number
}

export interface ApiClick {
  id: number
  affiliate_id: number
  created_at: string
}

export type ApiDeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed'

/** One event sent (or to be sent) to one webhook endpoint. */
export interface ApiDelivery {
  id: number
  webhook_id: number
  event_type: string
  status: ApiDeliveryStatus
  attempts: number
  last_status_code: number | null
  next_attempt_at: string | null
  created_at: string
  updated_at: string
}

export interface ApiDeliveryAttempt {
  attempted_at: string
  status_code: number | null
  duration_ms: number
  response_excerpt: string | null
  error: string | null
}

export interface ApiDeliveryDetail extends ApiDelivery {
  /** Oldest first. */
  attempt_history: ApiDeliveryAttempt[]
}

type Money = number | string

export interface CreateAffiliateBody {
  email: string
  referral_code?: string
  partner_slug?: string
  payment_method?: string
  payment_details?: string
}

export interface UpdateAffiliateBody {
  email?: string
  referral_code?: string
  status?: 'active' | 'inactive'
  payout_method?: 'paypal' | 'wise' | 'manual'
  paypal_email?: string
  payment_method?: string
  payment_details?: string
}

export interface CreateConversionBody {
  type: 'signup' | 'purchase'
  affiliate_id?: number
  referral_code?: string
  email?: string
  referred_user_id?: number
  value?: Money
  base_value?: Money
  base_value_currency?: string
  paid?: boolean
  reference?: string
  coupon_code_used?: string
}

export interface UpdateConversionBody {
  value?: Money
  base_value?: Money
  type?: 'signup' | 'purchase'
  paid?: boolean
  reference?: string
  coupon_code_used?: string
  base_value_currency?: string
  status?: 'active' | 'review' | 'refunded' | 'rejected'
  refund_amount?: Money
  reason?: string
}

export interface CreateReferralBody {
  email: string
  affiliate_id?: number
  status?: ApiReferral['conversion_status']
  user_agent?: string
  ip_address?: string
}

export interface UpdateReferralBody {
  email?: string
  affiliate_id?: number | null
  status?: ApiReferral['conversion_status']
}

/** The processor's coupon id under any one of its names (two names with different values are 400). */
export interface ProcessorCouponIdFields {
  processor_coupon_id?: string | null
  stripe_coupon_id?: string | null
  lemonsqueezy_discount_code?: string | null
}

export interface CreateCouponBody extends ProcessorCouponIdFields {
  affiliate_id: number
  coupon_code: string
  /** @default 'active' */
  status?: ApiCoupon['status']
}

export interface UpdateCouponBody extends ProcessorCouponIdFields {
  affiliate_id?: number
  coupon_code?: string
  status?: ApiCoupon['status']
}

export interface CreatePayoutBody {
  affiliate_id?: number
  affiliate_email?: string
  amount: Money
  method?: ApiPayout['payment_method']
  payment_date?: string
}

export interface CreateClickBody {
  referral_code: string
  ip_address?: string
  user_agent?: string
  landing_url?: string
}

export interface ListQuery {
  limit?: number
  offset?: number
}

/** A received payment-provider event and what it did (GET /provider-events). */
export interface ApiProviderEvent {
  id: number
  provider: 'stripe' | 'paddle' | 'lemon-squeezy'
  event_id: string
  type: string
  reference: string | null
  status: 'processing' | 'applied' | 'ignored' | 'waiting'
  detail: string | null
  conversion_id: number | null
  refund_amount: string | null
  waiting_for: string | null
  occurred_at: string
  received_at: string
  updated_at: string
}

export interface ListProviderEventsQuery extends ListQuery {
  provider?: ApiProviderEvent['provider']
  status?: ApiProviderEvent['status']
  reference?: string
}
