// GET /audit-log in both shapes: what was changed from the admin console, by whom and when,
// newest first (docs/admin.md "Audit log"). Needs a key with every scope (`*`), and the audit log
// passed to createHandler (`auditLog`); without it the route answers 404.
import type { AuditEntry } from '../core/audit-log.js'
import { alternativeWindow } from './alternative/paging.js'
import * as AR from './alternative/response-schemas.js'
import { HttpError } from '../server/errors.js'
import * as R from './response-schemas.js'
import { defineRoute, page, type RouteContext } from './route.js'
import { listQueryAlternative } from './schemas.js'
import { alternativeList } from './shapes/alternative.js'
import { primaryList } from './shapes/primary.js'

const route = { method: 'GET', path: '/audit-log', scope: '*', summary: 'List the changes made from the admin console, newest first' } as const

async function entries({ auditLog, projectId }: RouteContext, window: { limit: number; offset: number }) {
  if (!auditLog) throw new HttpError('not_found', 'the audit log is not enabled on this server')
  return { ...(await auditLog.list(projectId, window)), ...window }
}

const common = (entry: AuditEntry) => ({ id: entry.id, action: entry.action, target: entry.target, detail: entry.detail, at: entry.at.toISOString() })

export const primaryAuditLogRoutes = [
  defineRoute({
    ...route,
    query: listQueryAlternative,
    responses: { 200: R.auditLogList },
    errors: [400, 404],
    async run(ctx) {
      const result = await entries(ctx, { limit: Math.min(ctx.query.limit ?? 50, 200), offset: ctx.query.offset ?? 0 })
      return { status: 200, body: primaryList(result.items.map((entry) => ({ ...common(entry), actor_id: entry.actorId, actor_name: entry.actorName })), page(result)) }
    },
  }),
] as const

export const alternativeAuditLogRoutes = [
  defineRoute({
    ...route,
    query: listQueryAlternative,
    responses: { 200: AR.auditLogList },
    errors: [400, 404],
    async run(ctx) {
      const result = await entries(ctx, alternativeWindow(ctx.query))
      return { status: 200, body: alternativeList('auditLog', result.items.map((entry) => ({ ...common(entry), actorId: entry.actorId, actorName: entry.actorName })), page(result)) }
    },
  }),
] as const
