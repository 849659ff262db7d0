// Which of the affiliates' coupons a provider's discount names. A discount goes by several names
// (a Stripe promotion code's text and id, its coupon's id; a Paddle discount id): each is looked
// up, most specific first, as a coupon code and as a coupon's processor id. Only active coupons.
import type { couponsService } from '../affiliates/coupons.js'
import type { CouponView } from '../rules/views.js'

const COUPON_CODE = /^[A-Za-z0-9_.-]{1,64}$/
const PROCESSOR_ID_MAX = 255
/** At most this many names of one discount are looked up. */
const MAX_NAMES = 8

export async function matchedCoupon(scope: { coupons: Pick<ReturnType<typeof couponsService>, 'list'> }, names: readonly string[]): Promise<CouponView | null> {
  const first = async (filter: { code: string } | { processorCouponId: string }) => (await scope.coupons.list({ ...filter, status: 'active', limit: 1 })).items[0] ?? null
  for (const name of names.slice(0, MAX_NAMES)) {
    const coupon = (COUPON_CODE.test(name) ? await first({ code: name }) : null) ?? (name.length <= PROCESSOR_ID_MAX ? await first({ processorCouponId: name }) : null)
    if (coupon) return coupon
  }
  return null
}

/** The name to record as the conversion's coupon code: the matched coupon's code, else the first name that is a valid code. */
export function couponCodeUsed(coupon: CouponView | null, names: readonly string[]): string | null {
  return coupon?.code ?? names.find((name) => COUPON_CODE.test(name)) ?? null
}
