// Affiliates: create (given or generated referral code), read with stats, update, delete, list;
// and click tracking, which feeds the `clicks` stat.
import type { InferOutput } from 'valibot'
import { decideApplication } from './application-decision.js'
import { withConflicts, listWindow } from '../ports/conflicts.js'
import type { ProjectContext } from '../rules/context.js'
import { countDay } from '../rules/daily-counts.js'
import { ConflictError, NotFoundError, ValidationError } from '../model/errors.js'
import { EMPTY_TOTALS } from '../rules/ledger.js'
import { Currency } from '../model/money.js'
import { checkAmounts, checkIncentives } from '../rules/settings.js'
import { newReferralCode } from '../model/random.js'
import { tierProgress, tierSettingsOf, tierStanding } from '../rules/performance-tiers.js'
import {
  createAffiliateInput,
  listAffiliatesInput,
  trackClickInput,
  updateAffiliateInput,
  validate,
  email as emailSchema,
  referralCode as codeSchema,
  type CreateAffiliateInput,
  type ListAffiliatesInput,
  type TrackClickInput,
  type UpdateAffiliateInput,
} from '../model/schemas.js'
import type { Insert, Patch, StorageTx } from '../ports/storage.js'
import { UniqueViolation } from '../ports/storage.js'
import type { Affiliate, CommissionSettings, IncentiveSettings, Link, Project } from '../model/types.js'
import { newLink } from '../model/entities.js'
import { affiliateView, type AffiliateView } from '../rules/views.js'
import { lockAffiliate } from '../ports/row-locks.js'

/** An affiliate named by id (number) or email (string). */
export type AffiliateRef = number | string

export async function findAffiliate(tx: StorageTx, projectId: string, ref: AffiliateRef): Promise<Affiliate> {
  const affiliate =
    typeof ref === 'number'
      ? await tx.affiliates.get(projectId, ref)
      : await tx.affiliates.first(projectId, { email: validate(emailSchema, ref, 'email') })
  if (!affiliate) throw new NotFoundError('affiliate not found')
  return affiliate
}

/** The affiliate with this id, or a 404 naming `affiliateId`. */
export async function requireAffiliate(tx: StorageTx, projectId: string, id: number): Promise<Affiliate> {
  const affiliate = await tx.affiliates.get(projectId, id)
  if (!affiliate) throw new NotFoundError('affiliate not found', 'affiliateId')
  return affiliate
}

export async function loadAffiliateView(ctx: ProjectContext, tx: StorageTx, affiliate: Affiliate): Promise<AffiliateView> {
  const { settings } = await ctx.project()
  const now = ctx.clock.now()
  const held = await tx.conversions.heldSummary(ctx.projectId, affiliate.id, now)
  const currency = new Currency(settings.currency)
  const standing = await tierStanding(tx, ctx.projectId, affiliate.id, tierSettingsOf(settings, affiliate), currency, await ctx.dayOf(now))
  return affiliateView(affiliate, held, settings, standing && tierProgress(standing, currency))
}

function checkPartnerSlug(project: Project, slug: string | null | undefined): void {
  if (slug && !project.settings.subPrograms?.[slug]) {
    throw new ValidationError('partnerSlug', (name) => `${name('partnerSlug')}: no sub-program named ${slug}`)
  }
}

/** The affiliate's own commission rules: their fixed amounts must fit the project currency. */
function checkCommission(project: Project, commission: unknown, incentives?: unknown): void {
  if (commission) checkAmounts(commission as CommissionSettings, new Currency(project.settings.currency), 'commission')
  if (incentives) checkIncentives(incentives as IncentiveSettings, new Currency(project.settings.currency), 'incentives')
}

async function resolveParent(ctx: ProjectContext, tx: StorageTx, project: Project, input: CreateAffiliateInput): Promise<number | null> {
  if (input.parentAffiliateId === undefined && input.parentReferralCode === undefined) return null
  if (input.parentAffiliateId !== undefined && input.parentReferralCode !== undefined) {
    throw new ValidationError('parentAffiliateId', (name) => `send ${name('parentAffiliateId')} or ${name('parentReferralCode')}, not both`)
  }
  if (!project.settings.multiTier?.enabled) {
    throw new ValidationError('parentReferralCode', 'multi-tier is not enabled on this project')
  }
  const parent =
    input.parentAffiliateId !== undefined
      ? await tx.affiliates.get(ctx.projectId, input.parentAffiliateId)
      : await tx.affiliates.getByCode(ctx.projectId, input.parentReferralCode!)
  if (!parent) throw new NotFoundError('parent affiliate not found', input.parentAffiliateId !== undefined ? 'parentAffiliateId' : 'parentReferralCode')
  return parent.id
}

type NewAffiliate = Omit<Affiliate, 'id' | 'referralCode'>

/**
 * Refuses a referral code that is the key of another affiliate's link, so a code or key always
 * names one affiliate (two codes are refused by the storage's unique index).
 */
async function checkNotLinkKey(tx: StorageTx, projectId: string, code: string, self: number | null): Promise<void> {
  const owner = await tx.affiliates.getByCode(projectId, code)
  if (owner && owner.id !== self && owner.referralCode.toLowerCase() !== code.toLowerCase()) {
    throw new ConflictError("this referral code is the key of another affiliate's link", 'referralCode')
  }
}

/** A new affiliate's row: what `given` sets, null for the rest, no totals. */
export function newAffiliateRow(base: Pick<Affiliate, 'projectId' | 'email' | 'status' | 'createdAt'>, given: Partial<Omit<NewAffiliate, 'totals'>> = {}): NewAffiliate {
  return {
    externalId: null,
    name: null,
    tier: null,
    partnerSlug: null,
    paymentMethod: null,
    paymentDetails: null,
    payoutMethod: null,
    paypalEmail: null,
    wiseDetails: null,
    parentId: null,
    customFields: null,
    application: null,
    locale: null,
    emailOptOut: null,
    taxDetails: null,
    commission: null,
    incentives: null,
    stripeAccountId: null,
    ...base,
    ...given,
    totals: { ...EMPTY_TOTALS },
  }
}

/** The row affiliates.create writes for validated input (its code aside). */
export function createdAffiliateRow(projectId: string, data: InferOutput<typeof createAffiliateInput>, parentId: number | null, now: Date): NewAffiliate {
  return newAffiliateRow(
    { projectId, email: data.email, status: data.status ?? 'active', createdAt: now },
    {
      externalId: data.externalId ?? null,
      name: data.name ?? null,
      partnerSlug: data.partnerSlug ?? null,
      paymentMethod: data.paymentMethod ?? null,
      paymentDetails: data.paymentDetails ?? null,
      payoutMethod: data.payoutMethod ?? null,
      paypalEmail: data.paypalEmail ?? null,
      wiseDetails: data.wiseDetails ?? null,
      parentId,
      customFields: data.customFields ?? null,
      locale: data.locale ?? null,
      emailOptOut: data.emailOptOut ?? null,
      commission: (data.commission as CommissionSettings | null | undefined) ?? null,
      incentives: (data.incentives as IncentiveSettings | null | undefined) ?? null,
    },
  )
}

/** Inserts the row with `code`, or with a generated code (drawn again on a collision). */
export async function insertAffiliate(tx: StorageTx, row: NewAffiliate, code?: string): Promise<Affiliate> {
  if (code !== undefined) return tx.affiliates.insert({ ...row, referralCode: code })
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await tx.affiliates.insert({ ...row, referralCode: newReferralCode() })
    } catch (error) {
      const collided = error instanceof UniqueViolation && error.constraint === 'affiliate_referral_code'
      if (!collided || attempt >= 4) throw error
    }
  }
}

export function affiliatesService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  return {
    async create(input: CreateAffiliateInput): Promise<AffiliateView> {
      const data = validate(createAffiliateInput, input)
      const project = await ctx.project()
      checkPartnerSlug(project, data.partnerSlug)
      checkCommission(project, data.commission, data.incentives)
      return withConflicts(() =>
        storage.transaction(async (tx) => {
          const parentId = await resolveParent(ctx, tx, project, data)
          if (data.referralCode !== undefined) await checkNotLinkKey(tx, projectId, data.referralCode, null)
          const row = createdAffiliateRow(projectId, data, parentId, ctx.clock.now())
          const affiliate = await insertAffiliate(tx, row, data.referralCode)
          return loadAffiliateView(ctx, tx, affiliate)
        }),
      )
    },

    async get(ref: AffiliateRef): Promise<AffiliateView> {
      return storage.transaction(async (tx) => loadAffiliateView(ctx, tx, await findAffiliate(tx, projectId, ref)))
    },

    async update(ref: AffiliateRef, input: UpdateAffiliateInput): Promise<AffiliateView> {
      const data = validate(updateAffiliateInput, input)
      const project = await ctx.project()
      checkPartnerSlug(project, data.partnerSlug)
      checkCommission(project, data.commission, data.incentives)
      return withConflicts(() =>
        storage.transaction(async (tx) => {
          const found = await findAffiliate(tx, projectId, ref)
          if (data.referralCode !== undefined) await checkNotLinkKey(tx, projectId, data.referralCode, found.id)
          // Setting a pending affiliate active approves it (docs/onboarding.md): locked, so one event.
          const approves = found.status === 'pending' && data.status === 'active'
          const affiliate = approves ? await lockAffiliate(tx, projectId, found.id) : found
          const { status: _status, ...rest } = data
          const patch = approves && affiliate.status === 'pending' ? rest : data
          let updated = (await tx.affiliates.update(projectId, affiliate.id, patch as Patch<Affiliate>))!
          if (approves && affiliate.status === 'pending') updated = await decideApplication(ctx, tx, updated, { approve: true })
          return loadAffiliateView(ctx, tx, updated)
        }),
      )
    },

    /** Deletes the affiliate and its conversions, coupons, clicks and payouts. */
    async delete(ref: AffiliateRef): Promise<void> {
      await storage.transaction(async (tx) => {
        const affiliate = await findAffiliate(tx, projectId, ref)
        // A concurrent delete may have removed it since the read: only one answers 204.
        if (!(await tx.affiliates.delete(projectId, affiliate.id))) throw new NotFoundError('affiliate not found')
      })
    },

    async list(input: ListAffiliatesInput = {}): Promise<{ items: AffiliateView[]; total: number; limit: number; offset: number }> {
      const data = validate(listAffiliatesInput, input)
      const window = listWindow(data, 20, 100)
      return storage.transaction(async (tx) => {
        const statuses = data.status === undefined ? undefined : Array.isArray(data.status) ? data.status : [data.status]
        const page = await tx.affiliates.list(projectId, { ...window, ...(statuses ? { statuses } : {}) })
        const items: AffiliateView[] = []
        for (const affiliate of page.items) items.push(await loadAffiliateView(ctx, tx, affiliate))
        return { items, total: page.total, ...window }
      })
    },

    /**
     * Adds a link alias: another token (an imported tool's `?via=` token, a former code) that
     * links, the snippet and clicks resolve to the affiliate, stored as a link with only a key
     * (docs/attribution.md "Link aliases"). Idempotent: the affiliate's own code or link key is
     * not added again (`created` false). A token of another affiliate: ConflictError naming `alias`.
     */
    async addAlias(ref: AffiliateRef, alias: string): Promise<{ alias: string; created: boolean }> {
      const token = validate(codeSchema, alias, 'alias')
      const add = () =>
        storage.transaction(async (tx) => {
          const affiliate = await findAffiliate(tx, projectId, ref)
          const owner = await tx.affiliates.getByCode(projectId, token)
          if (owner?.id === affiliate.id) return { alias: token, created: false }
          if (owner) throw new ConflictError('this token is the referral code or a link key of another affiliate', 'alias')
          await tx.links.insert(newLink<Insert<Link>>({ projectId, affiliateId: affiliate.id, key: token, createdAt: ctx.clock.now() }))
          return { alias: token, created: true }
        })
      return withConflicts(async () => {
        try {
          return await add()
        } catch (error) {
          // Added at the same moment by another caller: once more, it finds whose key it is now.
          if (error instanceof UniqueViolation && error.constraint === 'link_key') return add()
          throw error
        }
      })
    },

    /** The keys of the affiliate's links (its link aliases among them), oldest first. */
    async aliases(ref: AffiliateRef): Promise<string[]> {
      return storage.transaction(async (tx) => (await tx.links.all(projectId, { affiliateId: (await findAffiliate(tx, projectId, ref)).id })).map((link) => link.key))
    },

    /** Counts a click on an affiliate's link (docs/attribution.md "Clicks"). */
    async trackClick(input: TrackClickInput): Promise<{ id: number; affiliateId: number; createdAt: Date }> {
      const data = validate(trackClickInput, input)
      return storage.transaction(async (tx) => {
        const affiliate = await tx.affiliates.getByCode(projectId, data.referralCode)
        if (!affiliate) throw new NotFoundError('no affiliate has this referral code', 'referralCode')
        const click = await tx.clicks.insert({
          projectId,
          affiliateId: affiliate.id,
          ipAddress: data.ip ?? null,
          userAgent: data.userAgent ?? null,
          landingUrl: data.url ?? null,
          createdAt: ctx.clock.now(),
        })
        await tx.affiliates.adjustTotals(projectId, affiliate.id, { clicks: 1 })
        await countDay(ctx, tx, affiliate.id, click.createdAt, { clicks: 1 })
        return { id: click.id, affiliateId: affiliate.id, createdAt: click.createdAt }
      })
    },
  }
}
