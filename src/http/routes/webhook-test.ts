// POST {api root}/project/{projectId}/webhooks/{webhookId}/test (docs/api.md "Webhook test delivery"): outside the
// versioned base path; the key must belong to that project (else 404) and hold webhooks:write.
import { sendTestDelivery } from '../../webhooks/test-delivery.js'
import { parseBody, pathId, type RouteContext, type RouteResult } from '../route.js'
import { webhookTestBody } from '../schemas.js'

export async function webhookTest({ api, params, body }: RouteContext): Promise<RouteResult> {
  const webhookId = pathId(params.webhookId, 'webhook')
  const { eventType } = parseBody(webhookTestBody, body)
  await api.webhooks.get(webhookId)
  const result = await sendTestDelivery(api, webhookId, eventType)
  return { status: 200, body: { success: result.success, status: result.status, response: result.response } }
}
