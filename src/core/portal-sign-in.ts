// Portal sign-in requests as webhook events: the standalone server has no mail server, so an
// affiliate's "email me a link" becomes portal.sign_in_requested for the host to send.
import { requireAffiliate } from './affiliates.js'
import type { ProjectContext } from './context.js'
import { portalSignInRequested } from './events.js'
import { id, validate } from './schemas.js'

export function portalSignInService(ctx: ProjectContext) {
  return {
    /** Records the portal.sign_in_requested event for the affiliate, carrying the one-time link. */
    async recordSignInRequest(input: { affiliateId: number; link: string; expiresAt: Date }): Promise<void> {
      const affiliateId = validate(id, input.affiliateId, 'affiliateId')
      await ctx.storage.transaction(async (tx) => {
        const affiliate = await requireAffiliate(tx, ctx.projectId, affiliateId)
        await tx.outbox.enqueue(portalSignInRequested(affiliate, { link: input.link, expiresAt: input.expiresAt, at: ctx.clock.now() }))
      })
    },
  }
}
