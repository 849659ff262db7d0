// What the optional routes need from outside the program, handed to createHandler: a webhook
// dispatcher's test sends (webhook-test.ts), a provider events' replayer (routes/provider-events.ts),
// the standalone server's payout runs (routes/payouts.ts). Each route answers 501 without its own.
import type { EventType } from '../core/model/types.js'
import type { PayoutRunResult } from '../core/payouts/payout-runs.js'
import type { ProviderEventView } from '../core/provider-events/index.js'

/** What the route needs of a webhook dispatcher (createWebhookDispatcher's sendTest). */
export interface TestDeliverySender {
  sendTest(projectId: string, endpointId: number, eventType: EventType): Promise<{ success: boolean; status: number; response: string }>
}

/** What the replay route needs (providerEventReplay({ program, storage }) from any provider entry). */
export interface ProviderEventReplayer {
  replay(id: number, project?: string): Promise<{ replayed: boolean; message: string; event: ProviderEventView }>
}

/** What POST /payouts/runs needs: the standalone server's configured providers (payoutRunner() from affiliate-kit/payouts). */
export interface PayoutRunService {
  run(projectId: string, input: { dryRun: boolean }): Promise<PayoutRunResult>
}
