// POST {api root}/project/{projectId}/webhooks/{webhookId}/test (docs/api.md "Webhook test delivery"):
// outside the versioned base path, the same in both shapes; the key must belong to that project
// (else 404) and hold webhooks:write.
import { defineRoute, pathId } from './route.js'
import * as R from './response-schemas.js'
import { webhookTestBody } from './schemas.js'

export const webhookTestRoute = defineRoute({
  method: 'POST',
  path: '/project/:projectId/webhooks/:webhookId/test',
  scope: 'webhooks:write',
  summary: 'Send a test event to a webhook endpoint',
  body: webhookTestBody,
  responses: { 200: { name: 'WebhookTestResult', schema: R.webhookTestResult } },
  errors: [400, 404],
  async run({ api, params, body }) {
    const webhookId = pathId(params.webhookId, 'webhook')
    await api.webhooks.get(webhookId)
    const result = await api.webhooks.test(webhookId, body.eventType)
    return { status: 200, body: { success: result.success, status: result.status, response: result.response } }
  },
})
