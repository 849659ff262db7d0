// /affiliates: list, create, retrieve, update, delete (by the path segment the shape reads as an
// affiliate), a one-time portal sign-in link, and an affiliate's stats; once for every shape.
import type { ProjectScope } from '../../core/program.js'
import { portalSignInLink } from '../../core/affiliates/portal-sign-in.js'
import { statsInput } from '../../core/project/stats.js'
import { defineOperation, type Given } from '../route.js'
import { asOfQuery, rejectAffiliateBody } from '../schemas.js'

type Affiliates = ProjectScope['affiliates']

export const listAffiliates = defineOperation({
  id: 'getAffiliates',
  method: 'GET',
  path: '/affiliates',
  scope: 'affiliates:read',
  summary: 'List affiliates',
  errors: [400],
  run: ({ api, input }: Given<Parameters<Affiliates['list']>[0]>) => api.affiliates.list(input),
})

export const createAffiliate = defineOperation({
  id: 'postAffiliates',
  method: 'POST',
  path: '/affiliates',
  scope: 'affiliates:write',
  summary: 'Create an affiliate',
  errors: [400, 404, 409],
  status: 201,
  run: ({ api, input }: Given<Parameters<Affiliates['create']>[0]>) => api.affiliates.create(input),
})

export const getAffiliate = defineOperation({
  id: 'getAffiliatesEmail',
  method: 'GET',
  path: '/affiliates/:email',
  scope: 'affiliates:read',
  summary: 'Retrieve an affiliate with stats; with as_of, its balances as they stood then',
  errors: [400, 404],
  query: asOfQuery,
  run: ({ api, params, query, affiliateRef }) =>
    query.as_of === undefined ? api.affiliates.get(affiliateRef(params.email)) : api.ledger.affiliate(affiliateRef(params.email), query.as_of),
})

export const updateAffiliate = defineOperation({
  id: 'putAffiliatesEmail',
  method: 'PUT',
  path: '/affiliates/:email',
  scope: 'affiliates:write',
  summary: 'Update an affiliate',
  errors: [400, 404, 409],
  run: ({ api, params, input, affiliateRef }: Given<Parameters<Affiliates['update']>[1]>) =>
    api.affiliates.update(affiliateRef(params.email), input),
})

export const deleteAffiliate = defineOperation({
  id: 'deleteAffiliatesEmail',
  method: 'DELETE',
  path: '/affiliates/:email',
  scope: 'affiliates:write',
  summary: 'Delete an affiliate and its data',
  errors: [400, 404],
  status: 204,
  run: ({ api, params, affiliateRef }) => api.affiliates.delete(affiliateRef(params.email)),
})

/** docs/onboarding.md: a pending affiliate becomes active; an active one is answered unchanged. */
export const approveAffiliate = defineOperation({
  id: 'postAffiliatesEmailApprove',
  method: 'POST',
  path: '/affiliates/:email/approve',
  scope: 'affiliates:write',
  summary: "Approve a pending affiliate's application (it becomes active)",
  errors: [400, 404, 409],
  run: ({ api, params, affiliateRef }) => api.applications.approve(affiliateRef(params.email)),
})

/** docs/onboarding.md: a pending affiliate becomes blocked, the reason kept on its application. */
export const rejectAffiliate = defineOperation({
  id: 'postAffiliatesEmailReject',
  method: 'POST',
  path: '/affiliates/:email/reject',
  scope: 'affiliates:write',
  summary: "Reject a pending affiliate's application, with an optional reason (it becomes blocked)",
  errors: [400, 404, 409],
  body: rejectAffiliateBody,
  run: ({ api, params, body, affiliateRef }) => api.applications.reject(affiliateRef(params.email), body.reason === undefined ? {} : { reason: body.reason }),
})

/**
 * Built from the portal handed to createHandler (option portal) and its configured public URL
 * only; 409 without one. The answer holds the link's secret, so an Idempotency-Key never stores it.
 */
export const createPortalLink = defineOperation({
  id: 'postAffiliatesEmailPortalLink',
  method: 'POST',
  path: '/affiliates/:email/portal-link',
  scope: 'affiliates:write',
  summary: "Create a one-time sign-in link to the affiliate portal, from the portal's configured public URL",
  errors: [400, 404, 409],
  status: 201,
  secretAnswer: true,
  async run({ api, params, portal, affiliateRef }) {
    const { email } = await api.affiliates.get(affiliateRef(params.email))
    return portalSignInLink(portal, api.projectId, email)
  },
})

/** docs/stats.md: per day, week or month of the project's time zone. */
export const programStats = defineOperation({
  id: 'getStats',
  method: 'GET',
  path: '/stats',
  scope: 'affiliates:read',
  summary: 'The whole program per day, week or month',
  errors: [400],
  query: statsInput,
  run: ({ api, query }) => api.stats.program(query),
})

export const affiliateStats = defineOperation({
  id: 'getAffiliatesEmailStats',
  method: 'GET',
  path: '/affiliates/:email/stats',
  scope: 'affiliates:read',
  summary: "An affiliate's clicks, visitors, signups, purchases, revenue and commission per day, week or month",
  errors: [400, 404],
  query: statsInput,
  run: ({ api, params, query }) => api.stats.affiliate(params.email ?? '', query),
})
