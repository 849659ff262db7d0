// affiliate-kit/admin: the admin console, a Fetch handler to mount in the host's app.
export { createAdminConsole } from './admin.js'
export type { AdminConsole, AdminConsoleOptions } from './admin.js'
export type { AdminActor } from './page.js'
export type { AdminProgram } from './program.js'
export type { ConsoleWebhooks } from './webhooks.js'
export type { AuditLog, AuditEntry, AuditEntryInput, WithAuditLog } from './audit-log.js'
export type { Theme } from '../web/theme.js'
export type { SessionPolicy } from '../web/sessions.js'
