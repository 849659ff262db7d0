// Coupons: codes assigned to affiliates, used for attribution when a conversion names an active one.
import { listWindow, withConflicts } from '../ports/conflicts.js'
import { requireAffiliate } from './affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { NotFoundError } from '../model/errors.js'
import {
  createCouponInput,
  listCouponsInput,
  updateCouponInput,
  validate,
  type CreateCouponInput,
  type ListCouponsInput,
  type UpdateCouponInput,
} from '../model/schemas.js'
import type { StorageTx } from '../ports/storage.js'
import type { Coupon } from '../model/types.js'
import { couponView, type CouponView } from '../rules/views.js'

export function couponsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  async function find(tx: StorageTx, id: number): Promise<Coupon> {
    const coupon = await tx.coupons.get(projectId, id)
    if (!coupon) throw new NotFoundError('coupon not found', 'id')
    return coupon
  }

  async function view(tx: StorageTx, coupon: Coupon): Promise<CouponView> {
    return couponView(coupon, await tx.affiliates.get(projectId, coupon.affiliateId))
  }

  return {
    async create(input: CreateCouponInput): Promise<CouponView> {
      const data = validate(createCouponInput, input)
      return withConflicts(() =>
        storage.transaction(async (tx) => {
          const affiliate = await requireAffiliate(tx, projectId, data.affiliateId)
          const coupon = await tx.coupons.insert({
            projectId,
            affiliateId: affiliate.id,
            code: data.code,
            status: data.status ?? 'active',
            processorCouponId: data.processorCouponId ?? null,
            discountType: data.discountType ?? null,
            discountValue: data.discountValue ?? null,
            createdAt: ctx.clock.now(),
          })
          return couponView(coupon, affiliate)
        }),
      )
    },

    async get(id: number): Promise<CouponView> {
      return storage.transaction(async (tx) => view(tx, await find(tx, id)))
    },

    async update(id: number, input: UpdateCouponInput): Promise<CouponView> {
      const data = validate(updateCouponInput, input)
      return withConflicts(() =>
        storage.transaction(async (tx) => {
          await find(tx, id)
          if (data.affiliateId !== undefined) await requireAffiliate(tx, projectId, data.affiliateId)
          return view(tx, (await tx.coupons.update(projectId, id, data))!)
        }),
      )
    },

    async delete(id: number): Promise<void> {
      await storage.transaction(async (tx) => {
        await find(tx, id)
        await tx.coupons.delete(projectId, id)
      })
    },

    async list(input: ListCouponsInput = {}): Promise<{ items: CouponView[]; total: number; limit: number; offset: number }> {
      const data = validate(listCouponsInput, input)
      const window = listWindow(data, 20, 100)
      const { limit: _limit, offset: _offset, ...filters } = data
      return storage.transaction(async (tx) => {
        const page = await tx.coupons.list(projectId, { ...filters, ...window })
        const items: CouponView[] = []
        for (const coupon of page.items) items.push(await view(tx, coupon))
        return { items, total: page.total, ...window }
      })
    },
  }
}
