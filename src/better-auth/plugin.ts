// The Better Auth plugin (docs/embed.md "Better Auth"): the host app's signups become referred users
// of the affiliate whose link the visitor came through (the signed referral in the snippet's
// cookie), and its signed-in users get their embed token, enrolled as affiliates on demand, from
// one endpoint of its auth API. In process: the program is called directly, no HTTP hop.
import { APIError, createAuthEndpoint, sessionMiddleware } from 'better-auth/api'
import type { BetterAuthPlugin } from 'better-auth'
import type { CreateEmbedTokenInput } from '../core/model/schemas.js'
import { AffiliateError, ConflictError, ValidationError } from '../core/model/errors.js'
import type { EmbedSection } from '../core/model/embed-token.js'
import { newVisitorSalt } from '../core/model/visitor-hash.js'
import { readReferralCookie } from '../tracking/cookie.js'
import { verifyReferral } from '../tracking/referral-token.js'

/** What the plugin uses of the program (an AffiliateProgram is one). */
export interface BetterAuthProgram {
  readonly tracking: {
    visitorSalt(candidate: string): Promise<string>
    browserSignup(input: { email: string; referralCode: string }): Promise<unknown>
  }
  readonly embed: { createToken(input: CreateEmbedTokenInput): Promise<{ token: string; expiresAt: Date }> }
  readonly clock?: { now(): Date }
}

export interface AffiliateKitPluginOptions {
  /** The cookie the snippet and the referral links keep the referral in. @default 'ak_ref' */
  cookieName?: string
  /** The sub-program (partner slug) users enrolled as affiliates on demand join. @default none */
  group?: string
  /** How long an embed token opens the dashboard, 60 to 86400 seconds. @default 3600 */
  ttlSeconds?: number
  /** Sections the dashboard leaves out (links, earnings, conversions, payouts). @default none */
  hide?: EmbedSection[]
  /** The dashboard's URL for a token: the portal's `embedUrl` (createPortal with `embed` and `publicUrl`). @default none (the answer's url is null) */
  embedUrl?: (token: string) => string | null
  /** A signup whose referral could not be recorded (the sign-up itself goes on). @default console.error */
  onError?: (error: unknown) => void
}

/**
 * The plugin as Better Auth takes it. Written out rather than inferred: better-auth's own types are
 * large and ESM-only, and would otherwise be spelled into this package's declarations (the
 * endpoint is better-call's `Endpoint`; `auth.api.affiliateKitEmbedToken` is untyped here).
 */
export interface AffiliateKitBetterAuthPlugin {
  id: 'affiliate-kit'
  init(): { options: { databaseHooks: { user: { create: { after(user: { email: string }, context: SignUpContext | null): Promise<void> } } } } }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- better-call's Endpoint, see above
  endpoints: { affiliateKitEmbedToken: any }
}

/** What a database hook is told of the request that made the user. */
export interface SignUpContext {
  headers?: Headers | undefined
  request?: Request | undefined
}

/** What POST <auth base>/affiliate-kit/embed-token answers. */
export interface EmbedTokenAnswer {
  token: string
  expiresAt: string
  url: string | null
}

/** The signed-in user's referral: the signed referral in its cookie when it holds and has not expired. */
async function referralOf(program: BetterAuthProgram, cookieHeader: string | null, cookieName: string): Promise<string | null> {
  const now = Math.floor((program.clock?.now() ?? new Date()).getTime() / 1000)
  const cookie = readReferralCookie(cookieHeader, cookieName, now)
  if (!cookie) return null
  const signed = verifyReferral(await program.tracking.visitorSalt(newVisitorSalt()), cookie.value, now)
  return signed?.code ?? null
}

export function affiliateKit(program: BetterAuthProgram, options: AffiliateKitPluginOptions = {}): AffiliateKitBetterAuthPlugin {
  const cookieName = options.cookieName ?? 'ak_ref'
  const onError = options.onError ?? ((error: unknown) => console.error('affiliate-kit better-auth:', error))

  return {
    id: 'affiliate-kit',
    init() {
      return {
        options: {
          databaseHooks: {
            user: {
              create: {
                async after(user: { email: string }, context: SignUpContext | null) {
                  const headers = context?.headers ?? context?.request?.headers
                  try {
                    const code = await referralOf(program, headers?.get('cookie') ?? null, cookieName)
                    // A bare or forged code is no referral: only a click's signed one is (docs/tracking.md).
                    if (code !== null) await program.tracking.browserSignup({ email: user.email, referralCode: code })
                  } catch (error) {
                    onError(error)
                  }
                },
              },
            },
          },
        },
      }
    },
    endpoints: {
      affiliateKitEmbedToken: createAuthEndpoint('/affiliate-kit/embed-token', { method: 'POST', use: [sessionMiddleware] }, async (ctx) => {
        const { user } = ctx.context.session
        try {
          const created = await program.embed.createToken({
            email: user.email,
            externalId: user.id,
            name: user.name || null,
            ...(options.group ? { group: options.group } : {}),
            ...(options.ttlSeconds ? { ttlSeconds: options.ttlSeconds } : {}),
            ...(options.hide ? { hide: options.hide } : {}),
          })
          const answer: EmbedTokenAnswer = { token: created.token, expiresAt: created.expiresAt.toISOString(), url: options.embedUrl?.(created.token) ?? null }
          return ctx.json(answer)
        } catch (error) {
          if (error instanceof ConflictError) throw new APIError('CONFLICT', { message: error.message })
          if (error instanceof ValidationError || error instanceof AffiliateError) throw new APIError('BAD_REQUEST', { message: error.message })
          throw error
        }
      }),
    },
  } satisfies BetterAuthPlugin & AffiliateKitBetterAuthPlugin
}
