// POST {api root}/project/{projectId}/webhooks/{webhookId}/test (docs/api.md "Webhook test delivery"):
// outside the versioned base path, the same in both shapes; the key must belong to that project
// (else 404) and hold webhooks:write. Sent by the dispatcher handed to createHandler (`webhooks`);
// without one the route answers 501.
import * as v from 'valibot'
import { HttpError } from '../server/errors.js'
import { defineRoute, pathId } from './route.js'
import { webhookTestBody } from './schemas.js'

export type { TestDeliverySender } from './route-services.js'

/** The answer: whether the endpoint took the test event, its status and the start of its reply. */
export const webhookTestResult = v.strictObject({ success: v.boolean(), status: v.number(), response: v.string() })

export const webhookTestRoute = defineRoute({
  method: 'POST',
  path: '/project/:projectId/webhooks/:webhookId/test',
  scope: 'webhooks:write',
  summary: 'Send a test event to a webhook endpoint',
  body: webhookTestBody,
  responses: { 200: { name: 'WebhookTestResult', schema: webhookTestResult } },
  errors: [400, 404, 501],
  async run({ api, webhooks, params, body }) {
    const webhookId = pathId(params.webhookId, 'webhook')
    await api.webhooks.get(webhookId)
    if (!webhooks) {
      throw new HttpError('not_implemented', 'this server sends no webhooks: create the handler with a dispatcher (createHandler(program, { webhooks }))')
    }
    const result = await webhooks.sendTest(api.projectId, webhookId, body.eventType)
    return { status: 200, body: { success: result.success, status: result.status, response: result.response } }
  },
})
