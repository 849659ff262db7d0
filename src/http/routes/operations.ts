// Every REST operation, once, in the order the route tables and OpenAPI documents list them.
import { affiliateStats, approveAffiliate, createAffiliate, createPortalLink, deleteAffiliate, getAffiliate, listAffiliates, programStats, rejectAffiliate, updateAffiliate } from './affiliates.js'
import { listAuditLog } from './audit-log.js'
import { queryAnalytics } from './analytics.js'
import { createEmbedToken } from './embed-tokens.js'
import { affiliateBalances, listLedger, programBalances } from './ledger.js'
import { createLink, deleteLink, getLink, linkQrCode, listLinks, updateLink } from './links.js'
import { createConversion, deleteConversion, getConversion, listConversions, previewConversion, updateConversion } from './conversions.js'
import { createCoupon, createPromotionCode, deleteCoupon, getCoupon, listCoupons, updateCoupon } from './coupons.js'
import { createPayout, getPayout, listDuePayouts, listPayoutRequests, listPayouts, runPayouts, taxSummary, trackClick } from './payouts.js'
import { listProviderEvents, replayProviderEvent } from './provider-events.js'
import { eraseAffiliate, eraseReferral, exportAffiliate, exportReferral } from './personal-data.js'
import { createReferral, getReferral, listReferrals, updateReferral } from './referrals.js'
import { getDelivery, listDeliveries, retryDelivery } from './webhook-deliveries.js'

export const OPERATION_LIST = [
  listAffiliates,
  createAffiliate,
  getAffiliate,
  updateAffiliate,
  deleteAffiliate,
  approveAffiliate,
  rejectAffiliate,
  createPortalLink,
  createEmbedToken,
  exportAffiliate,
  eraseAffiliate,
  listConversions,
  createConversion,
  previewConversion,
  getConversion,
  updateConversion,
  deleteConversion,
  listReferrals,
  createReferral,
  getReferral,
  updateReferral,
  exportReferral,
  eraseReferral,
  listCoupons,
  createCoupon,
  getCoupon,
  updateCoupon,
  deleteCoupon,
  createPromotionCode,
  listLinks,
  createLink,
  getLink,
  updateLink,
  deleteLink,
  linkQrCode,
  listPayouts,
  createPayout,
  taxSummary,
  listDuePayouts,
  runPayouts,
  listPayoutRequests,
  getPayout,
  trackClick,
  listDeliveries,
  getDelivery,
  retryDelivery,
  listProviderEvents,
  replayProviderEvent,
  programStats,
  affiliateStats,
  queryAnalytics,
  affiliateBalances,
  listLedger,
  programBalances,
  listAuditLog,
] as const
