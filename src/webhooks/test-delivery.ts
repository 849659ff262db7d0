// Test delivery for POST /api/project/{projectId}/webhooks/{webhookId}/test (DECISIONS.md §10).
// (Filled in by the webhooks issue.)
import type { ProjectScope } from '../core/program.js'
import type { EventType } from '../core/types.js'

export interface TestDeliveryResult {
  success: boolean
  /** The receiver's HTTP status; 0 when no answer came. */
  status: number
  response: string
}

/** Sends generated data of `eventType` to the endpoint now, records it in the log, and reports. */
export async function sendTestDelivery(_scope: ProjectScope, _webhookId: number, _eventType: EventType): Promise<TestDeliveryResult> {
  throw new Error('test delivery is not implemented yet')
}
