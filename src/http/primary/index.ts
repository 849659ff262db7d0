// The primary shape's route table (docs/api.md): every route under the base path, once.
import { affiliateRoutes } from './affiliates.js'
import { conversionRoutes } from './conversions.js'
import { couponRoutes } from './coupons.js'
import { payoutRoutes } from './payouts.js'
import { referralRoutes } from './referrals.js'
import { primaryAuditLogRoutes } from '../audit-log.js'
import { primaryProviderEventRoutes } from '../provider-events.js'
import { primaryStatsRoutes } from '../stats.js'
import { webhookDeliveryRoutes } from './webhook-deliveries.js'

export const primaryRoutes = [...affiliateRoutes, ...conversionRoutes, ...referralRoutes, ...couponRoutes, ...payoutRoutes, ...webhookDeliveryRoutes, ...primaryProviderEventRoutes, ...primaryStatsRoutes, ...primaryAuditLogRoutes] as const
export type PrimaryRoute = (typeof primaryRoutes)[number]
