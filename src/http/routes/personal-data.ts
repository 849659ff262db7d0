// GDPR export and erase of an affiliate or a referred user, once for every shape (docs/privacy.md).
import { defineOperation } from '../route.js'

/** A referred user's path segment: its id (digits) or its email. */
export function referralRef(segment: string | undefined): number | string {
  return segment !== undefined && /^[1-9]\d{0,14}$/.test(segment) ? Number(segment) : (segment ?? '')
}

export const exportAffiliate = defineOperation({
  id: 'getAffiliatesEmailExport',
  method: 'GET',
  path: '/affiliates/:email/export',
  scope: 'affiliates:read',
  summary: 'Everything stored about an affiliate (GDPR export; the tax id masked)',
  errors: [400, 404],
  run: ({ api, params, affiliateRef }) => api.personalData.exportAffiliate(affiliateRef(params.email)),
})

export const eraseAffiliate = defineOperation({
  id: 'postAffiliatesEmailErase',
  method: 'POST',
  path: '/affiliates/:email/erase',
  scope: 'affiliates:write',
  summary: "Erase an affiliate's personal data (GDPR), keeping its amounts; answers what stays",
  errors: [400, 404],
  destructive: true,
  run: ({ api, params, affiliateRef }) => api.personalData.eraseAffiliate(affiliateRef(params.email)),
})

export const exportReferral = defineOperation({
  id: 'getReferralsEmailExport',
  method: 'GET',
  path: '/referrals/:email/export',
  scope: 'referrals:read',
  summary: 'Everything stored about a referred user, by id or email (GDPR export)',
  errors: [400, 404],
  run: ({ api, params }) => api.personalData.exportReferral(referralRef(params.email)),
})

export const eraseReferral = defineOperation({
  id: 'postReferralsEmailErase',
  method: 'POST',
  path: '/referrals/:email/erase',
  scope: 'referrals:write',
  summary: "Erase a referred user's personal data (GDPR), by id or email, keeping its conversions' amounts",
  errors: [400, 404],
  destructive: true,
  run: ({ api, params }) => api.personalData.eraseReferral(referralRef(params.email)),
})
