// The outbox store: what the webhook dispatcher needs from a storage. It claims due deliveries
// under a lease, records each attempt, inserts test deliveries, and reads a project's settings
// (retry delays, private networks, currency). Every adapter implements it beside the domain store.
import type { NewEvent, ProjectRepository } from './storage.js'
import type { Delivery, DeliveryAttempt, DeliveryStatus, WebhookEndpoint, WebhookEvent } from '../model/types.js'

export interface ClaimedDelivery {
  delivery: Delivery
  event: WebhookEvent
  endpoint: WebhookEndpoint
}

export interface AttemptOutcome {
  deliveryId: number
  attempt: Omit<DeliveryAttempt, 'id' | 'deliveryId' | 'projectId'>
  /** succeeded / failed are final; pending schedules the next attempt at nextAttemptAt. */
  status: Exclude<DeliveryStatus, 'delivering'>
  nextAttemptAt: Date | null
}

export interface DeliveryQueue {
  /**
   * Takes up to `limit` deliveries that are pending and due, or delivering with an expired lease,
   * oldest due first; marks them delivering with leaseUntil = now + leaseMs. Concurrent callers
   * (other processes) never receive the same delivery while its lease holds.
   */
  claim(options: { now: Date; limit: number; leaseMs: number }): Promise<ClaimedDelivery[]>
  /** Stores the attempt, increments attempts, sets status / nextAttemptAt / lastStatusCode, clears the lease. */
  recordAttempt(outcome: AttemptOutcome): Promise<Delivery | null>
  /**
   * Test delivery (sent synchronously, outside the schedule): stores the event and one delivery
   * to that endpoint only, already `delivering` with leaseUntil, attempts 0; the sender then
   * calls recordAttempt with a final status. Null when the endpoint is not in the project.
   */
  insertTestDelivery(request: { event: NewEvent; endpointId: number; leaseUntil: Date }): Promise<ClaimedDelivery | null>
}

export interface OutboxStore {
  outbox: DeliveryQueue
  /** Project settings of each delivery (retry delays, allowPrivateNetworks, currency). */
  projects: Pick<ProjectRepository, 'get'>
}
