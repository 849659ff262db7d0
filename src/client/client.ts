// createClient: a typed client for the primary shape of /api/v1, on ofetch. Errors are thrown as
// ApiError (status, message, field); 429 answers are retried after their Retry-After.
import { ofetch, type FetchResponse } from 'ofetch'
import type * as T from './types.js'

export interface ClientOptions {
  /** Base URL ending in /api/v1, e.g. http://127.0.0.1:8787/api/v1 */
  baseURL: string
  apiKey: string
  /** How many times a 429 is retried after waiting Retry-After. @default 2 */
  rateLimitRetries?: number
  /** Longest wait for one Retry-After, in seconds. @default 60 */
  maxRetryAfterSeconds?: number
  /** A fetch implementation. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch
}

export interface RequestOptions {
  /** Sent as the Idempotency-Key header on POST. */
  idempotencyKey?: string
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The error body as received. */
    readonly body: unknown,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

type Query = Record<string, string | number | boolean | undefined>
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export function createClient(options: ClientOptions) {
  const retries = options.rateLimitRetries ?? 2
  const maxWait = options.maxRetryAfterSeconds ?? 60
  const base = options.baseURL.replace(/\/+$/, '')

  async function call<R>(method: Method, path: string, body?: unknown, query?: Query, request: RequestOptions = {}): Promise<R> {
    for (let attempt = 0; ; attempt += 1) {
      const response: FetchResponse<unknown> = await ofetch.raw(`${base}${path}`, {
        method,
        ...(body === undefined ? {} : { body: body as Record<string, unknown> }),
        query: query && Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)),
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
        },
        retry: 0,
        ignoreResponseError: true,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      })
      if (response.status === 429 && attempt < retries) {
        const seconds = Math.min(Number(response.headers.get('retry-after')) || 1, maxWait)
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
        continue
      }
      if (response.status >= 400) throw new ApiError(response.status, errorMessage(response._data, response.status), response._data)
      return (response.status === 204 ? undefined : response._data) as R
    }
  }

  const enc = encodeURIComponent
  return {
    affiliates: {
      list: (query: T.ListQuery & { status?: 'active' | 'inactive' } = {}) => call<T.ListResponse<T.ApiAffiliate>>('GET', '/affiliates', undefined, { ...query }),
      create: (body: T.CreateAffiliateBody, request?: RequestOptions) => call<T.ItemResponse<T.ApiAffiliate>>('POST', '/affiliates', body, undefined, request),
      get: (email: string) => call<T.ItemResponse<T.ApiAffiliate>>('GET', `/affiliates/${enc(email)}`),
      update: (email: string, body: T.UpdateAffiliateBody) => call<T.ItemResponse<T.ApiAffiliate>>('PUT', `/affiliates/${enc(email)}`, body),
      delete: (email: string) => call<void>('DELETE', `/affiliates/${enc(email)}`),
    },
    conversions: {
      list: (
        query: T.ListQuery & { type?: 'signup' | 'purchase'; affiliate_id?: number; referred_user_id?: number; paid?: boolean; from?: string; to?: string } = {},
      ) => call<T.ListResponse<T.ApiConversion>>('GET', '/conversions', undefined, { ...query }),
      create: (body: T.CreateConversionBody, request?: RequestOptions) => call<T.ConversionCreated>('POST', '/conversions', body, undefined, request),
      get: (id: number) => call<T.ItemResponse<T.ApiConversion>>('GET', `/conversions/${id}`),
      update: (id: number, body: T.UpdateConversionBody) => call<T.ItemResponse<T.ApiConversion>>('PUT', `/conversions/${id}`, body),
      delete: (id: number) => call<void>('DELETE', `/conversions/${id}`),
    },
    referrals: {
      list: (query: T.ListQuery & { affiliate_id?: number; status?: T.ApiReferral['conversion_status'] } = {}) =>
        call<T.ListResponse<T.ApiReferral>>('GET', '/referrals', undefined, { ...query }),
      create: (body: T.CreateReferralBody, request?: RequestOptions) => call<T.ItemResponse<T.ApiReferral>>('POST', '/referrals', body, undefined, request),
      get: (email: string) => call<T.ItemResponse<T.ApiReferral>>('GET', `/referrals/${enc(email)}`),
      update: (email: string, body: T.UpdateReferralBody) => call<T.ItemResponse<T.ApiReferral>>('PUT', `/referrals/${enc(email)}`, body),
    },
    coupons: {
      list: (query: T.ListQuery & { affiliate_id?: number; coupon_code?: string; status?: T.ApiCoupon['status'] } = {}) => call<T.ListResponse<T.ApiCoupon>>('GET', '/coupons', undefined, { ...query }),
      create: (body: T.CreateCouponBody, request?: RequestOptions) => call<T.ItemResponse<T.ApiCoupon>>('POST', '/coupons', body, undefined, request),
      get: (id: number) => call<T.ItemResponse<T.ApiCoupon>>('GET', `/coupons/${id}`),
      update: (id: number, body: T.UpdateCouponBody) => call<T.ItemResponse<T.ApiCoupon>>('PUT', `/coupons/${id}`, body),
      delete: (id: number) => call<void>('DELETE', `/coupons/${id}`),
    },
    providerEvents: {
      /** Payment-provider events received, newest first, with what each did. */
      list: (query: T.ListProviderEventsQuery = {}) => call<T.ListResponse<T.ApiProviderEvent>>('GET', '/provider-events', undefined, { ...query }),
    },
    payouts: {
      list: (query: T.ListQuery & { affiliate_id?: number } = {}) => call<T.ListResponse<T.ApiPayout>>('GET', '/payouts', undefined, { ...query }),
      create: (body: T.CreatePayoutBody, request?: RequestOptions) => call<T.ItemResponse<T.ApiPayout>>('POST', '/payouts', body, undefined, request),
      get: (id: number) => call<T.ItemResponse<T.ApiPayout>>('GET', `/payouts/${id}`),
    },
    clicks: {
      create: (body: T.CreateClickBody, request?: RequestOptions) => call<T.ItemResponse<T.ApiClick>>('POST', '/clicks', body, undefined, request),
    },
    webhooks: {
      deliveries: (webhookId: number, query: T.ListQuery & { status?: T.ApiDeliveryStatus; event_type?: string } = {}) =>
        call<T.ListResponse<T.ApiDelivery>>('GET', `/webhooks/${webhookId}/deliveries`, undefined, { ...query }),
      delivery: (webhookId: number, deliveryId: number) => call<T.ItemResponse<T.ApiDeliveryDetail>>('GET', `/webhooks/${webhookId}/deliveries/${deliveryId}`),
      /** Makes the delivery due now (202); the running dispatcher sends it on its next pass. */
      retry: (webhookId: number, deliveryId: number, request?: RequestOptions) =>
        call<T.ItemResponse<T.ApiDeliveryDetail>>('POST', `/webhooks/${webhookId}/deliveries/${deliveryId}/retry`, undefined, undefined, request),
    },
  }
}

export type Client = ReturnType<typeof createClient>

function errorMessage(body: unknown, status: number): string {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: unknown }).error
    if (typeof error === 'string') return error
    if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message)
  }
  return `request failed with status ${status}`
}
