// Each operation of the REST API as both shapes serve it: method, path, scope, summary and the
// error statuses it may answer. Keyed by the OpenAPI operationId; each shape's route table
// spreads one of these into its route and adds its own schemas and run (route.ts).
import type { OperationInfo } from './route.js'

export const apiOperations = {
  getAffiliates: { method: 'GET', path: '/affiliates', scope: 'affiliates:read', summary: 'List affiliates', errors: [400] },
  putAffiliatesEmail: { method: 'PUT', path: '/affiliates/:email', scope: 'affiliates:write', summary: 'Update an affiliate', errors: [400, 404, 409] },
  postAffiliatesEmailPortalLink: {
    method: 'POST',
    path: '/affiliates/:email/portal-link',
    scope: 'affiliates:write',
    summary: "Create a one-time sign-in link to the affiliate portal, from the portal's configured public URL",
    errors: [400, 404, 409],
  },
  deleteAffiliatesEmail: { method: 'DELETE', path: '/affiliates/:email', scope: 'affiliates:write', summary: 'Delete an affiliate and its data', errors: [400, 404] },
  getConversions: { method: 'GET', path: '/conversions', scope: 'conversions:read', summary: 'List conversions', errors: [400] },
  getConversionsId: { method: 'GET', path: '/conversions/:id', scope: 'conversions:read', summary: 'Retrieve a conversion', errors: [400, 404] },
  putConversionsId: { method: 'PUT', path: '/conversions/:id', scope: 'conversions:write', summary: 'Update a conversion (paid, status, refunds...)', errors: [400, 404, 409] },
  getCoupons: { method: 'GET', path: '/coupons', scope: 'coupons:read', summary: 'List coupons', errors: [400] },
  postCoupons: { method: 'POST', path: '/coupons', scope: 'coupons:write', summary: 'Create a coupon', errors: [400, 404, 409] },
  getCouponsId: { method: 'GET', path: '/coupons/:id', scope: 'coupons:read', summary: 'Retrieve a coupon', errors: [400, 404] },
  putCouponsId: { method: 'PUT', path: '/coupons/:id', scope: 'coupons:write', summary: 'Update a coupon', errors: [400, 404, 409] },
  getPayouts: { method: 'GET', path: '/payouts', scope: 'payouts:read', summary: 'List payouts, newest first', errors: [400] },
  postPayouts: { method: 'POST', path: '/payouts', scope: 'payouts:write', summary: 'Record a payout made outside the service', errors: [400, 404] },
  getPayoutsId: { method: 'GET', path: '/payouts/:id', scope: 'payouts:read', summary: 'Retrieve a payout', errors: [400, 404] },
  postClicks: { method: 'POST', path: '/clicks', scope: 'referrals:write', summary: 'Count a click on a referral link', errors: [400, 404] },
  getReferrals: { method: 'GET', path: '/referrals', scope: 'referrals:read', summary: 'List referred users', errors: [400] },
  postReferrals: { method: 'POST', path: '/referrals', scope: 'referrals:write', summary: 'Create a referred user', errors: [400, 404, 409] },
  getReferralsEmail: { method: 'GET', path: '/referrals/:email', scope: 'referrals:read', summary: 'Retrieve a referred user', errors: [400, 404] },
  putReferralsEmail: { method: 'PUT', path: '/referrals/:email', scope: 'referrals:write', summary: 'Update a referred user', errors: [400, 404, 409] },
  getStats: { method: 'GET', path: '/stats', scope: 'affiliates:read', summary: 'The whole program per day, week or month', errors: [400] },
  getAffiliatesEmailStats: {
    method: 'GET',
    path: '/affiliates/:email/stats',
    scope: 'affiliates:read',
    summary: "An affiliate's clicks, visitors, signups, purchases, revenue and commission per day, week or month",
    errors: [400, 404],
  },
} as const satisfies Record<string, OperationInfo>
