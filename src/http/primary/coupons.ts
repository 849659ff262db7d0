// /coupons in the primary shape: list (filter by affiliate_id, coupon_code, status), create,
// retrieve, update, delete.
import type * as v from 'valibot'
import { processorCouponId } from '../coupon-ids.js'
import { defined, defineRoute, page, pathId } from '../route.js'
import { apiOperations } from '../api-operations.js'
import * as R from '../response-schemas.js'
import { createCouponBody, listCouponsQuery, updateCouponBody } from '../schemas.js'
import { primaryCoupon, primaryData, primaryList } from '../shapes/primary.js'

/** The same route in both shapes. */
export const deleteCoupon = defineRoute({
  method: 'DELETE',
  path: '/coupons/:id',
  scope: 'coupons:write',
  summary: 'Delete a coupon',
  responses: { 204: null },
  errors: [400, 404],
  async run({ api, params }) {
    await api.coupons.delete(pathId(params.id, 'coupon'))
    return { status: 204 }
  },
})

export const couponRoutes = [
  defineRoute({
    ...apiOperations.getCoupons,
    query: listCouponsQuery,
    responses: { 200: R.couponList },
    async run({ api, query }) {
      const result = await api.coupons.list(defined({ limit: query.limit, offset: query.offset, affiliateId: query.affiliate_id, code: query.coupon_code, status: query.status }))
      return { status: 200, body: primaryList(result.items.map(primaryCoupon), page(result)) }
    },
  }),
  defineRoute({
    ...apiOperations.postCoupons,
    body: createCouponBody,
    responses: { 201: R.couponResponse },
    async run({ api, body }) {
      const view = await api.coupons.create(defined({ affiliateId: body.affiliate_id, code: body.coupon_code, status: body.status, processorCouponId: processorCouponId(body) }))
      return { status: 201, body: primaryData(primaryCoupon(view)) }
    },
  }),
  defineRoute({
    ...apiOperations.getCouponsId,
    responses: { 200: R.couponResponse },
    async run({ api, params }) {
      return { status: 200, body: primaryData(primaryCoupon(await api.coupons.get(pathId(params.id, 'coupon')))) }
    },
  }),
  defineRoute({
    ...apiOperations.putCouponsId,
    body: updateCouponBody,
    responses: { 200: R.couponResponse },
    async run({ api, params, body }) {
      const view = await api.coupons.update(pathId(params.id, 'coupon'), couponChanges(body))
      return { status: 200, body: primaryData(primaryCoupon(view)) }
    },
  }),
  deleteCoupon,
] as const

/** The core's update input from the PUT /coupons/:id body (the same body in both shapes). */
export function couponChanges(body: v.InferOutput<typeof updateCouponBody>) {
  return defined({ affiliateId: body.affiliate_id, code: body.coupon_code, status: body.status, processorCouponId: processorCouponId(body) })
}
