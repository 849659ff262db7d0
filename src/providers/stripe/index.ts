// affiliate-kit/stripe: a Fetch handler for Stripe webhooks. Paste its URL as a Stripe webhook
// endpoint; paid invoices become conversions, renewals recurring ones, refunds shrink them.
import { providerHandler, type ProviderHandler, type ProviderHandlerOptions } from '../handler.js'
import { secretList, type Secrets } from '../signature.js'
import { mapStripeEvent, STRIPE_EVENTS } from './map.js'
import { verifyStripeSignature } from './signature.js'

export interface StripeHandlerOptions extends ProviderHandlerOptions {
  /** The endpoint's signing secret (whsec_...), or several while one is being rolled. */
  webhookSecret: Secrets
  /** How far the signature's timestamp may be from now. @default 300 */
  toleranceSeconds?: number
}

export function stripeHandler(options: StripeHandlerOptions): ProviderHandler {
  const secrets = secretList(options.webhookSecret)
  const tolerance = options.toleranceSeconds ?? 300
  return providerHandler(
    {
      name: 'stripe',
      verify: (raw, header, now) => verifyStripeSignature(secrets, raw, header('stripe-signature'), now, tolerance),
      map: (body) => mapStripeEvent(body),
    },
    options,
  )
}

export { verifyStripeSignature, mapStripeEvent, STRIPE_EVENTS }
export { stripePromotionCodes, STRIPE_PROMOTION_CODES_VERSION } from './promotion-codes.js'
export type { StripePromotionCodesOptions } from './promotion-codes.js'
export type { CreatedPromotionCode, PromotionCodeIssuer, PromotionCodeRequest } from '../../core/ports/promotion-codes.js'
export type { FetchHandler, ProviderHandler, ProviderHandlerOptions } from '../handler.js'
export type { MappedEvent, ProviderAction, PaidAction, RefundedAction, CustomerAction } from '../mapping.js'
export { providerEventReplay } from '../replay.js'
export type { ProviderEventReplay, ProviderEventReplayOptions, ReplayedEvent } from '../replay.js'
