// An affiliate's own promotion code (docs/incentives.md "Promotion codes"): created at Stripe
// through the program's PromotionCodeIssuer, then recorded as the affiliate's coupon whose
// processor id is the promotion code's id, so a sale naming it credits the affiliate with no
// link and no cookie (src/core/provider-events/coupon-match.ts). The code is checked free first:
// a refusal costs no call to Stripe. Its Idempotency-Key is the project's and the code's, so a
// request retried after Stripe created the code (a timeout, a crash) gets the same one back.
import { ConflictError, ValidationError } from '../model/errors.js'
import { createPromotionCodeInput, validate, type CreatePromotionCodeInput } from '../model/schemas.js'
import type { PromotionCodeIssuer } from '../ports/promotion-codes.js'
import type { ProjectContext } from '../rules/context.js'
import { customerIncentiveFor } from '../rules/incentives.js'
import type { CouponView } from '../rules/views.js'
import type { couponsService } from './coupons.js'
import { findAffiliate, type AffiliateRef } from './affiliates.js'

export function promotionCodesService(ctx: ProjectContext, issuer: PromotionCodeIssuer | null, coupons: Pick<ReturnType<typeof couponsService>, 'create'>) {
  const { storage, projectId } = ctx

  return {
    /** Creates `code` at Stripe for the affiliate's customers and records it as its coupon (201 CouponView). */
    async create(ref: AffiliateRef, input: CreatePromotionCodeInput): Promise<CouponView> {
      const data = validate(createPromotionCodeInput, input)
      const project = await ctx.project()
      const affiliate = await storage.transaction((tx) => findAffiliate(tx, projectId, ref))
      if (affiliate.status !== 'active') throw new ConflictError(`the affiliate is ${affiliate.status}: only an active affiliate gets a promotion code`, 'email')
      const coupon = data.coupon ?? customerIncentiveFor(project.settings, affiliate)?.incentive.stripe?.couponId
      if (coupon === undefined) {
        throw new ValidationError('coupon', (name) => `${name('coupon')}: is required when no incentive of the affiliate names a Stripe coupon (incentives.customer.stripe.couponId)`)
      }
      if (!issuer) throw new ConflictError("promotion codes are created at Stripe: the program needs Stripe's secret key (providers.stripe.secretKey on the standalone server)")
      const taken = await storage.transaction((tx) => tx.coupons.first(projectId, { code: data.code }))
      if (taken) throw new ConflictError(`the coupon code ${data.code} is taken`, 'code')
      const created = await issuer.create({
        code: data.code,
        coupon,
        metadata: { affiliate_kit_project: projectId, affiliate_id: String(affiliate.id), referral_code: affiliate.referralCode },
        idempotencyKey: `affiliate-kit-promotion-code-${projectId}-${data.code.toLowerCase()}`,
      })
      return coupons.create({ affiliateId: affiliate.id, code: created.code, processorCouponId: created.id })
    },
  }
}
