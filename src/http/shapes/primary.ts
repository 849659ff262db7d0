// The primary shape (docs/api.md): what each operation of the table reads and answers in it.
// Records and their schemas: primary-encoders.ts, primary-records.ts.
import type { AffiliateView, LinkView } from '../../core/rules/views.js'
import type * as v from 'valibot'
import type { AffiliateStatus } from '../../core/model/types.js'
import { codec, defined } from '../route.js'
import * as A from '../routes/affiliates.js'
import { listAuditLog } from '../routes/audit-log.js'
import { ANALYTICS_FIELD_NAMES, queryAnalytics } from '../routes/analytics.js'
import { analyticsResponse } from './analytics-records.js'
import { primaryAnalytics } from './analytics-encoders.js'
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
import { processorCouponId } from '../coupon-ids.js'
import * as S from '../schemas.js'
import * as E from './primary-encoders.js'
import * as R from './primary-records.js'
import { defineShape } from './shape.js'
import { HttpError } from '../../server/errors.js'

const stats = { responses: { 200: R.statsResponse }, output: E.stats }
/** The answer of every operation that returns one affiliate. */
const affiliateAnswer = { responses: { 200: R.affiliateResponse }, output: (view: AffiliateView) => E.data(E.affiliate(view)) }

/** The core's create (and preview) input from the POST /conversions body. */
function conversionInput(body: v.InferOutput<typeof S.createConversionBody>) {
  return defined({
    type: body.type,
    affiliateId: body.affiliate_id,
    referralCode: body.referral_code,
    email: body.email,
    referredUserId: body.referred_user_id,
    value: body.value,
    baseValue: body.base_value,
    baseValueCurrency: body.base_value_currency,
    paid: body.paid,
    reference: body.reference,
    couponCodeUsed: body.coupon_code_used,
    paymentProcessor: body.payment_processor,
    productId: body.product_id,
    click: body.click,
  })
}

/** The affiliate a link body or query names: by email (`affiliate`) or id (`affiliate_id`), not both. */
function linkAffiliate(named: { affiliate?: string | undefined; affiliate_id?: number | undefined }): string | number | undefined {
  if (named.affiliate !== undefined && named.affiliate_id !== undefined) throw new HttpError('invalid_request', 'send affiliate or affiliate_id, not both', 'affiliate')
  return named.affiliate_id ?? named.affiliate
}
/** The answer of every operation that returns one link. */
const linkAnswer = { responses: { 200: R.linkResponse }, output: (view: LinkView) => E.data(E.link(view)) }

export const primaryShape = defineShape({
  title: 'primary shape',
  error: E.error,
  errorSchema: R.errorBody,
  affiliateRef: (segment) => segment ?? '',
  window: (query) => ({ limit: query.limit, offset: query.offset }),
  codecs: {
    getAffiliates: codec(A.listAffiliates, {
      query: S.listAffiliatesQuery,
      responses: { 200: R.affiliateList },
      input({ query }) {
        // Pending and blocked affiliates are shown as inactive, so they are filtered so too.
        const statuses: AffiliateStatus[] | undefined = query.status === 'inactive' ? ['inactive', 'pending', 'blocked'] : query.status && [query.status]
        return defined({ limit: query.limit, offset: query.offset, status: statuses })
      },
      output: (result) => E.paged(result, E.affiliate),
    }),
    postAffiliates: codec(A.createAffiliate, {
      body: S.createAffiliateBody,
      responses: { 201: R.affiliateCreatedResponse },
      input: ({ body }) =>
        defined({
          email: body.email,
          referralCode: body.referral_code,
          partnerSlug: body.partner_slug,
          paymentMethod: body.payment_method,
          paymentDetails: body.payment_details,
          payoutMethod: body.payout_method,
          paypalEmail: body.paypal_email,
          parentReferralCode: body.parent_referral_code,
          parentAffiliateId: body.parent_affiliate_id,
          locale: body.locale,
          commission: body.commission,
          incentives: body.incentives,
        }),
      output: (view) => E.data(E.affiliateCreated(view)),
    }),
    getAffiliatesEmail: codec(A.getAffiliate, affiliateAnswer),
    putAffiliatesEmail: codec(A.updateAffiliate, {
      body: S.updateAffiliateBody,
      input: ({ body }) =>
        defined({
          email: body.email,
          referralCode: body.referral_code,
          status: body.status,
          partnerSlug: body.partner_slug,
          payoutMethod: body.payout_method,
          paypalEmail: body.paypal_email,
          paymentMethod: body.payment_method,
          paymentDetails: body.payment_details,
          locale: body.locale,
          commission: body.commission,
          incentives: body.incentives,
        }),
      ...affiliateAnswer,
    }),
    deleteAffiliatesEmail: codec(A.deleteAffiliate, { responses: { 204: null } }),
    postAffiliatesEmailApprove: codec(A.approveAffiliate, affiliateAnswer),
    postAffiliatesEmailReject: codec(A.rejectAffiliate, affiliateAnswer),
    postAffiliatesEmailPortalLink: codec(A.createPortalLink, {
      responses: { 201: R.portalLinkResponse },
      output: (link) => E.data({ url: link.url, expires_at: link.expiresAt.toISOString() }),
    }),
    postEmbedTokens: codec(createEmbedToken, {
      body: S.createEmbedTokenBody,
      responses: { 201: R.embedTokenResponse },
      input: ({ body }) => defined({ email: body.email, externalId: body.external_id, name: body.name, group: body.group, ttlSeconds: body.ttl_seconds, hide: body.hide }),
      output: (created) => E.data({ token: created.token, expires_at: created.expiresAt.toISOString(), url: created.url }),
    }),
    getAffiliatesEmailExport: codec(G.exportAffiliate, { responses: { 200: R.affiliateExportResponse }, output: (result) => E.data(E.affiliateExport(result)) }),
    postAffiliatesEmailErase: codec(G.eraseAffiliate, { responses: { 200: R.affiliateExportResponse }, output: (result) => E.data(E.affiliateExport(result)) }),
    getConversions: codec(C.listConversions, {
      query: S.listConversionsQuery,
      responses: { 200: R.conversionList },
      input: ({ query }) =>
        defined({
          limit: query.limit,
          offset: query.offset,
          type: query.type,
          affiliateId: query.affiliate_id,
          referredUserId: query.referred_user_id,
          paid: query.paid,
          from: query.from,
          to: query.to,
        }),
      output: (result) => E.paged(result, E.conversion),
    }),
    postConversions: codec(C.createConversion, {
      body: S.createConversionBody,
      responses: { 200: R.conversionCreatedResponse, 201: R.conversionCreatedResponse },
      input: ({ body }) => conversionInput(body),
      output(result) {
        const attribution = { affiliate_id: result.attribution.affiliateId, matched_by: result.attribution.matchedBy }
        const payload = { success: true, data: E.conversion(result.conversion), attribution }
        return result.duplicate ? { ...payload, duplicate: true } : payload
      },
      // A repeated reference with the same payload: 200 with duplicate: true.
      status: (result) => (result.duplicate ? 200 : 201),
    }),
    postConversionsPreview: codec(C.previewConversion, {
      body: S.createConversionBody,
      responses: { 200: R.conversionPreviewResponse },
      input: ({ body }) => conversionInput(body),
      output: (preview) => E.data(E.conversionPreview(preview)),
    }),
    getConversionsId: codec(C.getConversion, { responses: { 200: R.conversionResponse }, output: (view) => E.data(E.conversion(view)) }),
    putConversionsId: codec(C.updateConversion, { responses: { 200: R.conversionResponse }, output: (view) => E.data(E.conversion(view)) }),
    deleteConversionsId: codec(C.deleteConversion, { responses: { 204: null } }),
    getReferrals: codec(F.listReferrals, {
      query: S.listReferralsQuery,
      responses: { 200: R.referralList },
      input: ({ query }) => defined({ limit: query.limit, offset: query.offset, affiliateId: query.affiliate_id, status: query.status }),
      output: (result) => E.paged(result, (view) => E.referral(view, true)),
    }),
    postReferrals: codec(F.createReferral, {
      body: S.createReferralBody,
      responses: { 201: R.referralResponse },
      input: ({ body }) => defined({ email: body.email, affiliateId: body.affiliate_id, status: body.status, userAgent: body.user_agent, ipAddress: body.ip_address }),
      output: (view) => E.data(E.referral(view, false)),
    }),
    getReferralsEmail: codec(F.getReferral, { responses: { 200: R.referralResponse }, output: (view) => E.data(E.referral(view, true)) }),
    putReferralsEmail: codec(F.updateReferral, {
      body: S.updateReferralBody,
      responses: { 200: R.referralResponse },
      input: ({ body }) => defined({ email: body.email, affiliateId: body.affiliate_id, status: body.status }),
      output: (view) => E.data(E.referral(view, true)),
    }),
    getReferralsEmailExport: codec(G.exportReferral, { responses: { 200: R.referralExportResponse }, output: (result) => E.data(E.referralExport(result)) }),
    postReferralsEmailErase: codec(G.eraseReferral, { responses: { 200: R.referralExportResponse }, output: (result) => E.data(E.referralExport(result)) }),
    getCoupons: codec(K.listCoupons, {
      query: S.listCouponsQuery,
      responses: { 200: R.couponList },
      input: ({ query }) => defined({ limit: query.limit, offset: query.offset, affiliateId: query.affiliate_id, code: query.coupon_code, status: query.status }),
      output: (result) => E.paged(result, E.coupon),
    }),
    postCoupons: codec(K.createCoupon, {
      body: S.createCouponBody,
      responses: { 201: R.couponResponse },
      input: ({ body }) => defined({ affiliateId: body.affiliate_id, code: body.coupon_code, status: body.status, processorCouponId: processorCouponId(body) }),
      output: (view) => E.data(E.coupon(view)),
    }),
    getCouponsId: codec(K.getCoupon, { responses: { 200: R.couponResponse }, output: (view) => E.data(E.coupon(view)) }),
    putCouponsId: codec(K.updateCoupon, { responses: { 200: R.couponResponse }, output: (view) => E.data(E.coupon(view)) }),
    deleteCouponsId: codec(K.deleteCoupon, { responses: { 204: null } }),
    postAffiliatesEmailPromotionCodes: codec(K.createPromotionCode, { responses: { 201: R.couponResponse }, output: (view) => E.data(E.coupon(view)) }),
    getLinks: codec(N.listLinks, {
      query: S.listLinksQuery,
      responses: { 200: R.linkList },
      input: ({ query }) => defined({ limit: query.limit, offset: query.offset, affiliate: linkAffiliate(query) }),
      output: (result) => E.paged(result, E.link),
    }),
    postLinks: codec(N.createLink, {
      body: S.createLinkBody,
      responses: { 201: R.linkResponse },
      input({ body }) {
        const affiliate = linkAffiliate(body)
        if (affiliate === undefined) throw new HttpError('invalid_request', 'affiliate: is required (an email), or send affiliate_id', 'affiliate')
        return { affiliate, ...N.linkInput(body) }
      },
      output: (view) => E.data(E.link(view)),
    }),
    getLinksId: codec(N.getLink, linkAnswer),
    patchLinksId: codec(N.updateLink, linkAnswer),
    deleteLinksId: codec(N.deleteLink, { responses: { 204: null } }),
    getLinksIdQr: codec(N.linkQrCode, { responses: { 200: R.linkQrImage }, output: N.qrAnswer }),
    getPayouts: codec(P.listPayouts, { responses: { 200: R.payoutList }, output: (result) => E.paged(result, E.payout) }),
    postPayouts: codec(P.createPayout, {
      body: S.createPayoutBody,
      responses: { 201: R.payoutResponse },
      input: ({ body }) => P.payoutInput(body),
      output: (view) => E.data(E.payout(view)),
    }),
    getPayoutsTaxSummary: codec(P.taxSummary, { responses: { 200: R.taxSummaryCsv }, output: (csv) => csv }),
    getPayoutsDue: codec(P.listDuePayouts, { responses: { 200: R.dueList }, output: (entries) => E.data(entries.map(E.due)) }),
    postPayoutsRuns: codec(P.runPayouts, { responses: { 200: R.payoutRunResponse }, output: (result) => E.data(E.payoutRun(result)) }),
    getPayoutsRequests: codec(P.listPayoutRequests, { responses: { 200: R.payoutRequestList }, output: (result) => E.paged(result, E.payoutRequest) }),
    getPayoutsId: codec(P.getPayout, { responses: { 200: R.payoutResponse }, output: (view) => E.data(E.payout(view)) }),
    postClicks: codec(P.trackClick, {
      responses: { 201: R.clickResponse },
      output: (click) => E.data({ id: click.id, affiliate_id: click.affiliateId, created_at: click.createdAt.toISOString() }),
    }),
    getWebhooksWebhookIdDeliveries: codec(listDeliveries, { responses: { 200: R.deliveryList }, output: (result) => E.paged(result, E.delivery) }),
    getWebhooksWebhookIdDeliveriesDeliveryId: codec(getDelivery, { responses: { 200: R.deliveryResponse }, output: E.deliveryDetail }),
    postWebhooksWebhookIdDeliveriesDeliveryIdRetry: codec(retryDelivery, { responses: { 202: R.deliveryResponse }, output: E.deliveryDetail }),
    getProviderEvents: codec(listProviderEvents, { responses: { 200: R.providerEventList }, output: (result) => E.paged(result, E.providerEvent) }),
    postProviderEventsIdReplay: codec(replayProviderEvent, {
      responses: { 200: R.providerEventReplayResponse },
      output: ({ replayed, message, event }) => E.data({ replayed, message, event: E.providerEvent(event) }),
    }),
    getStats: codec(A.programStats, stats),
    getAffiliatesEmailStats: codec(A.affiliateStats, stats),
    getAnalytics: codec(queryAnalytics, { responses: { 200: analyticsResponse }, fieldNames: ANALYTICS_FIELD_NAMES, output: primaryAnalytics }),
    getAffiliatesEmailBalances: codec(L.affiliateBalances, { responses: { 200: R.balancesResponse }, output: (view) => E.data(E.balances(view)) }),
    getLedgerBalances: codec(L.programBalances, { responses: { 200: R.programBalancesResponse }, output: (view) => E.data(E.programBalances(view)) }),
    getLedger: codec(L.listLedger, {
      responses: { 200: R.ledgerList },
      output: (entries, ctx) => (L.wantsCsv(ctx.accept) ? L.ledgerCsv(entries) : E.data(entries.map(E.ledgerEntry))),
    }),
    getAuditLog: codec(listAuditLog, {
      responses: { 200: R.auditLogList },
      input: ({ query }) => ({ limit: Math.min(query.limit ?? 50, 200), offset: query.offset ?? 0 }),
      output: (result) => E.paged(result, E.auditEntry),
    }),
  },
})
