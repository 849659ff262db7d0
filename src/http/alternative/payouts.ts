// /payouts and /clicks in the alternative shape: camelCase records with `aff_` affiliate ids.
import { payoutInput, trackClick } from '../primary/payouts.js'
import { defined, defineRoute, page, pathId } from '../route.js'
import { apiOperations } from '../api-operations.js'
import { createPayoutBodyAlternative, listPayoutsQuery, trackClickBody } from '../schemas.js'
import { affiliateId, alternativeData, alternativeList, alternativePayout } from '../shapes/alternative.js'
import { alternativeWindow } from './paging.js'
import * as R from './response-schemas.js'

export const payoutRoutes = [
  defineRoute({
    ...apiOperations.getPayouts,
    query: listPayoutsQuery,
    responses: { 200: R.payoutList },
    async run({ api, query }) {
      const result = await api.payouts.list(defined({ ...alternativeWindow(query), affiliateId: query.affiliate_id }))
      return { status: 200, body: alternativeList('payouts', result.items.map(alternativePayout), page(result)) }
    },
  }),
  defineRoute({
    ...apiOperations.postPayouts,
    body: createPayoutBodyAlternative,
    responses: { 201: R.payoutResponse },
    async run({ api, body }) {
      return { status: 201, body: alternativeData('payout', alternativePayout(await api.payouts.create(payoutInput(body)))) }
    },
  }),
  defineRoute({
    ...apiOperations.getPayoutsId,
    responses: { 200: R.payoutResponse },
    async run({ api, params }) {
      return { status: 200, body: alternativeData('payout', alternativePayout(await api.payouts.get(pathId(params.id, 'payout')))) }
    },
  }),
  defineRoute({
    ...apiOperations.postClicks,
    body: trackClickBody,
    responses: { 201: R.clickResponse },
    async run({ api, body }) {
      const click = await trackClick(api, body)
      return { status: 201, body: alternativeData('click', { id: click.id, affiliateId: affiliateId(click.affiliateId), createdAt: click.createdAt.toISOString() }) }
    },
  }),
] as const
