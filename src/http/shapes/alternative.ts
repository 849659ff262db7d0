// The alternative shape (docs/api.md "The alternative shape"): what each operation of the table
// reads and answers in it. Affiliates are named by email, `aff_12` or `12`; lists default to 20
// items, at most 100. Records and their schemas: alternative-encoders.ts, alternative-records.ts;
// request bodies and queries: alternative-requests.ts.
import type { AffiliateView, LinkView } from '../../core/rules/views.js'
import type * as v from 'valibot'
import { processorCouponId } from '../coupon-ids.js'
import { codec, defined, page } from '../route.js'
import * as A from '../routes/affiliates.js'
import { listAuditLog } from '../routes/audit-log.js'
import { ANALYTICS_FIELD_NAMES, queryAnalytics } from '../routes/analytics.js'
import { analyticsResponseAlternative } from './analytics-records.js'
import { alternativeAnalytics } from './analytics-encoders.js'
import { createEmbedToken } from '../routes/embed-tokens.js'
import * as C from '../routes/conversions.js'
import * as K from '../routes/coupons.js'
import * as N from '../routes/links.js'
import * as P from '../routes/payouts.js'
import * as L from '../routes/ledger.js'
import { listProviderEvents, replayProviderEvent } from '../routes/provider-events.js'
import * as F from '../routes/referrals.js'
import * as G from '../routes/personal-data.js'
import { getDelivery, listDeliveries, retryDelivery } from '../routes/webhook-deliveries.js'
import { listQuery } from '../schemas.js'
import * as E from './alternative-encoders.js'
import * as R from './alternative-records.js'
import * as Q from './alternative-requests.js'
import { defineShape } from './shape.js'

/** An affiliate path segment: an email, `aff_12` or `12`. */
export function affiliateRef(value: string | undefined): number | string {
  const segment = value ?? ''
  return /^(aff_)?[1-9]\d{0,14}$/.test(segment) ? Number(segment.replace(/^aff_/, '')) : segment
}

/** Limit default and maximum of this shape's lists: 20, at most 100. */
export function window(query: { limit?: number | undefined; offset?: number | undefined }) {
  return { limit: Math.min(query.limit ?? 20, 100), offset: query.offset ?? 0 }
}

// The affiliate bodies are camelCase, like the core, except the parent fields.
const AFFILIATE_FIELD_NAMES = {
  parentReferralCode: 'parent_referral_code',
  parentAffiliateId: 'parent_affiliate_id',
  referralCode: 'referralCode',
  customFields: 'customFields',
  paymentMethod: 'paymentMethod',
  paymentDetails: 'paymentDetails',
}

/** This shape's POST /conversions body (also the preview's), always a purchase, as the core's input. */
const conversionBody = {
  body: Q.createConversionBodyAlternative,
  fieldNames: { baseValue: 'amount', email: 'customer_email' },
  input: ({ body }: { body: v.InferOutput<typeof Q.createConversionBodyAlternative> }) =>
    defined({ type: 'purchase' as const, email: body.customer_email, baseValue: body.amount, referralCode: body.referral_code, click: body.click }),
}

const windowOnly = { query: listQuery, input: ({ query }: { query: { limit?: number | undefined; offset?: number | undefined } }) => window(query) }
const stats = { responses: { 200: R.statsResponse }, output: E.stats }
/** The answer of every operation that returns one affiliate. */
const affiliateAnswer = { responses: { 200: R.affiliateResponse }, output: (view: AffiliateView) => E.data('affiliate', E.affiliate(view, true)) }

/** The answer of every operation that returns one link. */
const linkAnswer = { responses: { 200: R.linkResponse }, output: (view: LinkView) => E.data('link', E.link(view)) }

export const alternativeShape = defineShape({
  title: 'alternative shape',
  error: E.error,
  errorSchema: R.errorBody,
  affiliateRef,
  window,
  codecs: {
    getAffiliates: codec(A.listAffiliates, {
      query: Q.listAffiliatesQueryAlternative,
      responses: { 200: R.affiliateList },
      input: ({ query }) => defined({ ...window(query), status: query.status }),
      output: (result) => E.paged('affiliates', result, (item) => E.affiliate(item, false)),
    }),
    postAffiliates: codec(A.createAffiliate, {
      body: Q.createAffiliateBodyAlternative,
      responses: { 201: R.affiliateResponse },
      fieldNames: AFFILIATE_FIELD_NAMES,
      input: ({ body }) =>
        defined({
          email: body.email,
          name: body.name,
          referralCode: body.referralCode,
          parentReferralCode: body.parent_referral_code,
          parentAffiliateId: body.parent_affiliate_id,
          customFields: body.customFields,
          locale: body.locale,
          commission: body.commission,
          incentives: body.incentives,
        }),
      output: (view) => E.data('affiliate', E.affiliate(view, true)),
    }),
    getAffiliatesEmail: codec(A.getAffiliate, {
      summary: 'Retrieve an affiliate by email or aff_ id',
      ...affiliateAnswer,
    }),
    putAffiliatesEmail: codec(A.updateAffiliate, {
      body: Q.updateAffiliateBodyAlternative,
      fieldNames: AFFILIATE_FIELD_NAMES,
      input: ({ body }) => body,
      ...affiliateAnswer,
    }),
    deleteAffiliatesEmail: codec(A.deleteAffiliate, { responses: { 204: null } }),
    postAffiliatesEmailApprove: codec(A.approveAffiliate, affiliateAnswer),
    postAffiliatesEmailReject: codec(A.rejectAffiliate, affiliateAnswer),
    postAffiliatesEmailPortalLink: codec(A.createPortalLink, {
      responses: { 201: R.portalLinkResponse },
      output: (link) => E.data('portalLink', { url: link.url, expiresAt: link.expiresAt.toISOString() }),
    }),
    postEmbedTokens: codec(createEmbedToken, {
      body: Q.createEmbedTokenBodyAlternative,
      responses: { 201: R.embedTokenResponse },
      input: ({ body }) => defined({ email: body.email, externalId: body.externalId, name: body.name, group: body.group, ttlSeconds: body.ttlSeconds, hide: body.hide }),
      output: (created) => E.data('embedToken', { token: created.token, expiresAt: created.expiresAt.toISOString(), url: created.url }),
    }),
    getAffiliatesEmailExport: codec(G.exportAffiliate, { responses: { 200: R.affiliateExportResponse }, output: (result) => E.data('export', E.affiliateExport(result)) }),
    postAffiliatesEmailErase: codec(G.eraseAffiliate, { responses: { 200: R.affiliateExportResponse }, output: (result) => E.data('export', E.affiliateExport(result)) }),
    getConversions: codec(C.listConversions, {
      ...windowOnly,
      responses: { 200: R.conversionList },
      output: async (result, { api }) => E.list('conversions', await E.conversions(api, result.items), page(result)),
    }),
    postConversions: codec(C.createConversion, {
      summary: 'Create a purchase conversion',
      ...conversionBody,
      responses: { 201: R.conversionResponse },
      output: (result, { api }) => E.conversionItem(api, result.conversion),
    }),
    postConversionsPreview: codec(C.previewConversion, {
      summary: 'What POST /conversions would create, writing nothing',
      ...conversionBody,
      responses: { 200: R.conversionPreviewResponse },
      output: (preview) => E.data('preview', E.conversionPreview(preview)),
    }),
    getConversionsId: codec(C.getConversion, { responses: { 200: R.conversionResponse }, output: (view, { api }) => E.conversionItem(api, view) }),
    putConversionsId: codec(C.updateConversion, { responses: { 200: R.conversionResponse }, output: (view, { api }) => E.conversionItem(api, view) }),
    deleteConversionsId: codec(C.deleteConversion, { responses: { 204: null } }),
    getReferrals: codec(F.listReferrals, {
      ...windowOnly,
      responses: { 200: R.referralList },
      output: (result) => E.paged('referrals', result, E.referral),
    }),
    postReferrals: codec(F.createReferral, {
      body: Q.createReferralBodyAlternative,
      responses: { 201: R.referralResponse },
      input: ({ body }) => defined({ email: body.email, referralCode: body.referral_code }),
      output: (view) => E.data('referral', E.referral(view)),
    }),
    getReferralsEmail: codec(F.getReferral, { responses: { 200: R.referralResponse }, output: (view) => E.data('referral', E.referral(view)) }),
    putReferralsEmail: codec(F.updateReferral, {
      body: Q.updateReferralBodyAlternative,
      responses: { 200: R.referralResponse },
      input: ({ body }) => defined({ email: body.email, affiliateId: body.affiliate_id, status: body.status }),
      output: (view) => E.data('referral', E.referral(view)),
    }),
    getReferralsEmailExport: codec(G.exportReferral, { responses: { 200: R.referralExportResponse }, output: (result) => E.data('export', E.referralExport(result)) }),
    postReferralsEmailErase: codec(G.eraseReferral, { responses: { 200: R.referralExportResponse }, output: (result) => E.data('export', E.referralExport(result)) }),
    getCoupons: codec(K.listCoupons, { ...windowOnly, responses: { 200: R.couponList }, output: (result) => E.paged('coupons', result, E.coupon) }),
    postCoupons: codec(K.createCoupon, {
      body: Q.createCouponBodyAlternative,
      responses: { 201: R.couponResponse },
      fieldNames: { email: 'affiliate_email' },
      async input({ api, body }) {
        const processorId = processorCouponId(body)
        const affiliate = await api.affiliates.get(body.affiliate_email)
        return defined({ affiliateId: affiliate.id, code: body.code, status: body.status, processorCouponId: processorId, discountType: body.discount_type, discountValue: body.discount_value })
      },
      output: (view) => E.data('coupon', E.coupon(view)),
    }),
    getCouponsId: codec(K.getCoupon, { responses: { 200: R.couponResponse }, output: (view) => E.data('coupon', E.coupon(view)) }),
    putCouponsId: codec(K.updateCoupon, { responses: { 200: R.couponResponse }, output: (view) => E.data('coupon', E.coupon(view)) }),
    deleteCouponsId: codec(K.deleteCoupon, { responses: { 204: null } }),
    postAffiliatesEmailPromotionCodes: codec(K.createPromotionCode, { responses: { 201: R.couponResponse }, output: (view) => E.data('coupon', E.coupon(view)) }),
    getLinks: codec(N.listLinks, {
      query: Q.listLinksQueryAlternative,
      responses: { 200: R.linkList },
      input: ({ query }) => defined({ ...window(query), affiliate: query.affiliate === undefined ? undefined : affiliateRef(query.affiliate) }),
      output: (result) => E.paged('links', result, E.link),
    }),
    postLinks: codec(N.createLink, {
      body: Q.createLinkBodyAlternative,
      responses: { 201: R.linkResponse },
      input: ({ body }) => ({ affiliate: affiliateRef(body.affiliate), ...N.linkInput(body) }),
      output: (view) => E.data('link', E.link(view)),
    }),
    getLinksId: codec(N.getLink, linkAnswer),
    patchLinksId: codec(N.updateLink, linkAnswer),
    deleteLinksId: codec(N.deleteLink, { responses: { 204: null } }),
    getLinksIdQr: codec(N.linkQrCode, { responses: { 200: R.linkQrImage }, output: N.qrAnswer }),
    getPayouts: codec(P.listPayouts, { responses: { 200: R.payoutList }, output: (result) => E.paged('payouts', result, E.payout) }),
    postPayouts: codec(P.createPayout, {
      body: Q.createPayoutBodyAlternative,
      responses: { 201: R.payoutResponse },
      input: ({ body }) => P.payoutInput(body),
      output: (view) => E.data('payout', E.payout(view)),
    }),
    getPayoutsTaxSummary: codec(P.taxSummary, { responses: { 200: R.taxSummaryCsv }, output: (csv) => csv }),
    getPayoutsDue: codec(P.listDuePayouts, { responses: { 200: R.dueList }, output: (entries) => E.data('due', entries.map(E.due)) }),
    postPayoutsRuns: codec(P.runPayouts, { responses: { 200: R.payoutRunResponse }, output: (result) => E.data('run', E.payoutRun(result)) }),
    getPayoutsRequests: codec(P.listPayoutRequests, { responses: { 200: R.payoutRequestList }, output: (result) => E.paged('requests', result, E.payoutRequest) }),
    getPayoutsId: codec(P.getPayout, { responses: { 200: R.payoutResponse }, output: (view) => E.data('payout', E.payout(view)) }),
    postClicks: codec(P.trackClick, {
      responses: { 201: R.clickResponse },
      output: (click) => E.data('click', { id: click.id, affiliateId: E.affiliateId(click.affiliateId), createdAt: click.createdAt.toISOString() }),
    }),
    getWebhooksWebhookIdDeliveries: codec(listDeliveries, {
      responses: { 200: R.deliveryList },
      output: (result) => E.paged('deliveries', result, E.delivery),
    }),
    getWebhooksWebhookIdDeliveriesDeliveryId: codec(getDelivery, { responses: { 200: R.deliveryResponse }, output: E.deliveryDetail }),
    postWebhooksWebhookIdDeliveriesDeliveryIdRetry: codec(retryDelivery, { responses: { 202: R.deliveryResponse }, output: E.deliveryDetail }),
    getProviderEvents: codec(listProviderEvents, {
      responses: { 200: R.providerEventList },
      output: (result) => E.paged('providerEvents', result, E.providerEvent),
    }),
    postProviderEventsIdReplay: codec(replayProviderEvent, {
      responses: { 200: R.providerEventReplayResponse },
      output: ({ replayed, message, event }) => ({ success: true, data: { replayed, message, providerEvent: E.providerEvent(event) } }),
    }),
    getStats: codec(A.programStats, stats),
    getAffiliatesEmailStats: codec(A.affiliateStats, stats),
    getAnalytics: codec(queryAnalytics, { responses: { 200: analyticsResponseAlternative }, fieldNames: ANALYTICS_FIELD_NAMES, output: alternativeAnalytics }),
    getAffiliatesEmailBalances: codec(L.affiliateBalances, { responses: { 200: R.balancesResponse }, output: (view) => E.data('balances', E.balances(view)) }),
    getLedgerBalances: codec(L.programBalances, { responses: { 200: R.programBalancesResponse }, output: (view) => E.data('balances', E.programBalances(view)) }),
    getLedger: codec(L.listLedger, {
      responses: { 200: R.ledgerList },
      output: (entries, ctx) => (L.wantsCsv(ctx.accept) ? L.ledgerCsv(entries) : E.data('ledger', entries.map(E.ledgerEntry))),
    }),
    getAuditLog: codec(listAuditLog, {
      responses: { 200: R.auditLogList },
      input: ({ query }) => window(query),
      output: (result) => E.paged('auditLog', result, E.auditEntry),
    }),
  },
})
