// Referred users: create (firing referral_signed_up when an affiliate referred them), read,
// update (re-link, disassociate, status), list. Keeps the affiliates' `signups` stat.
import { listWindow, withConflicts } from '../ports/conflicts.js'
import { requireAffiliate } from './affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { countDay } from '../rules/daily-counts.js'
import { BusyError, NotFoundError, ValidationError } from '../model/errors.js'
import { referralSignedUp } from '../ports/events.js'
import {
  createReferralInput,
  email as emailSchema,
  listReferralsInput,
  updateReferralInput,
  validate,
  type CreateReferralInput,
  type ListReferralsInput,
  type UpdateReferralInput,
} from '../model/schemas.js'
import { lockAffiliates } from '../ports/row-locks.js'
import type { StorageTx } from '../ports/storage.js'
import type { Affiliate, Referral } from '../model/types.js'
import { referralView, type ReferralView } from '../rules/views.js'

/** A referred user named by id (number) or email (string). */
export type ReferralRef = number | string

export async function findReferral(tx: StorageTx, projectId: string, ref: ReferralRef): Promise<Referral> {
  const referral =
    typeof ref === 'number'
      ? await tx.referrals.get(projectId, ref)
      : await tx.referrals.first(projectId, { email: validate(emailSchema, ref, 'email') })
  if (!referral) throw new NotFoundError('referred user not found')
  return referral
}

/**
 * The referred user read under its lock, after the locks of the affiliate it is on and of
 * `target` (the one it moves to), in the lock order (row-locks.ts): its affiliate is then current,
 * so concurrent moves each take its signup from the affiliate it really left.
 */
async function lockedReferral(tx: StorageTx, projectId: string, ref: ReferralRef, target: number | null): Promise<Referral> {
  for (let attempt = 1; ; attempt += 1) {
    const read = await findReferral(tx, projectId, ref)
    await lockAffiliates(tx, projectId, [read.affiliateId, target])
    const referral = await tx.referrals.lockForUpdate(projectId, read.id)
    if (!referral) throw new NotFoundError('referred user not found')
    if (referral.affiliateId === read.affiliateId) return referral
    if (attempt >= 3) throw new BusyError('the referred user kept moving between affiliates during this request; nothing was stored, send it again')
  }
}

/** Builds views, reading each distinct affiliate once. */
export async function referralViews(tx: StorageTx, projectId: string, referrals: Referral[]): Promise<ReferralView[]> {
  const affiliates = new Map<number, Affiliate | null>()
  for (const referral of referrals) {
    if (referral.affiliateId !== null && !affiliates.has(referral.affiliateId)) {
      affiliates.set(referral.affiliateId, await tx.affiliates.get(projectId, referral.affiliateId))
    }
  }
  return referrals.map((referral) =>
    referralView(referral, referral.affiliateId === null ? null : (affiliates.get(referral.affiliateId) ?? null)),
  )
}

export function referralsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  return {
    async create(input: CreateReferralInput): Promise<ReferralView> {
      const data = validate(createReferralInput, input)
      if (data.affiliateId != null && data.referralCode !== undefined) {
        throw new ValidationError('affiliateId', (name) => `send ${name('affiliateId')} or ${name('referralCode')}, not both`)
      }
      return withConflicts(() =>
        storage.transaction(async (tx) => {
          let affiliate: Affiliate | null = null
          if (data.affiliateId != null) affiliate = await requireAffiliate(tx, projectId, data.affiliateId)
          if (data.referralCode !== undefined) {
            affiliate = await tx.affiliates.getByCode(projectId, data.referralCode)
            if (!affiliate) throw new NotFoundError('no affiliate has this referral code', 'referralCode')
          }
          const now = ctx.clock.now()
          const firstPurchaseAt = data.firstPurchaseAt ?? null
          if (firstPurchaseAt && firstPurchaseAt.getTime() > now.getTime()) throw new ValidationError('firstPurchaseAt', (name) => `${name('firstPurchaseAt')} must not be in the future`)
          const status = data.status ?? (firstPurchaseAt ? 'converted' : 'pending')
          const referral = await tx.referrals.insert({
            projectId,
            email: data.email,
            affiliateId: affiliate?.id ?? null,
            conversionStatus: status,
            conversionDate: status === 'converted' || status === 'direct' ? (firstPurchaseAt ?? now) : null,
            firstPurchaseAt,
            payments: firstPurchaseAt ? 1 : 0,
            lastPayment: null,
            clickId: null,
            createdAt: now,
          })
          if (affiliate) {
            await tx.affiliates.adjustTotals(projectId, affiliate.id, { signups: 1 })
            await countDay(ctx, tx, affiliate.id, now, { signups: 1 })
            await tx.outbox.enqueue(
              referralSignedUp(referral, {
                affiliate,
                referred: referral,
                at: now,
                userAgent: data.userAgent ?? '',
                ipAddress: data.ipAddress ?? '',
              }),
            )
          }
          return referralView(referral, affiliate)
        }),
      )
    },

    async get(ref: ReferralRef): Promise<ReferralView> {
      return storage.transaction(async (tx) => {
        const [view] = await referralViews(tx, projectId, [await findReferral(tx, projectId, ref)])
        return view!
      })
    },

    /** affiliateId null disassociates; status converted or direct stamps conversionDate. */
    async update(ref: ReferralRef, input: UpdateReferralInput): Promise<ReferralView> {
      const data = validate(updateReferralInput, input)
      return withConflicts(() =>
        storage.transaction(async (tx) => {
          const referral = await lockedReferral(tx, projectId, ref, data.affiliateId ?? null)
          const patch: Partial<Referral> = {}
          if (data.email !== undefined) patch.email = data.email
          if (data.affiliateId !== undefined && data.affiliateId !== referral.affiliateId) {
            if (data.affiliateId !== null) await requireAffiliate(tx, projectId, data.affiliateId)
            patch.affiliateId = data.affiliateId
            if (referral.affiliateId !== null) await tx.affiliates.adjustTotals(projectId, referral.affiliateId, { signups: -1 })
            if (data.affiliateId !== null) {
              await tx.affiliates.adjustTotals(projectId, data.affiliateId, { signups: 1 })
              await countDay(ctx, tx, data.affiliateId, ctx.clock.now(), { signups: 1 })
            }
          }
          if (data.status !== undefined) {
            patch.conversionStatus = data.status
            if (data.status === 'converted' || data.status === 'direct') patch.conversionDate = ctx.clock.now()
          }
          const updated = await tx.referrals.update(projectId, referral.id, patch)
          const [view] = await referralViews(tx, projectId, [updated!])
          return view!
        }),
      )
    },

    async list(input: ListReferralsInput = {}): Promise<{ items: ReferralView[]; total: number; limit: number; offset: number }> {
      const data = validate(listReferralsInput, input)
      const window = listWindow(data, 20, 100)
      return storage.transaction(async (tx) => {
        const page = await tx.referrals.list(projectId, {
          ...window,
          ...(data.affiliateId !== undefined ? { affiliateId: data.affiliateId } : {}),
          ...(data.status !== undefined ? { status: data.status } : {}),
        })
        return { items: await referralViews(tx, projectId, page.items), total: page.total, ...window }
      })
    },
  }
}
