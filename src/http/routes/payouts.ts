// /payouts (payouts recorded outside the service) and /clicks (docs/api.md "Payouts", "Clicks").
import type { RouteDef } from '../route.js'
import { defined, alternativeWindow, page, parseBody, parseQuery, pathId } from '../route.js'
import { createPayoutBody, createPayoutBodyAlternative, listPayoutsQuery, trackClickBody } from '../schemas.js'
import { affiliateId, alternativeData, alternativeList, alternativePayout } from '../shapes/alternative.js'
import { primaryData, primaryList, primaryPayout } from '../shapes/primary.js'

export const payoutRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/payouts',
    scope: 'payouts:read',
    async handle({ api, query, alt }) {
      const q = parseQuery(listPayoutsQuery, query)
      if (alt) {
        const result = await api.payouts.list(defined({ ...alternativeWindow(q), affiliateId: q.affiliate_id }))
        return { status: 200, body: alternativeList('payouts', result.items.map(alternativePayout), page(result)) }
      }
      const result = await api.payouts.list(defined({ limit: q.limit, offset: q.offset, affiliateId: q.affiliate_id }))
      return { status: 200, body: primaryList(result.items.map(primaryPayout), page(result)) }
    },
  },
  {
    method: 'POST',
    path: '/payouts',
    scope: 'payouts:write',
    async handle({ api, body, alt }) {
      const b = alt ? parseBody(createPayoutBodyAlternative, body) : parseBody(createPayoutBody, body)
      const view = await api.payouts.create(defined({
        affiliateId: b.affiliate_id,
        affiliateEmail: b.affiliate_email,
        amount: b.amount,
        method: b.method,
        paymentDate: b.payment_date,
      }))
      return { status: 201, body: alt ? alternativeData('payout', alternativePayout(view)) : primaryData(primaryPayout(view)) }
    },
  },
  {
    method: 'GET',
    path: '/payouts/:id',
    scope: 'payouts:read',
    async handle({ api, params, alt }) {
      const view = await api.payouts.get(pathId(params.id, 'payout'))
      return { status: 200, body: alt ? alternativeData('payout', alternativePayout(view)) : primaryData(primaryPayout(view)) }
    },
  },
  {
    method: 'POST',
    path: '/clicks',
    scope: 'referrals:write',
    async handle({ api, body, alt }) {
      const b = parseBody(trackClickBody, body)
      const click = await api.trackClick(defined({ referralCode: b.referral_code, ip: b.ip_address, userAgent: b.user_agent, url: b.landing_url }))
      const record = alt
        ? { id: click.id, affiliateId: affiliateId(click.affiliateId), createdAt: click.createdAt.toISOString() }
        : { id: click.id, affiliate_id: click.affiliateId, created_at: click.createdAt.toISOString() }
      return { status: 201, body: alt ? alternativeData('click', record) : primaryData(record) }
    },
  },
]
