// Wire types of the primary shape (docs/api.md), derived from the primary route table: request
// bodies and queries from the very schemas the server validates them with, answers from the
// schemas of its responses. Nothing here restates a field by hand.
import type * as v from 'valibot'
import type { primaryRoutes } from '../http/routes/index.js'
import type * as R from '../http/shapes/primary-records.js'
import type { RouteKey } from '../http/route.js'

type PrimaryRoute = (typeof primaryRoutes)[number]

/** `GET /affiliates/:email`: a route of the primary table. */
export type PrimaryRouteKey = RouteKey<PrimaryRoute>

type RouteOf<K extends PrimaryRouteKey, Route = PrimaryRoute> = Route extends PrimaryRoute ? (RouteKey<Route> extends K ? Route : never) : never
type InputOf<S> = S extends v.GenericSchema ? v.InferInput<S> : never
/** Query values as a client passes them: numbers and booleans as such, dates as ISO 8601 text. */
type QueryValue<T> = T extends Date ? string : T
type QueryOf<S> = S extends v.GenericSchema ? { [F in keyof v.InferOutput<S>]?: QueryValue<Exclude<v.InferOutput<S>[F], undefined>> } : never
type ReplyOf<Responses> = { [S in keyof Responses]: Responses[S] extends { schema: infer Schema extends v.GenericSchema } ? v.InferOutput<Schema> : undefined }[keyof Responses]

/** The body a route accepts. */
export type RouteBody<K extends PrimaryRouteKey> = InputOf<NonNullable<RouteOf<K>['body']>>
/** The query string a route accepts. */
export type RouteQuery<K extends PrimaryRouteKey> = QueryOf<NonNullable<RouteOf<K>['query']>>
/** What a route answers on success (undefined for 204). */
export type RouteReply<K extends PrimaryRouteKey> = ReplyOf<RouteOf<K>['responses']>

export type Pagination = v.InferOutput<typeof R.pagination>
export type ApiAffiliate = v.InferOutput<typeof R.affiliateRecord>
/** The create answer: earnings null, no stats yet. */
export type ApiAffiliateCreated = v.InferOutput<typeof R.affiliateCreatedRecord>
export type ApiConversion = v.InferOutput<typeof R.conversionRecord>
export type ApiAttribution = v.InferOutput<typeof R.attribution>
export type ConversionCreated = v.InferOutput<typeof R.conversionCreated>
export type ApiReferral = v.InferOutput<typeof R.referralRecord>
export type ApiCoupon = v.InferOutput<typeof R.couponRecord>
export type ApiLink = v.InferOutput<typeof R.linkRecord>
export type ApiPayout = v.InferOutput<typeof R.payoutRecord>
export type ApiClick = v.InferOutput<typeof R.clickRecord>
export type ApiDelivery = v.InferOutput<typeof R.deliveryRecord>
export type ApiDeliveryStatus = ApiDelivery['status']
export type ApiDeliveryAttempt = v.InferOutput<typeof R.deliveryAttemptRecord>
export type ApiDeliveryDetail = v.InferOutput<typeof R.deliveryDetailRecord>
/** A received payment-provider event and what it did (GET /provider-events). */
export type ApiProviderEvent = v.InferOutput<typeof R.providerEventRecord>
export type ListResponse<T> = { success: true; data: T[]; pagination: Pagination }
export type ItemResponse<T> = { success: true; data: T }

export type CreateAffiliateBody = RouteBody<'POST /affiliates'>
export type UpdateAffiliateBody = RouteBody<'PUT /affiliates/:email'>
export type RejectAffiliateBody = RouteBody<'POST /affiliates/:email/reject'>
export type CreatePromotionCodeBody = RouteBody<'POST /affiliates/:email/promotion-codes'>
export type CreateConversionBody = RouteBody<'POST /conversions'>
export type UpdateConversionBody = RouteBody<'PUT /conversions/:id'>
export type CreateReferralBody = RouteBody<'POST /referrals'>
export type UpdateReferralBody = RouteBody<'PUT /referrals/:email'>
export type CreateCouponBody = RouteBody<'POST /coupons'>
export type UpdateCouponBody = RouteBody<'PUT /coupons/:id'>
export type CreateLinkBody = RouteBody<'POST /links'>
export type UpdateLinkBody = RouteBody<'PATCH /links/:id'>
/** The processor's coupon id under any one of its names (two names with different values are 400). */
export type ProcessorCouponIdFields = Pick<CreateCouponBody, 'processor_coupon_id' | 'stripe_coupon_id' | 'lemonsqueezy_discount_code'>
export type CreatePayoutBody = RouteBody<'POST /payouts'>
export type PayoutRunBody = RouteBody<'POST /payouts/runs'>
export type CreateClickBody = RouteBody<'POST /clicks'>
export type CreateEmbedTokenBody = RouteBody<'POST /embed-tokens'>
export type ListQuery = Pick<RouteQuery<'GET /payouts'>, 'limit' | 'offset'>
export type ListProviderEventsQuery = RouteQuery<'GET /provider-events'>
