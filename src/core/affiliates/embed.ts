// Embed tokens (docs/embed.md): the host's server asks for one for its signed-in user, who is
// found among the affiliates by email or enrolled; the token opens that affiliate's embedded
// dashboard until it expires, and stops working once the affiliate is blocked.
import type { ProjectContext } from '../rules/context.js'
import type { AffiliateView } from '../rules/views.js'
import { ConflictError, NotFoundError, ValidationError } from '../model/errors.js'
import { readEmbedToken, signEmbedToken, type EmbedSection } from '../model/embed-token.js'
import { createEmbedTokenInput, validate, type CreateEmbedTokenInput } from '../model/schemas.js'
import { visitorSaltOf } from '../rules/visitor-salt.js'
import type { affiliatesService } from './affiliates.js'

/** docs/embed.md: one hour unless asked otherwise, never more than a day. */
export const EMBED_TOKEN_TTL_SECONDS = 3600

export interface EmbedToken {
  token: string
  expiresAt: Date
  affiliateId: number
  /** Whether this call enrolled the affiliate. */
  enrolled: boolean
}

/** Why a token opens nothing: not one of ours (or tampered with), past its expiry, or its affiliate blocked or gone. */
export type EmbedRefusal = 'invalid' | 'expired' | 'blocked'

export type EmbedOpening = { affiliate: AffiliateView; hide: EmbedSection[]; expiresAt: Date } | { refused: EmbedRefusal }

export function embedService(ctx: ProjectContext, affiliates: ReturnType<typeof affiliatesService>) {
  /**
   * The affiliate with this external id, else with this email (which then keeps the external id),
   * else a new active one in the group; a concurrent enrollment of the same user finds the other's.
   */
  async function enroll(data: ReturnType<typeof validate<typeof createEmbedTokenInput>>): Promise<{ affiliate: AffiliateView; enrolled: boolean }> {
    const { email, externalId } = data
    if (email === undefined && externalId === undefined) throw new ValidationError('email', (name) => `${name('email')}: give the user's email or externalId`)
    const known = await findUser(data)
    if (known) return { affiliate: known, enrolled: false }
    if (email === undefined) throw new NotFoundError('no affiliate has this externalId: give the user\'s email too to enroll it', 'externalId')
    const group = data.group ?? null
    if (group !== null && !(await ctx.project()).settings.subPrograms?.[group]) throw new ValidationError('group', (name) => `${name('group')}: no sub-program named ${group}`)
    try {
      const affiliate = await affiliates.create({ email, externalId: externalId ?? null, name: data.name ?? null, partnerSlug: group, status: 'active' })
      return { affiliate, enrolled: true }
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error
      const other = await findUser(data)
      if (!other) throw error
      return { affiliate: other, enrolled: false }
    }
  }

  /** The affiliate the user is already, by external id, else by email (given the external id when it has none). */
  async function findUser({ email, externalId }: { email?: string | undefined; externalId?: string | undefined }): Promise<AffiliateView | null> {
    if (externalId !== undefined) {
      const byId = await ctx.storage.transaction((tx) => tx.affiliates.first(ctx.projectId, { externalId }))
      if (byId) return affiliates.get(byId.id)
    }
    if (email === undefined) return null
    let byEmail: AffiliateView
    try {
      byEmail = await affiliates.get(email)
    } catch (error) {
      if (error instanceof NotFoundError) return null
      throw error
    }
    if (externalId === undefined || byEmail.externalId === externalId) return byEmail
    if (byEmail.externalId !== null) throw new ConflictError('the affiliate with this email has another externalId', 'externalId')
    return affiliates.update(byEmail.id, { externalId })
  }

  return {
    /** A token for the affiliate with `email`, enrolled when there is none; 409 for a blocked affiliate. */
    async createToken(input: CreateEmbedTokenInput): Promise<EmbedToken> {
      const data = validate(createEmbedTokenInput, input)
      const { affiliate, enrolled } = await enroll(data)
      if (affiliate.status === 'blocked') throw new ConflictError('this affiliate is blocked: it gets no embed token')
      const expires = Math.floor(ctx.clock.now().getTime() / 1000) + (data.ttlSeconds ?? EMBED_TOKEN_TTL_SECONDS)
      const token = signEmbedToken(await visitorSaltOf(ctx), ctx.projectId, { affiliateId: affiliate.id, expires, hide: data.hide ?? [] })
      return { token, expiresAt: new Date(expires * 1000), affiliateId: affiliate.id, enrolled }
    },

    /** The affiliate a token opens the dashboard of, now; else why it opens nothing. */
    async open(token: unknown): Promise<EmbedOpening> {
      const claims = readEmbedToken(await visitorSaltOf(ctx), ctx.projectId, token)
      if (!claims) return { refused: 'invalid' }
      if (claims.expires * 1000 <= ctx.clock.now().getTime()) return { refused: 'expired' }
      let affiliate: AffiliateView
      try {
        affiliate = await affiliates.get(claims.affiliateId)
      } catch (error) {
        if (error instanceof NotFoundError) return { refused: 'invalid' }
        throw error
      }
      if (affiliate.status === 'blocked') return { refused: 'blocked' }
      return { affiliate, hide: claims.hide, expiresAt: new Date(claims.expires * 1000) }
    },
  }
}
