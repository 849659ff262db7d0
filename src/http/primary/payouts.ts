// /payouts (payouts recorded outside the service) and /clicks in the primary shape
// (docs/api.md "Payouts", "Clicks").
import type * as v from 'valibot'
import type { ProjectScope } from '../../core/program.js'
import { defined, defineRoute, page, pathId } from '../route.js'
import { apiOperations } from '../api-operations.js'
import * as R from '../response-schemas.js'
import { createPayoutBody, listPayoutsQuery, trackClickBody } from '../schemas.js'
import { primaryData, primaryList, primaryPayout } from '../shapes/primary.js'

/** The core's payout input from a POST /payouts body (the fields are named alike in both shapes). */
export function payoutInput(body: v.InferOutput<typeof createPayoutBody>) {
  return defined({ affiliateId: body.affiliate_id, affiliateEmail: body.affiliate_email, amount: body.amount, method: body.method, paymentDate: body.payment_date })
}

/** Counts the click of a POST /clicks body (the same body in both shapes). */
export function trackClick(api: ProjectScope, body: v.InferOutput<typeof trackClickBody>) {
  return api.trackClick(defined({ referralCode: body.referral_code, ip: body.ip_address, userAgent: body.user_agent, url: body.landing_url }))
}

export const payoutRoutes = [
  defineRoute({
    ...apiOperations.getPayouts,
    query: listPayoutsQuery,
    responses: { 200: R.payoutList },
    async run({ api, query }) {
      const result = await api.payouts.list(defined({ limit: query.limit, offset: query.offset, affiliateId: query.affiliate_id }))
      return { status: 200, body: primaryList(result.items.map(primaryPayout), page(result)) }
    },
  }),
  defineRoute({
    ...apiOperations.postPayouts,
    body: createPayoutBody,
    responses: { 201: R.payoutResponse },
    async run({ api, body }) {
      return { status: 201, body: primaryData(primaryPayout(await api.payouts.create(payoutInput(body)))) }
    },
  }),
  defineRoute({
    ...apiOperations.getPayoutsId,
    responses: { 200: R.payoutResponse },
    async run({ api, params }) {
      return { status: 200, body: primaryData(primaryPayout(await api.payouts.get(pathId(params.id, 'payout')))) }
    },
  }),
  defineRoute({
    ...apiOperations.postClicks,
    body: trackClickBody,
    responses: { 201: R.clickResponse },
    async run({ api, body }) {
      const click = await trackClick(api, body)
      return { status: 201, body: primaryData({ id: click.id, affiliate_id: click.affiliateId, created_at: click.createdAt.toISOString() }) }
    },
  }),
] as const
