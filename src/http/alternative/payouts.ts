// /payouts and /clicks in the alternative shape: camelCase records with `aff_` affiliate ids.
import { payoutInput, trackClick } from '../primary/payouts.js'
import { defined, defineRoute, page, pathId } from '../route.js'
import { createPayoutBodyAlternative, listPayoutsQuery, trackClickBody } from '../schemas.js'
import { affiliateId, alternativeData, alternativeList, alternativePayout } from '../shapes/alternative.js'
import { alternativeWindow } from './paging.js'
import * as R from './response-schemas.js'

export const payoutRoutes = [
  defineRoute({
    method: 'GET',
    path: '/payouts',
    scope: 'payouts:read',
    summary: 'List payouts, newest first',
    query: listPayoutsQuery,
    responses: { 200: R.payoutList },
    errors: [400],
    async run({ api, query }) {
      const result = await api.payouts.list(defined({ ...alternativeWindow(query), affiliateId: query.affiliate_id }))
      return { status: 200, body: alternativeList('payouts', result.items.map(alternativePayout), page(result)) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/payouts',
    scope: 'payouts:write',
    summary: 'Record a payout made outside the service',
    body: createPayoutBodyAlternative,
    responses: { 201: R.payoutResponse },
    errors: [400, 404],
    async run({ api, body }) {
      return { status: 201, body: alternativeData('payout', alternativePayout(await api.payouts.create(payoutInput(body)))) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/payouts/:id',
    scope: 'payouts:read',
    summary: 'Retrieve a payout',
    responses: { 200: R.payoutResponse },
    errors: [400, 404],
    async run({ api, params }) {
      return { status: 200, body: alternativeData('payout', alternativePayout(await api.payouts.get(pathId(params.id, 'payout')))) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/clicks',
    scope: 'referrals:write',
    summary: 'Count a click on a referral link',
    body: trackClickBody,
    responses: { 201: R.clickResponse },
    errors: [400, 404],
    async run({ api, body }) {
      const click = await trackClick(api, body)
      return { status: 201, body: alternativeData('click', { id: click.id, affiliateId: affiliateId(click.affiliateId), createdAt: click.createdAt.toISOString() }) }
    },
  }),
] as const
