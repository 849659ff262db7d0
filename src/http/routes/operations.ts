// Every REST operation, once, in the order the route tables and OpenAPI documents list them.
import { affiliateStats, approveAffiliate, createAffiliate, createPortalLink, deleteAffiliate, getAffiliate, listAffiliates, programStats, rejectAffiliate, updateAffiliate } from './affiliates.js'
import { listAuditLog } from './audit-log.js'
import { createConversion, deleteConversion, getConversion, listConversions, updateConversion } from './conversions.js'
import { createCoupon, deleteCoupon, getCoupon, listCoupons, updateCoupon } from './coupons.js'
import { createPayout, getPayout, listPayouts, trackClick } from './payouts.js'
import { listProviderEvents, replayProviderEvent } from './provider-events.js'
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
  listConversions,
  createConversion,
  getConversion,
  updateConversion,
  deleteConversion,
  listReferrals,
  createReferral,
  getReferral,
  updateReferral,
  listCoupons,
  createCoupon,
  getCoupon,
  updateCoupon,
  deleteCoupon,
  listPayouts,
  createPayout,
  getPayout,
  trackClick,
  listDeliveries,
  getDelivery,
  retryDelivery,
  listProviderEvents,
  replayProviderEvent,
  programStats,
  affiliateStats,
  listAuditLog,
] as const
