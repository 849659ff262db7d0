// /conversions in the primary shape: list with filters, create (201; a repeated reference with the
// same payload is 200 with duplicate: true), retrieve, update and delete.
import type * as v from 'valibot'
import { defined, defineRoute, page, pathId } from '../route.js'
import { apiOperations } from '../api-operations.js'
import * as R from '../response-schemas.js'
import { createConversionBody, listConversionsQuery, updateConversionBody } from '../schemas.js'
import { primaryConversion, primaryData, primaryList } from '../shapes/primary.js'

/** The same route in both shapes. */
export const deleteConversion = defineRoute({
  method: 'DELETE',
  path: '/conversions/:id',
  scope: 'conversions:write',
  summary: 'Delete a conversion',
  responses: { 204: null },
  errors: [400, 404],
  async run({ api, params }) {
    await api.conversions.delete(pathId(params.id, 'conversion'))
    return { status: 204 }
  },
})

export const conversionRoutes = [
  defineRoute({
    ...apiOperations.getConversions,
    query: listConversionsQuery,
    responses: { 200: R.conversionList },
    async run({ api, query }) {
      const result = await api.conversions.list(defined({
        limit: query.limit,
        offset: query.offset,
        type: query.type,
        affiliateId: query.affiliate_id,
        referredUserId: query.referred_user_id,
        paid: query.paid,
        from: query.from,
        to: query.to,
      }))
      return { status: 200, body: primaryList(result.items.map(primaryConversion), page(result)) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/conversions',
    scope: 'conversions:write',
    summary: 'Create a conversion (200 with duplicate: true for a repeated reference)',
    body: createConversionBody,
    responses: { 200: R.conversionCreatedResponse, 201: R.conversionCreatedResponse },
    errors: [400, 404, 409],
    async run({ api, body }) {
      const result = await api.conversions.create(defined({
        type: body.type,
        affiliateId: body.affiliate_id,
        referralCode: body.referral_code,
        email: body.email,
        referredUserId: body.referred_user_id,
        value: body.value,
        baseValue: body.base_value,
        baseValueCurrency: body.base_value_currency,
        paid: body.paid,
        reference: body.reference,
        couponCodeUsed: body.coupon_code_used,
        paymentProcessor: body.payment_processor,
        productId: body.product_id,
      }))
      const attribution = { affiliate_id: result.attribution.affiliateId, matched_by: result.attribution.matchedBy }
      const payload = { success: true, data: primaryConversion(result.conversion), attribution }
      return result.duplicate ? { status: 200, body: { ...payload, duplicate: true } } : { status: 201, body: payload }
    },
  }),
  defineRoute({
    ...apiOperations.getConversionsId,
    responses: { 200: R.conversionResponse },
    async run({ api, params }) {
      return { status: 200, body: primaryData(primaryConversion(await api.conversions.get(pathId(params.id, 'conversion')))) }
    },
  }),
  defineRoute({
    ...apiOperations.putConversionsId,
    body: updateConversionBody,
    responses: { 200: R.conversionResponse },
    async run({ api, params, body }) {
      const view = await api.conversions.update(pathId(params.id, 'conversion'), conversionChanges(body))
      return { status: 200, body: primaryData(primaryConversion(view)) }
    },
  }),
  deleteConversion,
] as const

/** The core's update input from the PUT /conversions/:id body (the same body in both shapes). */
export function conversionChanges(body: v.InferOutput<typeof updateConversionBody>) {
  return defined({
    value: body.value,
    baseValue: body.base_value,
    baseValueCurrency: body.base_value_currency,
    type: body.type,
    paid: body.paid,
    reference: body.reference,
    couponCodeUsed: body.coupon_code_used,
    status: body.status,
    refundAmount: body.refund_amount,
    reason: body.reason,
  })
}
