// /affiliates: list, create, retrieve, update and delete, by email (and, in the alternative shape,
// by `aff_` id too).
import type { AffiliateStatus } from '../../core/types.js'
import type { RouteDef } from '../route.js'
import { defined, affiliateRef, renameFields, alternativeWindow, page, parseBody, parseQuery } from '../route.js'
import {
  createAffiliateBody,
  createAffiliateBodyAlternative,
  listAffiliatesQuery,
  listAffiliatesQueryAlternative,
  updateAffiliateBody,
  updateAffiliateBodyAlternative,
} from '../schemas.js'
import { alternativeAffiliate, alternativeData, alternativeList } from '../shapes/alternative.js'
import { primaryAffiliate, primaryAffiliateCreated, primaryData, primaryList } from '../shapes/primary.js'

// The alternative affiliate bodies are camelCase, like the core, except the parent fields.
const ALTERNATIVE_FIELDS = {
  parentReferralCode: 'parent_referral_code',
  parentAffiliateId: 'parent_affiliate_id',
  referralCode: 'referralCode',
  customFields: 'customFields',
  paymentMethod: 'paymentMethod',
  paymentDetails: 'paymentDetails',
}
const alternativeFields = <T>(work: Promise<T>) => renameFields(work, ALTERNATIVE_FIELDS)

export const affiliateRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/affiliates',
    scope: 'affiliates:read',
    async handle({ api, query, alt }) {
      if (alt) {
        const q = parseQuery(listAffiliatesQueryAlternative, query)
        const result = await api.affiliates.list(defined({ ...alternativeWindow(q), status: q.status }))
        return { status: 200, body: alternativeList('affiliates', result.items.map((item) => alternativeAffiliate(item, false)), page(result)) }
      }
      const q = parseQuery(listAffiliatesQuery, query)
      // The primary shape shows pending and blocked affiliates as inactive, so it filters them so too.
      const statuses: AffiliateStatus[] | undefined = q.status === 'inactive' ? ['inactive', 'pending', 'blocked'] : q.status && [q.status]
      const result = await api.affiliates.list(defined({ limit: q.limit, offset: q.offset, status: statuses }))
      return { status: 200, body: primaryList(result.items.map(primaryAffiliate), page(result)) }
    },
  },
  {
    method: 'POST',
    path: '/affiliates',
    scope: 'affiliates:write',
    async handle({ api, body, alt }) {
      if (alt) {
        const b = parseBody(createAffiliateBodyAlternative, body)
        const view = await alternativeFields(api.affiliates.create(defined({
          email: b.email,
          name: b.name,
          referralCode: b.referralCode,
          parentReferralCode: b.parent_referral_code,
          parentAffiliateId: b.parent_affiliate_id,
          customFields: b.customFields,
        })))
        return { status: 201, body: alternativeData('affiliate', alternativeAffiliate(view, true)) }
      }
      const b = parseBody(createAffiliateBody, body)
      const view = await api.affiliates.create(defined({
        email: b.email,
        referralCode: b.referral_code,
        partnerSlug: b.partner_slug,
        paymentMethod: b.payment_method,
        paymentDetails: b.payment_details,
        payoutMethod: b.payout_method,
        paypalEmail: b.paypal_email,
        parentReferralCode: b.parent_referral_code,
        parentAffiliateId: b.parent_affiliate_id,
      }))
      return { status: 201, body: primaryData(primaryAffiliateCreated(view)) }
    },
  },
  {
    method: 'GET',
    path: '/affiliates/:email',
    scope: 'affiliates:read',
    async handle({ api, params, alt }) {
      const view = await api.affiliates.get(affiliateRef(params.email, alt))
      return { status: 200, body: alt ? alternativeData('affiliate', alternativeAffiliate(view, true)) : primaryData(primaryAffiliate(view)) }
    },
  },
  {
    method: 'PUT',
    path: '/affiliates/:email',
    scope: 'affiliates:write',
    async handle({ api, params, body, alt }) {
      const ref = affiliateRef(params.email, alt)
      if (alt) {
        const b = parseBody(updateAffiliateBodyAlternative, body)
        const view = await alternativeFields(api.affiliates.update(ref, b))
        return { status: 200, body: alternativeData('affiliate', alternativeAffiliate(view, true)) }
      }
      const b = parseBody(updateAffiliateBody, body)
      const view = await api.affiliates.update(ref, defined({
        email: b.email,
        referralCode: b.referral_code,
        status: b.status,
        partnerSlug: b.partner_slug,
        payoutMethod: b.payout_method,
        paypalEmail: b.paypal_email,
        paymentMethod: b.payment_method,
        paymentDetails: b.payment_details,
      }))
      return { status: 200, body: primaryData(primaryAffiliate(view)) }
    },
  },
  {
    method: 'DELETE',
    path: '/affiliates/:email',
    scope: 'affiliates:write',
    async handle({ api, params, alt }) {
      await api.affiliates.delete(affiliateRef(params.email, alt))
      return { status: 204 }
    },
  },
]
