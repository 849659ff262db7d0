// createClient: a typed client for the primary shape of /api/v1, on ofetch. Each method calls a
// route of the primary table by its key, typed from that table (types.ts). Errors are thrown as
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

type Params = Record<string, string | number>

/** A route's path with its :params filled in, URL-encoded. */
function fillPath(template: string, params: Params): string {
  return template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])))
}

export function createClient(options: ClientOptions) {
  const retries = options.rateLimitRetries ?? 2
  const maxWait = options.maxRetryAfterSeconds ?? 60
  const base = options.baseURL.replace(/\/+$/, '')
  // ofetch reads `fetch` from its instance, not from a request's options.
  const $fetch = options.fetch ? ofetch.create({}, { fetch: options.fetch }) : ofetch

  /** Sends a request to the route `key`, waiting out 429s; an error answer is thrown as ApiError. */
  async function send(
    key: string,
    input: { params?: Params; query?: Record<string, unknown> | undefined; body?: unknown },
    request: RequestOptions,
    responseType?: 'text' | 'arrayBuffer',
  ): Promise<FetchResponse<unknown>> {
    const [method, template] = key.split(' ') as [string, string]
    const query = input.query
    for (let attempt = 0; ; attempt += 1) {
      const response: FetchResponse<unknown> = await $fetch.raw(`${base}${fillPath(template, input.params ?? {})}`, {
        method,
        ...(input.body === undefined ? {} : { body: input.body as Record<string, unknown> }),
        query: query && Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)),
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
        },
        ...(responseType ? { responseType } : {}),
        retry: 0,
        ignoreResponseError: true,
      })
      if (response.status === 429 && attempt < retries) {
        const seconds = Math.min(Number(response.headers.get('retry-after')) || 1, maxWait)
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
        continue
      }
      if (response.status >= 400) {
        // An error answer is JSON even where the success is an image.
        const body = responseType === undefined ? response._data : parseError(response._data)
        throw new ApiError(response.status, errorMessage(body, response.status), body)
      }
      return response
    }
  }

  /** Calls the route `key` of the primary table: its body, query and answer are typed from it. */
  async function call<K extends T.PrimaryRouteKey>(
    key: K,
    input: { params?: Params; query?: T.RouteQuery<K>; body?: T.RouteBody<K> } = {},
    request: RequestOptions = {},
  ): Promise<T.RouteReply<K>> {
    const response = await send(key, { ...input, query: input.query as Record<string, unknown> | undefined }, request)
    return (response.status === 204 ? undefined : response._data) as T.RouteReply<K>
  }

  /** A link's QR code (docs/links.md "QR codes"): the SVG's text, or the PNG's bytes. */
  async function qr(id: number, query?: { format?: 'svg'; size?: number }): Promise<string>
  async function qr(id: number, query: { format: 'png'; size?: number }): Promise<Uint8Array>
  async function qr(id: number, query: T.RouteQuery<'GET /links/:id/qr'> = {}): Promise<string | Uint8Array> {
    const png = query.format === 'png'
    const response = await send('GET /links/:id/qr', { params: { id }, query }, {}, png ? 'arrayBuffer' : 'text')
    return png ? new Uint8Array(response._data as ArrayBuffer) : (response._data as string)
  }

  return {
    affiliates: {
      list: (query: T.RouteQuery<'GET /affiliates'> = {}) => call('GET /affiliates', { query }),
      create: (body: T.CreateAffiliateBody, request?: RequestOptions) => call('POST /affiliates', { body }, request),
      get: (email: string) => call('GET /affiliates/:email', { params: { email } }),
      update: (email: string, body: T.UpdateAffiliateBody) => call('PUT /affiliates/:email', { params: { email }, body }),
      delete: (email: string) => call('DELETE /affiliates/:email', { params: { email } }),
      /** A one-time sign-in link to the affiliate portal (the server's portal needs a public URL). */
      portalLink: (email: string) => call('POST /affiliates/:email/portal-link', { params: { email } }),
      /** Approves a pending affiliate's application (docs/onboarding.md). */
      approve: (email: string) => call('POST /affiliates/:email/approve', { params: { email } }),
      /** Rejects a pending affiliate's application, with an optional reason. */
      reject: (email: string, body: T.RejectAffiliateBody = {}) => call('POST /affiliates/:email/reject', { params: { email }, body }),
      /** Creates the affiliate's own promotion code at Stripe and records it as its coupon (docs/incentives.md). */
      createPromotionCode: (email: string, body: T.CreatePromotionCodeBody) => call('POST /affiliates/:email/promotion-codes', { params: { email }, body }),
    },
    conversions: {
      list: (query: T.RouteQuery<'GET /conversions'> = {}) => call('GET /conversions', { query }),
      create: (body: T.CreateConversionBody, request?: RequestOptions) => call('POST /conversions', { body }, request),
      /** What create would create, writing nothing. */
      preview: (body: T.CreateConversionBody) => call('POST /conversions/preview', { body }),
      get: (id: number) => call('GET /conversions/:id', { params: { id } }),
      update: (id: number, body: T.UpdateConversionBody) => call('PUT /conversions/:id', { params: { id }, body }),
      delete: (id: number) => call('DELETE /conversions/:id', { params: { id } }),
    },
    referrals: {
      list: (query: T.RouteQuery<'GET /referrals'> = {}) => call('GET /referrals', { query }),
      create: (body: T.CreateReferralBody, request?: RequestOptions) => call('POST /referrals', { body }, request),
      get: (email: string) => call('GET /referrals/:email', { params: { email } }),
      update: (email: string, body: T.UpdateReferralBody) => call('PUT /referrals/:email', { params: { email }, body }),
    },
    coupons: {
      list: (query: T.RouteQuery<'GET /coupons'> = {}) => call('GET /coupons', { query }),
      create: (body: T.CreateCouponBody, request?: RequestOptions) => call('POST /coupons', { body }, request),
      get: (id: number) => call('GET /coupons/:id', { params: { id } }),
      update: (id: number, body: T.UpdateCouponBody) => call('PUT /coupons/:id', { params: { id }, body }),
      delete: (id: number) => call('DELETE /coupons/:id', { params: { id } }),
    },
    links: {
      /** Links newest first: all of them, or one affiliate's (`affiliate`: its email, or `affiliate_id`). */
      list: (query: T.RouteQuery<'GET /links'> = {}) => call('GET /links', { query }),
      create: (body: T.CreateLinkBody, request?: RequestOptions) => call('POST /links', { body }, request),
      get: (id: number) => call('GET /links/:id', { params: { id } }),
      /** Changes the fields given; null clears one. */
      update: (id: number, body: T.UpdateLinkBody) => call('PATCH /links/:id', { params: { id }, body }),
      delete: (id: number) => call('DELETE /links/:id', { params: { id } }),
      qr,
    },
    providerEvents: {
      /** Payment-provider events received, newest first, with what each did. */
      list: (query: T.RouteQuery<'GET /provider-events'> = {}) => call('GET /provider-events', { query }),
      /** Applies a waiting or ignored event again; an applied one is not applied again (`replayed: false`). */
      replay: (id: number, request?: RequestOptions) => call('POST /provider-events/:id/replay', { params: { id } }, request),
    },
    payouts: {
      list: (query: T.RouteQuery<'GET /payouts'> = {}) => call('GET /payouts', { query }),
      create: (body: T.CreatePayoutBody, request?: RequestOptions) => call('POST /payouts', { body }, request),
      get: (id: number) => call('GET /payouts/:id', { params: { id } }),
      /** Pays every due affiliate through PayPal Payouts or Stripe Connect, once per month; `{ dry_run: true }` answers the batch only. */
      run: (body: T.PayoutRunBody = {}, request?: RequestOptions) => call('POST /payouts/runs', { body }, request),
    },
    embedTokens: {
      /** A token that opens the affiliate's embedded dashboard, enrolling it when there is none with the email (docs/embed.md). */
      create: (body: T.CreateEmbedTokenBody) => call('POST /embed-tokens', { body }),
    },
    clicks: {
      create: (body: T.CreateClickBody, request?: RequestOptions) => call('POST /clicks', { body }, request),
    },
    analytics: {
      /** Clicks, visitors, bot clicks, signups, conversions, revenue and commission, grouped and bucketed as asked (docs/analytics.md). */
      query: (query: T.RouteQuery<'GET /analytics'> = {}) => call('GET /analytics', { query }),
    },
    webhooks: {
      deliveries: (webhookId: number, query: T.RouteQuery<'GET /webhooks/:webhookId/deliveries'> = {}) =>
        call('GET /webhooks/:webhookId/deliveries', { params: { webhookId }, query }),
      delivery: (webhookId: number, deliveryId: number) => call('GET /webhooks/:webhookId/deliveries/:deliveryId', { params: { webhookId, deliveryId } }),
      /** Makes the delivery due now (202); the running dispatcher sends it on its next pass. */
      retry: (webhookId: number, deliveryId: number, request?: RequestOptions) =>
        call('POST /webhooks/:webhookId/deliveries/:deliveryId/retry', { params: { webhookId, deliveryId } }, request),
    },
    /** Any route of the primary table by its key (`'GET /affiliates/:email'`), typed from the table. */
    call,
  }
}

export type Client = ReturnType<typeof createClient>

/** An error answer read as text or bytes (a route answering an image), as the JSON it is. */
function parseError(data: unknown): unknown {
  try {
    return JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer))
  } catch {
    return data
  }
}

function errorMessage(body: unknown, status: number): string {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: unknown }).error
    if (typeof error === 'string') return error
    if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message)
  }
  return `request failed with status ${status}`
}
