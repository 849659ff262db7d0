// /conversions: list with filters, create (201; a repeated reference with the same payload is
// 200 with duplicate: true), retrieve, update and delete.
import type { ProjectScope } from '../../core/program.js'
import type { ConversionView } from '../../core/views.js'
import type { RouteDef } from '../route.js'
import { defined, renameFields, alternativeWindow, page, parseBody, parseQuery, pathId } from '../route.js'
import { createConversionBody, createConversionBodyAlternative, listConversionsQuery, listQueryAlternative, updateConversionBody } from '../schemas.js'
import { alternativeConversion, alternativeData, alternativeList } from '../shapes/alternative.js'
import { primaryConversion, primaryData, primaryList } from '../shapes/primary.js'

/** Alternative records carry the credited affiliate's referral code: read each affiliate once. */
async function alternativeConversions(api: ProjectScope, views: ConversionView[]): Promise<unknown[]> {
  const codes = new Map<number, string | null>()
  for (const view of views) {
    if (codes.has(view.affiliateId)) continue
    const affiliate = await api.affiliates.get(view.affiliateId).catch(() => null)
    codes.set(view.affiliateId, affiliate?.referralCode ?? null)
  }
  return views.map((view) => alternativeConversion(view, codes.get(view.affiliateId) ?? null))
}

export const conversionRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/conversions',
    scope: 'conversions:read',
    async handle({ api, query, alt }) {
      if (alt) {
        const result = await api.conversions.list(alternativeWindow(parseQuery(listQueryAlternative, query)))
        return { status: 200, body: alternativeList('conversions', await alternativeConversions(api, result.items), page(result)) }
      }
      const q = parseQuery(listConversionsQuery, query)
      const result = await api.conversions.list(defined({
        limit: q.limit,
        offset: q.offset,
        type: q.type,
        affiliateId: q.affiliate_id,
        referredUserId: q.referred_user_id,
        paid: q.paid,
        from: q.from,
        to: q.to,
      }))
      return { status: 200, body: primaryList(result.items.map(primaryConversion), page(result)) }
    },
  },
  {
    method: 'POST',
    path: '/conversions',
    scope: 'conversions:write',
    async handle({ api, body, alt }) {
      if (alt) {
        const b = parseBody(createConversionBodyAlternative, body)
        const input = defined({ type: 'purchase' as const, email: b.customer_email, baseValue: b.amount, referralCode: b.referral_code })
        const result = await renameFields(api.conversions.create(input), { baseValue: 'amount', email: 'customer_email', referralCode: 'referral_code' })
        const [record] = await alternativeConversions(api, [result.conversion])
        return { status: 201, body: alternativeData('conversion', record) }
      }
      const b = parseBody(createConversionBody, body)
      const result = await api.conversions.create(defined({
        type: b.type,
        affiliateId: b.affiliate_id,
        referralCode: b.referral_code,
        email: b.email,
        referredUserId: b.referred_user_id,
        value: b.value,
        baseValue: b.base_value,
        baseValueCurrency: b.base_value_currency,
        paid: b.paid,
        reference: b.reference,
        couponCodeUsed: b.coupon_code_used,
        paymentProcessor: b.payment_processor,
        productId: b.product_id,
      }))
      const attribution = { affiliate_id: result.attribution.affiliateId, matched_by: result.attribution.matchedBy }
      const payload = { success: true, data: primaryConversion(result.conversion), attribution }
      return result.duplicate ? { status: 200, body: { ...payload, duplicate: true } } : { status: 201, body: payload }
    },
  },
  {
    method: 'GET',
    path: '/conversions/:id',
    scope: 'conversions:read',
    async handle({ api, params, alt }) {
      const view = await api.conversions.get(pathId(params.id, 'conversion'))
      if (alt) return { status: 200, body: alternativeData('conversion', (await alternativeConversions(api, [view]))[0]) }
      return { status: 200, body: primaryData(primaryConversion(view)) }
    },
  },
  {
    method: 'PUT',
    path: '/conversions/:id',
    scope: 'conversions:write',
    async handle({ api, params, body, alt }) {
      const id = pathId(params.id, 'conversion')
      const b = parseBody(updateConversionBody, body)
      const view = await api.conversions.update(id, defined({
        value: b.value,
        baseValue: b.base_value,
        baseValueCurrency: b.base_value_currency,
        type: b.type,
        paid: b.paid,
        reference: b.reference,
        couponCodeUsed: b.coupon_code_used,
        status: b.status,
        refundAmount: b.refund_amount,
        reason: b.reason,
      }))
      if (alt) return { status: 200, body: alternativeData('conversion', (await alternativeConversions(api, [view]))[0]) }
      return { status: 200, body: primaryData(primaryConversion(view)) }
    },
  },
  {
    method: 'DELETE',
    path: '/conversions/:id',
    scope: 'conversions:write',
    async handle({ api, params }) {
      await api.conversions.delete(pathId(params.id, 'conversion'))
      return { status: 204 }
    },
  },
]
