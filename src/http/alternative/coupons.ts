// /coupons in the alternative shape: created for an affiliate named by email, with discount fields.
import { processorCouponId } from '../coupon-ids.js'
import { couponChanges, deleteCoupon } from '../primary/coupons.js'
import { defined, defineRoute, page, pathId } from '../route.js'
import { createCouponBodyAlternative, listQueryAlternative, updateCouponBody } from '../schemas.js'
import { alternativeCoupon, alternativeData, alternativeList } from '../shapes/alternative.js'
import { alternativeWindow } from './paging.js'
import * as R from './response-schemas.js'

export const couponRoutes = [
  defineRoute({
    method: 'GET',
    path: '/coupons',
    scope: 'coupons:read',
    summary: 'List coupons',
    query: listQueryAlternative,
    responses: { 200: R.couponList },
    errors: [400],
    async run({ api, query }) {
      const result = await api.coupons.list(alternativeWindow(query))
      return { status: 200, body: alternativeList('coupons', result.items.map(alternativeCoupon), page(result)) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/coupons',
    scope: 'coupons:write',
    summary: 'Create a coupon',
    body: createCouponBodyAlternative,
    responses: { 201: R.couponResponse },
    errors: [400, 404, 409],
    fieldNames: { email: 'affiliate_email' },
    async run({ api, body }) {
      const processorId = processorCouponId(body)
      const affiliate = await api.affiliates.get(body.affiliate_email)
      const view = await api.coupons.create(
        defined({ affiliateId: affiliate.id, code: body.code, status: body.status, processorCouponId: processorId, discountType: body.discount_type, discountValue: body.discount_value }),
      )
      return { status: 201, body: alternativeData('coupon', alternativeCoupon(view)) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/coupons/:id',
    scope: 'coupons:read',
    summary: 'Retrieve a coupon',
    responses: { 200: R.couponResponse },
    errors: [400, 404],
    async run({ api, params }) {
      return { status: 200, body: alternativeData('coupon', alternativeCoupon(await api.coupons.get(pathId(params.id, 'coupon')))) }
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/coupons/:id',
    scope: 'coupons:write',
    summary: 'Update a coupon',
    body: updateCouponBody,
    responses: { 200: R.couponResponse },
    errors: [400, 404, 409],
    async run({ api, params, body }) {
      const view = await api.coupons.update(pathId(params.id, 'coupon'), couponChanges(body))
      return { status: 200, body: alternativeData('coupon', alternativeCoupon(view)) }
    },
  }),
  deleteCoupon,
] as const
