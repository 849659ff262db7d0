// Portal sign-in, as the core knows it: sign-in requests as webhook events (the standalone server
// has no mail server, so an affiliate's "email me a link" becomes portal.sign_in_requested for the
// host to send), and the rule for sign-in links handed out by the console, the API and the CLI:
// absolute, from the portal's configured public URL only, never from a request's Host.
import { requireAffiliate } from './affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { ConflictError } from '../model/errors.js'
import { portalSignInRequested } from '../ports/events.js'
import { id, validate } from '../model/schemas.js'
import { isLocale } from '../model/i18n/locales.js'

/** What makes portal sign-in links: the portal of affiliate-kit/portal (createPortal), or anything shaped like it. */
export interface SignInLinkMaker {
  /** The project whose affiliates it signs in. */
  readonly projectId: string
  /** The portal's configured public origin; null when it has none (its links are then paths). */
  readonly publicUrl: string | null
  createSignInLink(email: string): Promise<{ url: string; expiresAt: Date }>
  /** The absolute URL of the embedded dashboard an embed token opens (docs/embed.md); null without the embed or a public URL. */
  embedUrl?(token: string): string | null
}

/** Why `maker` cannot make sign-in links for the project's affiliates, or null when it can. */
export function portalSignInLinkRefusal(maker: SignInLinkMaker | null, projectId: string): string | null {
  if (!maker || maker.projectId !== projectId) {
    return 'there is no affiliate portal here to sign in to: enable it (config portal.enabled with portal.publicUrl, or createHandler / createAdminConsole option portal)'
  }
  if (!maker.publicUrl) return 'the affiliate portal has no public URL to build sign-in links from: set portal.publicUrl (such as https://partners.example.com)'
  return null
}

/**
 * A one-time sign-in link for the affiliate with this email in the portal of `projectId`. Refused
 * (ConflictError) when there is no portal for the project, or it has no public URL to build the
 * link from; NotFoundError for an unknown email, ValidationError for a blocked affiliate.
 */
export async function portalSignInLink(maker: SignInLinkMaker | null, projectId: string, email: string): Promise<{ url: string; expiresAt: Date }> {
  const refusal = portalSignInLinkRefusal(maker, projectId)
  if (refusal !== null) throw new ConflictError(refusal)
  return maker!.createSignInLink(email)
}

export function portalSignInService(ctx: ProjectContext) {
  return {
    /**
     * Records the portal.sign_in_requested event for the affiliate, carrying the one-time link and
     * the language of the page it was asked from; with a mail dispatcher running it becomes the
     * sign-in mail (docs/email.md).
     */
    async recordSignInRequest(input: { affiliateId: number; link: string; expiresAt: Date; locale?: string }): Promise<void> {
      const affiliateId = validate(id, input.affiliateId, 'affiliateId')
      const locale = isLocale(input.locale) ? input.locale : undefined
      await ctx.storage.transaction(async (tx) => {
        const affiliate = await requireAffiliate(tx, ctx.projectId, affiliateId)
        await tx.outbox.enqueue(portalSignInRequested(affiliate, { link: input.link, expiresAt: input.expiresAt, at: ctx.clock.now(), locale }))
      })
    },
  }
}
