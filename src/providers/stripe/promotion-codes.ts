// stripePromotionCodes({ secretKey }): the program's PromotionCodeIssuer over Stripe's API
// (docs/incentives.md "Promotion codes"): POST /v1/promotion_codes, form-encoded as Stripe
// documents it, pinned to API version 2025-09-30.clover, where a code names its coupon as
// `promotion[type]=coupon&promotion[coupon]=<id>` (earlier versions took `coupon=<id>`): the
// request means the same whatever the account's default version. The secret key goes to the
// configured origin only (no redirect followed), the answer is capped at 1 MiB and waited for
// at most `timeoutMs`; the key is never logged nor put in an error.
import { BusyError, ConflictError, ValidationError } from '../../core/model/errors.js'
import type { CreatedPromotionCode, PromotionCodeIssuer, PromotionCodeRequest } from '../../core/ports/promotion-codes.js'
import { isRecord, text } from '../mapping.js'
import { postForm } from '../api-fetch.js'

/** The API version the request is written for: the first with `promotion[coupon]`. */
export const STRIPE_PROMOTION_CODES_VERSION = '2025-09-30.clover'

export interface StripePromotionCodesOptions {
  /** A secret or restricted key (sk_..., rk_...) allowed to write promotion codes. */
  secretKey: string
  /** Stripe's API origin, or a proxy's. @default 'https://api.stripe.com' */
  apiBase?: string
  /** @default 10000 */
  timeoutMs?: number
}

export function stripePromotionCodes(options: StripePromotionCodesOptions): PromotionCodeIssuer {
  const base = new URL(options.apiBase ?? 'https://api.stripe.com')
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new TypeError('apiBase must be an http(s) URL')
  return {
    provider: 'Stripe',
    async create(request: PromotionCodeRequest): Promise<CreatedPromotionCode> {
      const form = new URLSearchParams({ code: request.code, 'promotion[type]': 'coupon', 'promotion[coupon]': request.coupon })
      for (const [name, value] of Object.entries(request.metadata)) form.set(`metadata[${name}]`, value)
      const answer = await postForm({
        provider: 'Stripe',
        url: new URL('/v1/promotion_codes', base),
        headers: { Authorization: `Bearer ${options.secretKey}`, 'Stripe-Version': STRIPE_PROMOTION_CODES_VERSION },
        form,
        idempotencyKey: request.idempotencyKey,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      })
      const body = isRecord(answer.body) ? answer.body : {}
      if (answer.status >= 200 && answer.status < 300) {
        const id = text(body.id)
        const code = text(body.code)
        if (id === null || !/^promo_[A-Za-z0-9]{1,200}$/.test(id)) throw new BusyError("Stripe's answer names no promotion code id", 60)
        return { id, code: code ?? request.code }
      }
      throw refusal(answer.status, isRecord(body.error) ? body.error : {})
    },
  }
}

/** Stripe's error as the core's: what the caller may change (a 4xx), else Stripe unavailable (503). */
function refusal(status: number, error: Record<string, unknown>): Error {
  const message = (text(error.message) ?? `HTTP ${status}`).slice(0, 300)
  const param = text(error.param)
  if (status === 401 || status === 403) return new ConflictError(`Stripe refused the secret key (${status}): check providers.stripe.secretKey`)
  if (status === 429 || status >= 500) return new BusyError(`Stripe could not create the promotion code now (${status}): ${message}`, 60)
  // An idempotent request still running, or a code already in use: the request conflicts with what is there.
  if (status === 409 || error.code === 'resource_already_exists' || /already exists/i.test(message)) return new ConflictError(`Stripe: ${message}`, 'code')
  const field = param === 'promotion[coupon]' || param === 'coupon' || error.code === 'resource_missing' ? 'coupon' : 'code'
  return new ValidationError(field, (name) => `${name(field)}: Stripe refused it: ${message}`)
}
