// The checkout side of a referral (docs/incentives.md): what to pass to a provider's checkout so
// the referred customer gets the incentive and the sale is attributed (program.checkout.*), and
// what the page may say about it (the banner's incentive). A referral naming no active affiliate
// (none, unknown, malformed, expired) gives no fields: the checkout goes on, undiscounted, unattributed.
import { chooseLocale } from '../model/i18n/locales.js'
import { ValidationError } from '../model/errors.js'
import { Currency } from '../model/money.js'
import type { Affiliate, CustomerIncentive, Project } from '../model/types.js'
import type { ProjectContext } from '../rules/context.js'
import { customerIncentiveFor, displayNameOf, incentiveText, type IncentiveSource } from '../rules/incentives.js'

/** A referral as the snippet or the cookie carries it: the code, or `<code>.<expiry>[.<visitor>.<signature>]`. */
export const REFERRAL = /^([A-Za-z0-9_-]{3,64})(?:\.(\d{1,12})(?:\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22})?)?$/
/** Stripe promotion code ids and Paddle discount ids: an affiliate's coupon with one is its own discount at that provider. */
const STRIPE_PROMOTION_CODE = /^promo_[A-Za-z0-9]+$/
const PADDLE_DISCOUNT = /^dsc_[A-Za-z0-9]+$/

export interface CheckoutInput {
  /** The referral the browser carries (`getReferral()`, or the referral cookie's value); null or absent: none. */
  referral?: string | null | undefined
}

/** Fields of a Stripe Checkout Session (`stripe.checkout.sessions.create`): spread them into its parameters. */
export interface StripeCheckoutParams {
  client_reference_id?: string
  metadata?: { referral: string }
  /** The incentive's coupon, or the affiliate's own promotion code. Stripe refuses it together with `allow_promotion_codes`. */
  discounts?: Array<{ coupon: string } | { promotion_code: string }>
}

/** Fields of a Paddle transaction (`POST /transactions`; Paddle.js `Checkout.open` takes them as `customData` and `discountId`). */
export interface PaddleCheckoutParams {
  custom_data?: { referral: string }
  discount_id?: string
}

/** Fields of a Lemon Squeezy checkout (`checkout_data` of `POST /v1/checkouts`; in a checkout URL, `checkout[discount_code]` and `checkout[custom][...]`). */
export interface LemonSqueezyCheckoutParams {
  discount_code?: string
  /** `coupon` names the discount code for attribution: Lemon Squeezy's order events do not carry it. */
  custom?: { referral: string; coupon?: string }
}

/** What the page may show a referred visitor: the banner's text and the discount's terms; nothing else of the affiliate. */
export interface IncentiveOffer {
  /** "20% off for 3 months via Ann", in the visitor's language. */
  text: string
  percentOff: number | null
  /** Decimal text in `currency`. */
  amountOff: string | null
  currency: string | null
  duration: 'once' | 'repeating' | 'forever'
  durationInMonths: number | null
  /** The first word of the affiliate's name, unless the project turned it off (`incentives.showAffiliateName: false`); null without one. */
  via: string | null
}

interface Referred {
  affiliate: Affiliate
  project: Project
  incentive: CustomerIncentive | null
  source: IncentiveSource | null
}

export function checkoutService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  /** The active affiliate the referral names, with its incentive; null when it names none. */
  async function referred(input: CheckoutInput | undefined): Promise<Referred | null> {
    const value = input?.referral
    if (value !== undefined && value !== null && typeof value !== 'string') throw new ValidationError('referral', 'referral: must be a string or null')
    const match = value ? REFERRAL.exec(value.trim()) : null
    if (!match) return null
    if (match[2] !== undefined && Number(match[2]) <= Math.floor(ctx.clock.now().getTime() / 1000)) return null
    const project = await ctx.project()
    const affiliate = await storage.transaction((tx) => tx.affiliates.getByCode(projectId, match[1]!))
    if (!affiliate || affiliate.status !== 'active') return null
    const found = customerIncentiveFor(project.settings, affiliate)
    return { affiliate, project, incentive: found?.incentive ?? null, source: found?.source ?? null }
  }

  /** The processor id of the affiliate's active coupon that is its own discount at a provider, if any. */
  async function ownDiscount(affiliate: Affiliate, pattern: RegExp): Promise<string | null> {
    const page = await storage.transaction((tx) => tx.coupons.list(projectId, { affiliateId: affiliate.id, status: 'active', limit: 100, offset: 0 }))
    // Oldest first: the first one made stays the one checkouts apply.
    const own = [...page.items].reverse().find((coupon) => coupon.processorCouponId !== null && pattern.test(coupon.processorCouponId))
    return own?.processorCouponId ?? null
  }

  return {
    async stripeParams(input?: CheckoutInput): Promise<StripeCheckoutParams> {
      const found = await referred(input)
      if (!found) return {}
      const code = found.affiliate.referralCode
      const promotion = await ownDiscount(found.affiliate, STRIPE_PROMOTION_CODE)
      const coupon = found.incentive?.stripe?.couponId
      return {
        client_reference_id: code,
        metadata: { referral: code },
        ...(promotion ? { discounts: [{ promotion_code: promotion }] } : coupon ? { discounts: [{ coupon }] } : {}),
      }
    },

    async paddleParams(input?: CheckoutInput): Promise<PaddleCheckoutParams> {
      const found = await referred(input)
      if (!found) return {}
      const discount = (await ownDiscount(found.affiliate, PADDLE_DISCOUNT)) ?? found.incentive?.paddle?.discountId
      return { custom_data: { referral: found.affiliate.referralCode }, ...(discount ? { discount_id: discount } : {}) }
    },

    async lemonSqueezyParams(input?: CheckoutInput): Promise<LemonSqueezyCheckoutParams> {
      const found = await referred(input)
      if (!found) return {}
      const discount = found.incentive?.lemonSqueezy?.discountCode
      return {
        ...(discount ? { discount_code: discount } : {}),
        custom: { referral: found.affiliate.referralCode, ...(discount ? { coupon: discount } : {}) },
      }
    },

    /**
     * What the referred visitor gets, for a banner; null when the referral names no active
     * affiliate or no incentive applies. `locale` (a language code) or `acceptLanguage` picks the language.
     */
    async incentive(input?: CheckoutInput & { locale?: string | null; acceptLanguage?: string | null }): Promise<IncentiveOffer | null> {
      const found = await referred(input)
      if (!found?.incentive) return null
      const { incentive, project, affiliate } = found
      const locale = chooseLocale(input?.locale, input?.acceptLanguage, null)
      const via = project.settings.incentives?.showAffiliateName === false ? null : displayNameOf(affiliate.name)
      const currency = project.settings.currency
      return {
        text: incentiveText(incentive, { currency, locale, via }),
        percentOff: incentive.percentOff ?? null,
        amountOff: incentive.amountOff !== undefined ? new Currency(currency).parse(incentive.amountOff, 'amountOff').format() : null,
        currency: incentive.amountOff !== undefined ? currency : null,
        duration: incentive.duration ?? 'once',
        durationInMonths: incentive.durationInMonths ?? null,
        via,
      }
    },
  }
}
