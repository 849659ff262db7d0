// The alternative shape's route table (docs/api.md "The alternative shape"): every route under the
// base path, once.
import { affiliateRoutes } from './affiliates.js'
import { conversionRoutes } from './conversions.js'
import { couponRoutes } from './coupons.js'
import { payoutRoutes } from './payouts.js'
import { referralRoutes } from './referrals.js'
import { alternativeAuditLogRoutes } from '../audit-log.js'
import { alternativeProviderEventRoutes } from '../provider-events.js'
import { alternativeStatsRoutes } from '../stats.js'
import { webhookDeliveryRoutes } from './webhook-deliveries.js'

export const alternativeRoutes = [...affiliateRoutes, ...conversionRoutes, ...referralRoutes, ...couponRoutes, ...payoutRoutes, ...webhookDeliveryRoutes, ...alternativeProviderEventRoutes, ...alternativeStatsRoutes, ...alternativeAuditLogRoutes] as const
