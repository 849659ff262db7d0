// /referrals (referred users) in the primary shape: list, create, retrieve and update by email.
import { defined, defineRoute, page } from '../route.js'
import { apiOperations } from '../api-operations.js'
import * as R from '../response-schemas.js'
import { createReferralBody, listReferralsQuery, updateReferralBody } from '../schemas.js'
import { primaryData, primaryList, primaryReferral } from '../shapes/primary.js'

export const referralRoutes = [
  defineRoute({
    ...apiOperations.getReferrals,
    query: listReferralsQuery,
    responses: { 200: R.referralList },
    async run({ api, query }) {
      const result = await api.referrals.list(defined({ limit: query.limit, offset: query.offset, affiliateId: query.affiliate_id, status: query.status }))
      return { status: 200, body: primaryList(result.items.map((item) => primaryReferral(item, true)), page(result)) }
    },
  }),
  defineRoute({
    ...apiOperations.postReferrals,
    body: createReferralBody,
    responses: { 201: R.referralResponse },
    async run({ api, body }) {
      const view = await api.referrals.create(defined({
        email: body.email,
        affiliateId: body.affiliate_id,
        status: body.status,
        userAgent: body.user_agent,
        ipAddress: body.ip_address,
      }))
      return { status: 201, body: primaryData(primaryReferral(view, false)) }
    },
  }),
  defineRoute({
    ...apiOperations.getReferralsEmail,
    responses: { 200: R.referralResponse },
    async run({ api, params }) {
      return { status: 200, body: primaryData(primaryReferral(await api.referrals.get(params.email ?? ''), true)) }
    },
  }),
  defineRoute({
    ...apiOperations.putReferralsEmail,
    body: updateReferralBody,
    responses: { 200: R.referralResponse },
    async run({ api, params, body }) {
      const view = await api.referrals.update(params.email ?? '', defined({ email: body.email, affiliateId: body.affiliate_id, status: body.status }))
      return { status: 200, body: primaryData(primaryReferral(view, true)) }
    },
  }),
] as const
