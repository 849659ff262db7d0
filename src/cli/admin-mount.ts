// The standalone server's admin console (config `admin: { enabled: true }`): sign-in with an API
// key of scope *, sessions and the audit log in the server's database, retries and test events
// sent by the server's own webhook dispatcher, provider events replayed on the server's storage,
// sign-in links made by the server's portal. Its requests are logged and counted (surface `console`)
// with the server's logger and metrics.
import { createAdminConsole, type AdminConsole, type AdminConsoleOptions } from '../admin/admin.js'
import type { AuditLog } from '../core/ports/audit-log.js'
import type { AffiliateProgram } from '../core/program.js'
import type { SignInLinkMaker } from '../core/affiliates/portal-sign-in.js'
import type { SessionStore } from '../core/ports/session-store.js'
import type { ConsoleProviderEvents } from '../admin/provider-events.js'
import type { ConsolePayoutRuns } from '../admin/payout-runs.js'
import type { ConsoleWebhooks } from '../admin/webhooks.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import type { ServerConfig } from './config.js'

type AdminConfig = NonNullable<ServerConfig['admin']>

export function configuredAdmin(
  program: AffiliateProgram,
  stores: { sessions: SessionStore; auditLog: AuditLog; webhooks: ConsoleWebhooks; providerEvents: ConsoleProviderEvents; state: KeyedStateStore; portal?: SignInLinkMaker; payoutRuns?: ConsolePayoutRuns } & Pick<AdminConsoleOptions, 'logger' | 'metrics'>,
  config: AdminConfig,
  applicationFields: ReadonlyArray<{ name: string; label: string }> = [],
): AdminConsole {
  const { path, secureCookies, idleTimeoutSeconds, absoluteTimeoutSeconds, limits, trustProxy } = config
  return createAdminConsole(program, {
    ...stores,
    applicationFields,
    basePath: path ?? '/admin',
    session: { idleTimeoutSeconds, absoluteTimeoutSeconds },
    ...(secureCookies !== undefined ? { secureCookies } : {}),
    ...(limits ? { limits } : {}),
    ...(trustProxy !== undefined ? { trustProxy } : {}),
  })
}
