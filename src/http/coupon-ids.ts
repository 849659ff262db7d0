// The processor's coupon id arrives as processor_coupon_id, stripe_coupon_id or
// lemonsqueezy_discount_code (clients written for other affiliate services send the processor's own name).
import { HttpError } from '../server/errors.js'

const PROCESSOR_ID_FIELDS = ['processor_coupon_id', 'stripe_coupon_id', 'lemonsqueezy_discount_code'] as const
type ProcessorIds = Partial<Record<(typeof PROCESSOR_ID_FIELDS)[number], string | null>>

/** The one processor coupon id the body names (undefined: not sent); two names with different values are 400. */
export function processorCouponId(body: ProcessorIds): string | null | undefined {
  let chosen: (typeof PROCESSOR_ID_FIELDS)[number] | undefined
  for (const field of PROCESSOR_ID_FIELDS) {
    if (body[field] === undefined) continue
    if (chosen !== undefined && body[chosen] !== body[field]) {
      throw new HttpError('invalid_request', `${field}: differs from ${chosen}; send the processor coupon id once`, field)
    }
    chosen = field
  }
  return chosen === undefined ? undefined : body[chosen]
}
