// The port through which the program creates a promotion code at a payment provider (Stripe's
// POST /v1/promotion_codes; src/providers/stripe/promotion-codes.ts implements it) for an
// affiliate's own code (docs/incentives.md "Promotion codes"). The program records the code as the
// affiliate's coupon, its provider id as the coupon's processor id.

export interface PromotionCodeRequest {
  /** The customer-facing code (ANN20). */
  code: string
  /** The provider's coupon the code applies. */
  coupon: string
  /** Kept on the provider's object: the project, the affiliate's id and referral code. */
  metadata: Record<string, string>
  /** The same for every attempt at this code in this project: a retry gets the provider's first answer back. */
  idempotencyKey: string
}

export interface CreatedPromotionCode {
  /** The provider's id of the promotion code (promo_...). */
  id: string
  code: string
}

/**
 * Creates promotion codes at a provider. Throws the core's errors: a ValidationError or a
 * ConflictError when the provider refuses the request (an unknown coupon, a code in use), a
 * BusyError when it cannot be reached (nothing was created, or a retry gets it back).
 */
export interface PromotionCodeIssuer {
  /** The provider, for messages ("Stripe"). */
  readonly provider: string
  create(request: PromotionCodeRequest): Promise<CreatedPromotionCode>
}
