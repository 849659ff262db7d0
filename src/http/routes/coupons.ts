// /coupons: list (filter by affiliate_id, coupon_code, status), create, retrieve, update, delete.
// The processor's coupon id arrives as processor_coupon_id, stripe_coupon_id or
// lemonsqueezy_discount_code (clients written for other affiliate services send the processor's own name).
import type { RouteDef } from '../route.js'
import { defined, renameFields, alternativeWindow, page, parseBody, parseQuery, pathId } from '../route.js'
import { HttpError } from '../errors.js'
import { createCouponBody, createCouponBodyAlternative, listCouponsQuery, listQueryAlternative, updateCouponBody } from '../schemas.js'
import { alternativeCoupon, alternativeData, alternativeList } from '../shapes/alternative.js'
import { primaryCoupon, primaryData, primaryList } from '../shapes/primary.js'

const PROCESSOR_ID_FIELDS = ['processor_coupon_id', 'stripe_coupon_id', 'lemonsqueezy_discount_code'] as const
type ProcessorIds = Partial<Record<(typeof PROCESSOR_ID_FIELDS)[number], string | null>>

/** The one processor coupon id the body names (undefined: not sent); two names with different values are 400. */
function processorCouponId(body: ProcessorIds): string | null | undefined {
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

export const couponRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/coupons',
    scope: 'coupons:read',
    async handle({ api, query, alt }) {
      if (alt) {
        const result = await api.coupons.list(alternativeWindow(parseQuery(listQueryAlternative, query)))
        return { status: 200, body: alternativeList('coupons', result.items.map(alternativeCoupon), page(result)) }
      }
      const q = parseQuery(listCouponsQuery, query)
      const result = await api.coupons.list(defined({ limit: q.limit, offset: q.offset, affiliateId: q.affiliate_id, code: q.coupon_code, status: q.status }))
      return { status: 200, body: primaryList(result.items.map(primaryCoupon), page(result)) }
    },
  },
  {
    method: 'POST',
    path: '/coupons',
    scope: 'coupons:write',
    async handle({ api, body, alt }) {
      if (alt) {
        const b = parseBody(createCouponBodyAlternative, body)
        const processorId = processorCouponId(b)
        const affiliate = await renameFields(api.affiliates.get(b.affiliate_email), { email: 'affiliate_email' })
        const view = await api.coupons.create(
          defined({ affiliateId: affiliate.id, code: b.code, status: b.status, processorCouponId: processorId, discountType: b.discount_type, discountValue: b.discount_value }),
        )
        return { status: 201, body: alternativeData('coupon', alternativeCoupon(view)) }
      }
      const b = parseBody(createCouponBody, body)
      const view = await api.coupons.create(defined({ affiliateId: b.affiliate_id, code: b.coupon_code, status: b.status, processorCouponId: processorCouponId(b) }))
      return { status: 201, body: primaryData(primaryCoupon(view)) }
    },
  },
  {
    method: 'GET',
    path: '/coupons/:id',
    scope: 'coupons:read',
    async handle({ api, params, alt }) {
      const view = await api.coupons.get(pathId(params.id, 'coupon'))
      return { status: 200, body: alt ? alternativeData('coupon', alternativeCoupon(view)) : primaryData(primaryCoupon(view)) }
    },
  },
  {
    method: 'PUT',
    path: '/coupons/:id',
    scope: 'coupons:write',
    async handle({ api, params, body, alt }) {
      const id = pathId(params.id, 'coupon')
      const b = parseBody(updateCouponBody, body)
      const view = await api.coupons.update(id, defined({ affiliateId: b.affiliate_id, code: b.coupon_code, status: b.status, processorCouponId: processorCouponId(b) }))
      return { status: 200, body: alt ? alternativeData('coupon', alternativeCoupon(view)) : primaryData(primaryCoupon(view)) }
    },
  },
  {
    method: 'DELETE',
    path: '/coupons/:id',
    scope: 'coupons:write',
    async handle({ api, params }) {
      await api.coupons.delete(pathId(params.id, 'coupon'))
      return { status: 204 }
    },
  },
]
