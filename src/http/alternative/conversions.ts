// /conversions in the alternative shape: records carry customer_email, amount, commission_amount and
// the credited affiliate's referral code.
import type { ProjectScope } from '../../core/program.js'
import type { ConversionView } from '../../core/views.js'
import { conversionChanges, deleteConversion } from '../primary/conversions.js'
import { defined, defineRoute, page, pathId } from '../route.js'
import { apiOperations } from '../api-operations.js'
import { createConversionBodyAlternative, listQueryAlternative, updateConversionBody } from '../schemas.js'
import { alternativeConversion, alternativeData, alternativeList } from '../shapes/alternative.js'
import { alternativeWindow } from './paging.js'
import * as R from './response-schemas.js'

/** The records of these conversions, reading each credited affiliate once. */
async function records(api: ProjectScope, views: ConversionView[]): Promise<unknown[]> {
  const codes = new Map<number, string | null>()
  for (const view of views) {
    if (codes.has(view.affiliateId)) continue
    const affiliate = await api.affiliates.get(view.affiliateId).catch(() => null)
    codes.set(view.affiliateId, affiliate?.referralCode ?? null)
  }
  return views.map((view) => alternativeConversion(view, codes.get(view.affiliateId) ?? null))
}

async function item(api: ProjectScope, view: ConversionView) {
  return alternativeData('conversion', (await records(api, [view]))[0])
}

export const conversionRoutes = [
  defineRoute({
    ...apiOperations.getConversions,
    query: listQueryAlternative,
    responses: { 200: R.conversionList },
    async run({ api, query }) {
      const result = await api.conversions.list(alternativeWindow(query))
      return { status: 200, body: alternativeList('conversions', await records(api, result.items), page(result)) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/conversions',
    scope: 'conversions:write',
    summary: 'Create a purchase conversion',
    body: createConversionBodyAlternative,
    responses: { 201: R.conversionResponse },
    errors: [400, 404, 409],
    fieldNames: { baseValue: 'amount', email: 'customer_email' },
    async run({ api, body }) {
      const input = defined({ type: 'purchase' as const, email: body.customer_email, baseValue: body.amount, referralCode: body.referral_code })
      const result = await api.conversions.create(input)
      return { status: 201, body: await item(api, result.conversion) }
    },
  }),
  defineRoute({
    ...apiOperations.getConversionsId,
    responses: { 200: R.conversionResponse },
    async run({ api, params }) {
      return { status: 200, body: await item(api, await api.conversions.get(pathId(params.id, 'conversion'))) }
    },
  }),
  defineRoute({
    ...apiOperations.putConversionsId,
    body: updateConversionBody,
    responses: { 200: R.conversionResponse },
    async run({ api, params, body }) {
      return { status: 200, body: await item(api, await api.conversions.update(pathId(params.id, 'conversion'), conversionChanges(body))) }
    },
  }),
  deleteConversion,
] as const
