// /referrals (referred users): list, create, retrieve and update by email.
import type { RouteDef } from '../route.js'
import { defined, alternativeWindow, page, parseBody, parseQuery } from '../route.js'
import {
  createReferralBody,
  createReferralBodyAlternative,
  listQueryAlternative,
  listReferralsQuery,
  updateReferralBody,
  updateReferralBodyAlternative,
} from '../schemas.js'
import { alternativeData, alternativeList, alternativeReferral } from '../shapes/alternative.js'
import { primaryData, primaryList, primaryReferral } from '../shapes/primary.js'

export const referralRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/referrals',
    scope: 'referrals:read',
    async handle({ api, query, alt }) {
      if (alt) {
        const result = await api.referrals.list(alternativeWindow(parseQuery(listQueryAlternative, query)))
        return { status: 200, body: alternativeList('referrals', result.items.map(alternativeReferral), page(result)) }
      }
      const q = parseQuery(listReferralsQuery, query)
      const result = await api.referrals.list(defined({ limit: q.limit, offset: q.offset, affiliateId: q.affiliate_id, status: q.status }))
      return { status: 200, body: primaryList(result.items.map((item) => primaryReferral(item, true)), page(result)) }
    },
  },
  {
    method: 'POST',
    path: '/referrals',
    scope: 'referrals:write',
    async handle({ api, body, alt }) {
      if (alt) {
        const b = parseBody(createReferralBodyAlternative, body)
        const view = await api.referrals.create(defined({ email: b.email, referralCode: b.referral_code }))
        return { status: 201, body: alternativeData('referral', alternativeReferral(view)) }
      }
      const b = parseBody(createReferralBody, body)
      const view = await api.referrals.create(defined({
        email: b.email,
        affiliateId: b.affiliate_id,
        status: b.status,
        userAgent: b.user_agent,
        ipAddress: b.ip_address,
      }))
      return { status: 201, body: primaryData(primaryReferral(view, false)) }
    },
  },
  {
    method: 'GET',
    path: '/referrals/:email',
    scope: 'referrals:read',
    async handle({ api, params, alt }) {
      const view = await api.referrals.get(params.email ?? '')
      return { status: 200, body: alt ? alternativeData('referral', alternativeReferral(view)) : primaryData(primaryReferral(view, true)) }
    },
  },
  {
    method: 'PUT',
    path: '/referrals/:email',
    scope: 'referrals:write',
    async handle({ api, params, body, alt }) {
      const b = alt ? parseBody(updateReferralBodyAlternative, body) : parseBody(updateReferralBody, body)
      const view = await api.referrals.update(params.email ?? '', defined({ email: b.email, affiliateId: b.affiliate_id, status: b.status }))
      return { status: 200, body: alt ? alternativeData('referral', alternativeReferral(view)) : primaryData(primaryReferral(view, true)) }
    },
  },
]
