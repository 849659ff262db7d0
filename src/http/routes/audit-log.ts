// GET /audit-log, once for every shape: what was changed from the admin console, by whom and
// when, newest first (docs/admin.md "Audit log"). Needs a key with every scope (`*`), and the
// audit log passed to createHandler (`auditLog`); without it the route answers 404.
import { HttpError } from '../../server/errors.js'
import { defineOperation, type Given } from '../route.js'
import { listQuery } from '../schemas.js'

export const listAuditLog = defineOperation({
  id: 'getAuditLog',
  method: 'GET',
  path: '/audit-log',
  scope: '*',
  summary: 'List the changes made from the admin console, newest first',
  errors: [400, 404],
  query: listQuery,
  async run({ auditLog, projectId, input }: Given<{ limit: number; offset: number }>) {
    if (!auditLog) throw new HttpError('not_found', 'the audit log is not enabled on this server')
    return { ...(await auditLog.list(projectId, input)), ...input }
  },
})
