// Test delivery for POST /api/project/{projectId}/webhooks/{webhookId}/test (docs/webhooks.md):
// generated sample data of the event type, sent synchronously, recorded in the delivery log.
import type { ProjectScope, TestDeliveryResult } from '../core/program.js'
import type { EventType } from '../core/types.js'

export type { TestDeliveryResult }

/**
 * Sends generated data of `eventType` to the endpoint now, records it in the log (one delivery,
 * one attempt, no automatic retry), and reports `{ success, status, response }`. Throws a
 * ValidationError (400) for an unknown event type, NotFoundError (404) for an endpoint not in
 * the scope's project.
 */
export async function sendTestDelivery(scope: ProjectScope, webhookId: number, eventType: EventType): Promise<TestDeliveryResult> {
  return scope.webhooks.test(webhookId, eventType)
}
