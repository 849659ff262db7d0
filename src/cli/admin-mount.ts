// The standalone server's admin console (config `admin: { enabled: true }`): sign-in with an API
// key of scope *, sessions and the audit log in the server's database, retries and test events
// sent by the server's own webhook dispatcher, sign-in links made by the server's portal.
import { createAdminConsole, type AdminConsole } from '../admin/admin.js'
import type { AuditLog } from '../admin/audit-log.js'
import type { AffiliateProgram } from '../core/program.js'
import type { SignInLinkMaker } from '../core/portal-sign-in.js'
import type { SessionStore } from '../web/session-store.js'
import type { ConsoleWebhooks } from '../admin/webhooks.js'
import type { ServerConfig } from './config.js'

type AdminConfig = NonNullable<ServerConfig['admin']>

export function configuredAdmin(program: AffiliateProgram, stores: { sessions: SessionStore; auditLog: AuditLog; webhooks: ConsoleWebhooks; portal?: SignInLinkMaker }, config: AdminConfig): AdminConsole {
  const { path, secureCookies, idleTimeoutSeconds, absoluteTimeoutSeconds } = config
  return createAdminConsole(program, {
    ...stores,
    basePath: path ?? '/admin',
    session: { idleTimeoutSeconds, absoluteTimeoutSeconds },
    ...(secureCookies !== undefined ? { secureCookies } : {}),
  })
}
