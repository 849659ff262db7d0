// Webhook delivery attempts as log records and metrics: builds the dispatcher's onAttempt hook
// from a logger and / or a metrics registry, keeping any hook the caller passed.
import type { AttemptReport, DeliveryOptions } from './dispatcher.js'
import { errorText, type Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'

/** Failed attempts are warnings, a delivery given up is an error, successes are debug. */
export function logAttempt(logger: Logger, report: AttemptReport): void {
  const fields = {
    project_id: report.projectId,
    endpoint_id: report.endpointId,
    delivery_id: report.deliveryId,
    event: report.eventType,
    attempt: report.attempt,
    status_code: report.statusCode,
    error: report.error,
    duration_ms: report.durationMs,
    next_attempt_at: report.nextAttemptAt?.toISOString() ?? null,
    test: report.test || undefined,
  }
  if (report.outcome === 'succeeded') logger.debug('webhook delivered', fields)
  else if (report.outcome === 'retrying') logger.warn('webhook delivery failed; will retry', fields)
  else logger.error('webhook delivery failed; no attempt left', fields)
}

/** The dispatcher options with attempts reported to `logger` and `metrics` (either may be absent). */
export function observedDispatcherOptions(options: DeliveryOptions, logger?: Logger, metrics?: Metrics): DeliveryOptions {
  if (!logger && !metrics) return options
  const own = options.onAttempt
  return {
    ...options,
    ...(logger && !options.onError ? { onError: (error: unknown) => logger.error('webhook dispatcher error', { error: errorText(error) }) } : {}),
    onAttempt(report) {
      if (logger) logAttempt(logger, report)
      metrics?.observeDelivery(report.outcome)
      own?.(report)
    },
  }
}
