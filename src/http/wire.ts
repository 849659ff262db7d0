// The parts request schemas are made of (schemas.ts and each shape's own bodies): text, emails,
// ids, money and list windows as the wire carries them, with the messages clients see.
import * as v from 'valibot'
import { MAX_OFFSET } from '../core/model/schemas.js'

export const str = (max: number) => v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`))
export const email = v.pipe(v.string('must be a string'), v.maxLength(254, 'must be at most 254 characters'))
export const id = v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer'), v.minValue(1, 'must be a positive integer'))
/** Money travels as a JSON number; its decimal text is read exactly by the core. */
export const money = v.pipe(v.number('must be a number'), v.finite('must be a finite number'))

export const intParam = (min: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,15}$/, 'must be an integer'),
    v.transform((text: string) => Number(text)),
    v.minValue(min, min === 0 ? 'must not be negative' : `must be at least ${min}`),
  )
export const limit = v.optional(intParam(1))
export const offset = v.optional(v.pipe(intParam(0), v.maxValue(MAX_OFFSET, `must be at most ${MAX_OFFSET}`)))

/** The processor's coupon id under its generic name and the names clients of Stripe and Lemon Squeezy send. */
export const processorCouponIds = {
  processor_coupon_id: v.optional(v.nullable(str(255))),
  stripe_coupon_id: v.optional(v.nullable(str(255))),
  lemonsqueezy_discount_code: v.optional(v.nullable(str(255))),
}
