// /affiliates in the alternative shape: list, create, retrieve, update and delete, by email or by
// `aff_` id.
import { defined, defineRoute, page } from '../route.js'
import { apiOperations } from '../api-operations.js'
import { portalLinkRoutes } from '../portal-link.js'
import { createAffiliateBodyAlternative, listAffiliatesQueryAlternative, updateAffiliateBodyAlternative } from '../schemas.js'
import { alternativeAffiliate, alternativeData, alternativeList } from '../shapes/alternative.js'
import { affiliateRef, alternativeWindow } from './paging.js'
import * as R from './response-schemas.js'

// The alternative affiliate bodies are camelCase, like the core, except the parent fields.
const FIELD_NAMES = {
  parentReferralCode: 'parent_referral_code',
  parentAffiliateId: 'parent_affiliate_id',
  referralCode: 'referralCode',
  customFields: 'customFields',
  paymentMethod: 'paymentMethod',
  paymentDetails: 'paymentDetails',
}

export const affiliateRoutes = [
  defineRoute({
    ...apiOperations.getAffiliates,
    query: listAffiliatesQueryAlternative,
    responses: { 200: R.affiliateList },
    async run({ api, query }) {
      const result = await api.affiliates.list(defined({ ...alternativeWindow(query), status: query.status }))
      return { status: 200, body: alternativeList('affiliates', result.items.map((item) => alternativeAffiliate(item, false)), page(result)) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/affiliates',
    scope: 'affiliates:write',
    summary: 'Create an affiliate',
    body: createAffiliateBodyAlternative,
    responses: { 201: R.affiliateResponse },
    errors: [400, 404, 409],
    fieldNames: FIELD_NAMES,
    async run({ api, body }) {
      const input = defined({
        email: body.email,
        name: body.name,
        referralCode: body.referralCode,
        parentReferralCode: body.parent_referral_code,
        parentAffiliateId: body.parent_affiliate_id,
        customFields: body.customFields,
      })
      const view = await api.affiliates.create(input)
      return { status: 201, body: alternativeData('affiliate', alternativeAffiliate(view, true)) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/affiliates/:email',
    scope: 'affiliates:read',
    summary: 'Retrieve an affiliate by email or aff_ id',
    responses: { 200: R.affiliateResponse },
    errors: [400, 404],
    async run({ api, params }) {
      return { status: 200, body: alternativeData('affiliate', alternativeAffiliate(await api.affiliates.get(affiliateRef(params.email)), true)) }
    },
  }),
  defineRoute({
    ...apiOperations.putAffiliatesEmail,
    body: updateAffiliateBodyAlternative,
    responses: { 200: R.affiliateResponse },
    fieldNames: FIELD_NAMES,
    async run({ api, params, body }) {
      const view = await api.affiliates.update(affiliateRef(params.email), body)
      return { status: 200, body: alternativeData('affiliate', alternativeAffiliate(view, true)) }
    },
  }),
  defineRoute({
    ...apiOperations.deleteAffiliatesEmail,
    responses: { 204: null },
    async run({ api, params }) {
      await api.affiliates.delete(affiliateRef(params.email))
      return { status: 204 }
    },
  }),
  ...portalLinkRoutes({
    response: R.portalLinkResponse,
    affiliate: (api, ref) => api.affiliates.get(affiliateRef(ref)),
    body: (link) => alternativeData('portalLink', { url: link.url, expiresAt: link.expiresAt.toISOString() }),
  }),
] as const
