// The webhook delivery log on the wire, in both shapes: a delivery (one event to one endpoint)
// and its attempts. Primary: snake_case; alternative: camelCase, nested under data.delivery(ies).
import type { Delivery, DeliveryAttempt } from '../../core/types.js'

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

export function primaryDelivery(delivery: Delivery): Record<string, unknown> {
  return {
    id: delivery.id,
    webhook_id: delivery.endpointId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    next_attempt_at: iso(delivery.nextAttemptAt),
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
  }
}

export function primaryAttempt(attempt: DeliveryAttempt): unknown {
  return {
    attempted_at: attempt.attemptedAt.toISOString(),
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    response_excerpt: attempt.responseExcerpt,
    error: attempt.error,
  }
}

export function alternativeDelivery(delivery: Delivery): Record<string, unknown> {
  return {
    id: delivery.id,
    webhookId: delivery.endpointId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatusCode: delivery.lastStatusCode,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
  }
}

export function alternativeAttempt(attempt: DeliveryAttempt): unknown {
  return {
    attemptedAt: attempt.attemptedAt.toISOString(),
    statusCode: attempt.statusCode,
    durationMs: attempt.durationMs,
    responseExcerpt: attempt.responseExcerpt,
    error: attempt.error,
  }
}

/** A delivery with its attempts, oldest first. */
export function primaryDeliveryDetail(delivery: Delivery, attempts: DeliveryAttempt[]): unknown {
  return { ...primaryDelivery(delivery), attempt_history: attempts.map(primaryAttempt) }
}

export function alternativeDeliveryDetail(delivery: Delivery, attempts: DeliveryAttempt[]): unknown {
  return { ...alternativeDelivery(delivery), attemptHistory: attempts.map(alternativeAttempt) }
}
