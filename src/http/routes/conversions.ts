// /conversions: list, create, retrieve, update and delete, once for every shape. A repeated
// reference with the same payload is not created twice (the result says duplicate).
import type * as v from 'valibot'
import type { ProjectScope } from '../../core/program.js'
import { defined, defineOperation, pathId, type Given } from '../route.js'
import { updateConversionBody } from '../schemas.js'

type Conversions = ProjectScope['conversions']

export const listConversions = defineOperation({
  id: 'getConversions',
  method: 'GET',
  path: '/conversions',
  scope: 'conversions:read',
  summary: 'List conversions',
  errors: [400],
  run: ({ api, input }: Given<Parameters<Conversions['list']>[0]>) => api.conversions.list(input),
})

export const createConversion = defineOperation({
  id: 'postConversions',
  method: 'POST',
  path: '/conversions',
  scope: 'conversions:write',
  summary: 'Create a conversion (200 with duplicate: true for a repeated reference)',
  errors: [400, 404, 409],
  status: 201,
  run: ({ api, input }: Given<Parameters<Conversions['create']>[0]>) => api.conversions.create(input),
})

/** The same body as POST /conversions; it writes nothing (docs/commissions.md "Preview"). */
export const previewConversion = defineOperation({
  id: 'postConversionsPreview',
  method: 'POST',
  path: '/conversions/preview',
  scope: 'conversions:read',
  summary: 'What POST /conversions would create (affiliate, rule, rate, exchange rate, value, status, hold end), writing nothing',
  errors: [400, 404],
  writesNothing: true,
  run: ({ api, input }: Given<Parameters<Conversions['preview']>[0]>) => api.conversions.preview(input),
})

export const getConversion = defineOperation({
  id: 'getConversionsId',
  method: 'GET',
  path: '/conversions/:id',
  scope: 'conversions:read',
  summary: 'Retrieve a conversion',
  errors: [400, 404],
  run: ({ api, params }) => api.conversions.get(pathId(params.id, 'conversion')),
})

export const updateConversion = defineOperation({
  id: 'putConversionsId',
  method: 'PUT',
  path: '/conversions/:id',
  scope: 'conversions:write',
  summary: 'Update a conversion (paid, status, refunds...)',
  errors: [400, 404, 409],
  body: updateConversionBody,
  run: ({ api, params, body }) => api.conversions.update(pathId(params.id, 'conversion'), conversionChanges(body)),
})

export const deleteConversion = defineOperation({
  id: 'deleteConversionsId',
  method: 'DELETE',
  path: '/conversions/:id',
  scope: 'conversions:write',
  summary: 'Delete a conversion',
  errors: [400, 404],
  status: 204,
  run: ({ api, params }) => api.conversions.delete(pathId(params.id, 'conversion')),
})

/** The core's update input from the PUT /conversions/:id body. */
function conversionChanges(body: v.InferOutput<typeof updateConversionBody>) {
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
