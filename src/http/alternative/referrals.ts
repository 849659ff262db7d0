// /referrals (referred users) in the alternative shape: created by the referring affiliate's code.
import { defined, defineRoute, page } from '../route.js'
import { apiOperations } from '../api-operations.js'
import { createReferralBodyAlternative, listQueryAlternative, updateReferralBodyAlternative } from '../schemas.js'
import { alternativeData, alternativeList, alternativeReferral } from '../shapes/alternative.js'
import { alternativeWindow } from './paging.js'
import * as R from './response-schemas.js'

export const referralRoutes = [
  defineRoute({
    ...apiOperations.getReferrals,
    query: listQueryAlternative,
    responses: { 200: R.referralList },
    async run({ api, query }) {
      const result = await api.referrals.list(alternativeWindow(query))
      return { status: 200, body: alternativeList('referrals', result.items.map(alternativeReferral), page(result)) }
    },
  }),
  defineRoute({
    ...apiOperations.postReferrals,
    body: createReferralBodyAlternative,
    responses: { 201: R.referralResponse },
    async run({ api, body }) {
      const view = await api.referrals.create(defined({ email: body.email, referralCode: body.referral_code }))
      return { status: 201, body: alternativeData('referral', alternativeReferral(view)) }
    },
  }),
  defineRoute({
    ...apiOperations.getReferralsEmail,
    responses: { 200: R.referralResponse },
    async run({ api, params }) {
      return { status: 200, body: alternativeData('referral', alternativeReferral(await api.referrals.get(params.email ?? ''))) }
    },
  }),
  defineRoute({
    ...apiOperations.putReferralsEmail,
    body: updateReferralBodyAlternative,
    responses: { 200: R.referralResponse },
    async run({ api, params, body }) {
      const view = await api.referrals.update(params.email ?? '', defined({ email: body.email, affiliateId: body.affiliate_id, status: body.status }))
      return { status: 200, body: alternativeData('referral', alternativeReferral(view)) }
    },
  }),
] as const
