// The standalone server's affiliate portal (config `portal: { enabled: true }`): requests under
// its path go to the portal, the rest to the API. Its "email me a link" form, when turned on,
// records the portal.sign_in_requested webhook event, which the mail dispatcher sends when `email`
// is configured (else the host sends it). Its
// requests are logged and counted (surface `portal`) with the server's logger and metrics.
import { stripeConnect } from '../payouts/stripe/connect.js'
import type { AffiliateProgram } from '../core/program.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import type { NodeHandler } from '../server/node.js'
import { createPortal, type Portal, type PortalOptions } from '../portal/portal.js'
import type { SessionStore } from '../core/ports/session-store.js'
import { ConfigError, type ServerConfig } from './config.js'
import { configuredReferralLink } from './referral-link.js'

type PortalConfig = NonNullable<ServerConfig['portal']>

export function configuredPortal(
  program: AffiliateProgram,
  stores: { sessions: SessionStore; state: KeyedStateStore } & Pick<PortalOptions, 'logger' | 'metrics'>,
  config: PortalConfig,
  tracking?: ServerConfig['tracking'],
  mail?: { secret: string },
  /** payoutProviders.stripe: the Payouts page offers Stripe Connect onboarding (docs/payouts.md "Stripe Connect"). */
  stripe?: { secretKey: string; baseUrl?: string | undefined },
): Portal {
  const { enabled: _enabled, path, publicUrl, secureCookies, theme, idleTimeoutSeconds, absoluteTimeoutSeconds, signInLinkTtlSeconds, limits, trustProxy, application, locale, embed } = config
  // With mail configured the form is on by default: its requests become sign-in mails.
  const emailSignIn = config.emailSignIn ?? (mail !== undefined && publicUrl !== undefined)
  const referralLink = configuredReferralLink(config, tracking)
  const options: PortalOptions = {
    ...stores,
    basePath: path ?? '/portal',
    session: { idleTimeoutSeconds, absoluteTimeoutSeconds, signInLinkTtlSeconds },
    ...(publicUrl ? { publicUrl } : {}),
    ...(secureCookies !== undefined ? { secureCookies } : {}),
    ...(theme ? { theme } : {}),
    ...(limits ? { limits } : {}),
    ...(trustProxy !== undefined ? { trustProxy } : {}),
    ...(application ? { application } : {}),
    ...(referralLink ? { referralLink } : {}),
    ...(emailSignIn ? { emailSignIn } : {}),
    ...(locale ? { locale } : {}),
    ...(embed ? { embed } : {}),
    ...(mail ? { mailSecret: mail.secret } : {}),
    ...(stripe ? { stripeConnect: stripeConnect(program, { secretKey: stripe.secretKey, ...(stripe.baseUrl ? { baseUrl: stripe.baseUrl } : {}) }) } : {}),
  }
  try {
    return createPortal(program, options)
  } catch (error) {
    // A theme value the config schema let through but the portal refuses, as one line.
    if (error instanceof TypeError) throw new ConfigError(`config: portal ${error.message}`)
    throw error
  }
}

/** Sends requests under `basePath` to the pages (the portal or the admin console) and everything else to `api`. */
export function withPortal(api: NodeHandler, portal: { node: NodeHandler }, basePath: string): NodeHandler {
  return (req, res, next) => {
    const path = (req.url ?? '/').split('?')[0]!
    const inside = path === basePath || path.startsWith(`${basePath}/`)
    return (inside ? portal.node : api)(req, res, next)
  }
}
