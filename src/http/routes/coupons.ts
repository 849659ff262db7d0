// /coupons: list, create, retrieve, update and delete, once for every shape. The processor's
// coupon id arrives under any of its names (coupon-ids.ts).
import type { ProjectScope } from '../../core/program.js'
import { processorCouponId } from '../coupon-ids.js'
import { defined, defineOperation, pathId, type Given } from '../route.js'
import { createPromotionCodeBody, updateCouponBody } from '../schemas.js'

type Coupons = ProjectScope['coupons']

export const listCoupons = defineOperation({
  id: 'getCoupons',
  method: 'GET',
  path: '/coupons',
  scope: 'coupons:read',
  summary: 'List coupons',
  errors: [400],
  run: ({ api, input }: Given<Parameters<Coupons['list']>[0]>) => api.coupons.list(input),
})

export const createCoupon = defineOperation({
  id: 'postCoupons',
  method: 'POST',
  path: '/coupons',
  scope: 'coupons:write',
  summary: 'Create a coupon',
  errors: [400, 404, 409],
  status: 201,
  run: ({ api, input }: Given<Parameters<Coupons['create']>[0]>) => api.coupons.create(input),
})

export const getCoupon = defineOperation({
  id: 'getCouponsId',
  method: 'GET',
  path: '/coupons/:id',
  scope: 'coupons:read',
  summary: 'Retrieve a coupon',
  errors: [400, 404],
  run: ({ api, params }) => api.coupons.get(pathId(params.id, 'coupon')),
})

export const updateCoupon = defineOperation({
  id: 'putCouponsId',
  method: 'PUT',
  path: '/coupons/:id',
  scope: 'coupons:write',
  summary: 'Update a coupon',
  errors: [400, 404, 409],
  body: updateCouponBody,
  run: ({ api, params, body }) =>
    api.coupons.update(
      pathId(params.id, 'coupon'),
      defined({ affiliateId: body.affiliate_id, code: body.coupon_code, status: body.status, processorCouponId: processorCouponId(body) }),
    ),
})

export const deleteCoupon = defineOperation({
  id: 'deleteCouponsId',
  method: 'DELETE',
  path: '/coupons/:id',
  scope: 'coupons:write',
  summary: 'Delete a coupon',
  errors: [400, 404],
  status: 204,
  run: ({ api, params }) => api.coupons.delete(pathId(params.id, 'coupon')),
})

/**
 * docs/incentives.md "Promotion codes": creates the code at Stripe (the program's promotionCodes
 * option) and records it as the affiliate's coupon, its processor id the promotion code's id.
 */
export const createPromotionCode = defineOperation({
  id: 'postAffiliatesEmailPromotionCodes',
  method: 'POST',
  path: '/affiliates/:email/promotion-codes',
  scope: 'coupons:write',
  summary: "Create the affiliate's own promotion code at Stripe and record it as its coupon",
  errors: [400, 404, 409, 503],
  status: 201,
  body: createPromotionCodeBody,
  run: ({ api, params, body, affiliateRef }) =>
    api.promotionCodes.create(affiliateRef(params.email), body.coupon === undefined ? { code: body.code } : { code: body.code, coupon: body.coupon }),
})
