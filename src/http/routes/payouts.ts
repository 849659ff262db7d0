// /payouts (payouts recorded outside the service) and /clicks, once for every shape
// (docs/api.md "Payouts", "Clicks").
import type * as v from 'valibot'
import type { ProjectScope } from '../../core/program.js'
import { defined, defineOperation, pathId, type Given } from '../route.js'
import { listPayoutRequestsQuery, listPayoutsQuery, trackClickBody, type createPayoutBody } from '../schemas.js'

/** The core's payout input from a POST /payouts body (its fields are named alike in every shape). */
export function payoutInput(body: v.InferOutput<typeof createPayoutBody>) {
  return defined({ affiliateId: body.affiliate_id, affiliateEmail: body.affiliate_email, amount: body.amount, method: body.method, paymentDate: body.payment_date })
}

export const listPayouts = defineOperation({
  id: 'getPayouts',
  method: 'GET',
  path: '/payouts',
  scope: 'payouts:read',
  summary: 'List payouts, newest first',
  errors: [400],
  query: listPayoutsQuery,
  run: ({ api, query, window }) => api.payouts.list(defined({ ...window(query), affiliateId: query.affiliate_id, asOf: query.as_of })),
})

export const createPayout = defineOperation({
  id: 'postPayouts',
  method: 'POST',
  path: '/payouts',
  scope: 'payouts:write',
  summary: 'Record a payout made outside the service',
  errors: [400, 404],
  status: 201,
  run: ({ api, input }: Given<Parameters<ProjectScope['payouts']['create']>[0]>) => api.payouts.create(input),
})

/** docs/payouts.md "When money is due": affiliates whose payable balance reaches the minimum. */
export const listDuePayouts = defineOperation({
  id: 'getPayoutsDue',
  method: 'GET',
  path: '/payouts/due',
  scope: 'payouts:read',
  summary: 'List the affiliates due a payout: payable balance at or above the minimum, and its conversions',
  errors: [],
  run: ({ api }) => api.payouts.due(),
})

/** docs/payouts.md "Payout requests": what affiliates asked for in the portal, newest first. */
export const listPayoutRequests = defineOperation({
  id: 'getPayoutsRequests',
  method: 'GET',
  path: '/payouts/requests',
  scope: 'payouts:read',
  summary: 'List payout requests made by affiliates in the portal, newest first',
  errors: [400],
  query: listPayoutRequestsQuery,
  run: ({ api, query, window }) => api.payouts.requests(defined({ ...window(query), affiliateId: query.affiliate_id, status: query.status })),
})

export const getPayout = defineOperation({
  id: 'getPayoutsId',
  method: 'GET',
  path: '/payouts/:id',
  scope: 'payouts:read',
  summary: 'Retrieve a payout',
  errors: [400, 404],
  run: ({ api, params }) => api.payouts.get(pathId(params.id, 'payout')),
})

export const trackClick = defineOperation({
  id: 'postClicks',
  method: 'POST',
  path: '/clicks',
  scope: 'referrals:write',
  summary: 'Count a click on a referral link',
  errors: [400, 404],
  status: 201,
  body: trackClickBody,
  run: ({ api, body }) => api.trackClick(defined({ referralCode: body.referral_code, ip: body.ip_address, userAgent: body.user_agent, url: body.landing_url })),
})
