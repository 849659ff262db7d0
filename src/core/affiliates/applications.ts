// Applications from the portal's application page (docs/onboarding.md): an applicant becomes a
// `pending` affiliate (mode review) or an `active` one (mode open), once per email; the owner
// approves or rejects a pending one. Each change records its event in the same transaction.
import { decideApplication } from './application-decision.js'
import { findAffiliate, insertAffiliate, loadAffiliateView, newAffiliateRow, type AffiliateRef } from './affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { ConflictError, ValidationError } from '../model/errors.js'
import { affiliateApplied } from '../ports/events.js'
import { applyInput, rejectApplicationInput, validate, type ApplyInput, type RejectApplicationInput } from '../model/schemas.js'
import { UniqueViolation } from '../ports/storage.js'
import type { SignupMode } from '../model/types.js'
import type { AffiliateView } from '../rules/views.js'
import { lockAffiliate } from '../ports/row-locks.js'

export interface ApplyResult {
  /** The affiliate with this email: the new one, or the one that existed (left unchanged). */
  affiliate: AffiliateView
  /** False when the email belonged to an affiliate already: nothing was written. */
  created: boolean
}

export function applicationsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  async function existing(email: string): Promise<ApplyResult> {
    return storage.transaction(async (tx) => ({ affiliate: await loadAffiliateView(ctx, tx, await findAffiliate(tx, projectId, email)), created: false }))
  }

  return {
    /** How `<portal>/apply/<slug>` admits applicants; null when the project has no such sub-program. */
    async signupOf(slug: string): Promise<SignupMode | null> {
      const program = (await ctx.project()).settings.subPrograms?.[slug]
      return program ? (program.signup ?? 'review') : null
    },

    /** Creates the applicant's affiliate, unless one has the email: then nothing changes. */
    async apply(input: ApplyInput): Promise<ApplyResult> {
      const data = validate(applyInput, input)
      const project = await ctx.project()
      const slug = data.partnerSlug ?? null
      if (slug !== null && !project.settings.subPrograms?.[slug]) throw new ValidationError('partnerSlug', `no sub-program named ${slug}`)
      const at = ctx.clock.now()
      try {
        return await storage.transaction(async (tx) => {
          const found = await tx.affiliates.first(projectId, { email: data.email })
          if (found) return { affiliate: await loadAffiliateView(ctx, tx, found), created: false }
          const status = data.signup === 'open' ? 'active' : 'pending'
          const application = {
            website: data.website ?? null,
            promotion: data.promotion ?? null,
            fields: data.fields ?? {},
            appliedAt: at.toISOString(),
            termsAcceptedAt: data.termsAccepted ? at.toISOString() : null,
            decidedAt: null,
            rejectionReason: null,
          }
          const affiliate = await insertAffiliate(tx, newAffiliateRow({ projectId, email: data.email, status, createdAt: at }, { name: data.name, partnerSlug: slug, application, locale: data.locale ?? null }))
          await tx.outbox.enqueue(affiliateApplied(affiliate, { at }))
          return { affiliate: await loadAffiliateView(ctx, tx, affiliate), created: true }
        })
      } catch (error) {
        // Another request inserted this email first: it is the existing affiliate now.
        if (error instanceof UniqueViolation && error.constraint === 'affiliate_email') return existing(data.email)
        throw error
      }
    },

    /** Makes a pending affiliate active; an active one is answered as it is (nothing recorded). */
    async approve(ref: AffiliateRef): Promise<AffiliateView> {
      return storage.transaction(async (tx) => {
        const found = await findAffiliate(tx, projectId, ref)
        const affiliate = await lockAffiliate(tx, projectId, found.id)
        if (affiliate.status === 'active') return loadAffiliateView(ctx, tx, affiliate)
        if (affiliate.status !== 'pending') throw new ConflictError(`affiliate is ${affiliate.status}; only a pending affiliate can be approved`, 'status')
        return loadAffiliateView(ctx, tx, await decideApplication(ctx, tx, affiliate, { approve: true }))
      })
    },

    /** Rejects a pending affiliate: it becomes blocked, the reason kept on its application. */
    async reject(ref: AffiliateRef, input: RejectApplicationInput = {}): Promise<AffiliateView> {
      const { reason } = validate(rejectApplicationInput, input)
      return storage.transaction(async (tx) => {
        const found = await findAffiliate(tx, projectId, ref)
        const affiliate = await lockAffiliate(tx, projectId, found.id)
        if (affiliate.status !== 'pending') throw new ConflictError(`affiliate is ${affiliate.status}; only a pending affiliate can be rejected`, 'status')
        const trimmed = reason?.trim() || null
        return loadAffiliateView(ctx, tx, await decideApplication(ctx, tx, affiliate, { approve: false, reason: trimmed }))
      })
    },
  }
}
