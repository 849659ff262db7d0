// /coupons in the alternative shape: created for an affiliate named by email, with discount fields.
import { processorCouponId } from '../coupon-ids.js'
import { couponChanges, deleteCoupon } from '../primary/coupons.js'
import { defined, defineRoute, page, pathId } from '../route.js'
import { apiOperations } from '../api-operations.js'
import { createCouponBodyAlternative, listQueryAlternative, updateCouponBody } from '../schemas.js'
import { alternativeCoupon, alternativeData, alternativeList } from '../shapes/alternative.js'
import { alternativeWindow } from './paging.js'
import * as R from './response-schemas.js'

export const couponRoutes = [
  defineRoute({
    ...apiOperations.getCoupons,
    query: listQueryAlternative,
    responses: { 200: R.couponList },
    async run({ api, query }) {
      const result = await api.coupons.list(alternativeWindow(query))
      return { status: 200, body: alternativeList('coupons', result.items.map(alternativeCoupon), page(result)) }
    },
  }),
  defineRoute({
    ...apiOperations.postCoupons,
    body: createCouponBodyAlternative,
    responses: { 201: R.couponResponse },
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
    ...apiOperations.getCouponsId,
    responses: { 200: R.couponResponse },
    async run({ api, params }) {
      return { status: 200, body: alternativeData('coupon', alternativeCoupon(await api.coupons.get(pathId(params.id, 'coupon')))) }
    },
  }),
  defineRoute({
    ...apiOperations.putCouponsId,
    body: updateCouponBody,
    responses: { 200: R.couponResponse },
    async run({ api, params, body }) {
      const view = await api.coupons.update(pathId(params.id, 'coupon'), couponChanges(body))
      return { status: 200, body: alternativeData('coupon', alternativeCoupon(view)) }
    },
  }),
  deleteCoupon,
] as const
