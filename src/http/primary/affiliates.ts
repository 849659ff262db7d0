// /affiliates in the primary shape: list, create, retrieve, update and delete, by email.
import type { AffiliateStatus } from '../../core/types.js'
import { defined, defineRoute, page } from '../route.js'
import { apiOperations } from '../api-operations.js'
import { portalLinkRoutes } from '../portal-link.js'
import * as R from '../response-schemas.js'
import { createAffiliateBody, listAffiliatesQuery, updateAffiliateBody } from '../schemas.js'
import { primaryAffiliate, primaryAffiliateCreated, primaryData, primaryList } from '../shapes/primary.js'

export const affiliateRoutes = [
  defineRoute({
    ...apiOperations.getAffiliates,
    query: listAffiliatesQuery,
    responses: { 200: R.affiliateList },
    async run({ api, query }) {
      // The primary shape shows pending and blocked affiliates as inactive, so it filters them so too.
      const statuses: AffiliateStatus[] | undefined = query.status === 'inactive' ? ['inactive', 'pending', 'blocked'] : query.status && [query.status]
      const result = await api.affiliates.list(defined({ limit: query.limit, offset: query.offset, status: statuses }))
      return { status: 200, body: primaryList(result.items.map(primaryAffiliate), page(result)) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/affiliates',
    scope: 'affiliates:write',
    summary: 'Create an affiliate',
    body: createAffiliateBody,
    responses: { 201: R.affiliateCreatedResponse },
    errors: [400, 409],
    async run({ api, body }) {
      const view = await api.affiliates.create(defined({
        email: body.email,
        referralCode: body.referral_code,
        partnerSlug: body.partner_slug,
        paymentMethod: body.payment_method,
        paymentDetails: body.payment_details,
        payoutMethod: body.payout_method,
        paypalEmail: body.paypal_email,
        parentReferralCode: body.parent_referral_code,
        parentAffiliateId: body.parent_affiliate_id,
      }))
      return { status: 201, body: primaryData(primaryAffiliateCreated(view)) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/affiliates/:email',
    scope: 'affiliates:read',
    summary: 'Retrieve an affiliate with stats',
    responses: { 200: R.affiliateResponse },
    errors: [400, 404],
    async run({ api, params }) {
      return { status: 200, body: primaryData(primaryAffiliate(await api.affiliates.get(params.email ?? ''))) }
    },
  }),
  defineRoute({
    ...apiOperations.putAffiliatesEmail,
    body: updateAffiliateBody,
    responses: { 200: R.affiliateResponse },
    async run({ api, params, body }) {
      const view = await api.affiliates.update(params.email ?? '', defined({
        email: body.email,
        referralCode: body.referral_code,
        status: body.status,
        partnerSlug: body.partner_slug,
        payoutMethod: body.payout_method,
        paypalEmail: body.paypal_email,
        paymentMethod: body.payment_method,
        paymentDetails: body.payment_details,
      }))
      return { status: 200, body: primaryData(primaryAffiliate(view)) }
    },
  }),
  defineRoute({
    ...apiOperations.deleteAffiliatesEmail,
    responses: { 204: null },
    async run({ api, params }) {
      await api.affiliates.delete(params.email ?? '')
      return { status: 204 }
    },
  }),
  ...portalLinkRoutes({
    response: R.portalLinkResponse,
    affiliate: (api, email) => api.affiliates.get(email),
    body: (link) => primaryData({ url: link.url, expires_at: link.expiresAt.toISOString() }),
  }),
] as const
