// /coupons: list (filter by affiliate_id, coupon_code), create, retrieve, update, delete.
import type { RouteDef } from '../route.js'
import { defined, renameFields, alternativeWindow, page, parseBody, parseQuery, pathId } from '../route.js'
import { createCouponBody, createCouponBodyAlternative, listCouponsQuery, listQueryAlternative, updateCouponBody } from '../schemas.js'
import { alternativeCoupon, alternativeData, alternativeList } from '../shapes/alternative.js'
import { primaryCoupon, primaryData, primaryList } from '../shapes/primary.js'

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
      const result = await api.coupons.list(defined({ limit: q.limit, offset: q.offset, affiliateId: q.affiliate_id, code: q.coupon_code }))
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
        const affiliate = await renameFields(api.affiliates.get(b.affiliate_email), { email: 'affiliate_email' })
        const view = await api.coupons.create(defined({ affiliateId: affiliate.id, code: b.code, discountType: b.discount_type, discountValue: b.discount_value }))
        return { status: 201, body: alternativeData('coupon', alternativeCoupon(view)) }
      }
      const b = parseBody(createCouponBody, body)
      const view = await api.coupons.create(defined({ affiliateId: b.affiliate_id, code: b.coupon_code, processorCouponId: b.processor_coupon_id }))
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
      const view = await api.coupons.update(id, defined({ affiliateId: b.affiliate_id, code: b.coupon_code, processorCouponId: b.processor_coupon_id }))
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
