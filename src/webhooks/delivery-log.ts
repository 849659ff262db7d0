// Webhook delivery attempts as log records and metrics: builds the dispatcher's onAttempt hook
// from a logger and / or a metrics registry, keeping any hook the caller passed. A receiver that
// is down fails every attempt: those are logged once per endpoint and interval, with a count
// (not once per attempt: 140 lines a second in a 2-minute outage), and once more when it answers
// again. The loop's storage errors (the database down or its disk full) are counted alike.
import type { AttemptReport, DeliveryOptions } from './delivery.js'
import { errorText, type Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import { logThrottle } from '../ops/log-throttle.js'
import { StorageFullError, StorageUnavailableError } from '../core/model/errors.js'

const DEFAULT_INTERVAL_MS = 60_000

function attemptFields(report: AttemptReport) {
  return {
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
}

/**
 * The attempts' log: a delivery given up is an error each time; failed attempts to an endpoint
 * are a warning at the first, then one per `intervalMs` with `failures` (the attempts that failed
 * since the last line); the first success after failures is an info line with the count not yet
 * logged; other successes are debug.
 */
export function attemptLog(logger: Logger, intervalMs = DEFAULT_INTERVAL_MS): (report: AttemptReport) => void {
  const failing = logThrottle(intervalMs)
  return (report) => {
    const key = `${report.projectId}/${report.endpointId}`
    const fields = attemptFields(report)
    if (report.outcome === 'succeeded') {
      const unlogged = report.test ? null : failing.end(key)
      if (unlogged !== null) logger.info('webhook endpoint answers again', { ...fields, failures: unlogged })
      else logger.debug('webhook delivered', fields)
      return
    }
    if (report.outcome === 'failed') {
      logger.error('webhook delivery failed; no attempt left', fields)
      return
    }
    const logged = failing.event(key)
    if (logged?.first) logger.warn('webhook delivery failed; will retry', { ...fields, failures: 1 })
    else if (logged) logger.warn(`webhook deliveries to this endpoint keep failing: ${logged.count} more failed attempts; will retry`, { ...fields, failures: logged.count })
  }
}

/** The dispatcher options with attempts reported to `logger` and `metrics` (either may be absent). */
export function observedDispatcherOptions(options: DeliveryOptions, logger?: Logger, metrics?: Metrics): DeliveryOptions {
  if (!logger && !metrics) return options
  const own = options.onAttempt
  const intervalMs = options.logIntervalMs ?? DEFAULT_INTERVAL_MS
  const log = logger ? attemptLog(logger, intervalMs) : null
  const storageErrors = logThrottle(intervalMs)
  return {
    ...options,
    ...(logger && !options.onError
      ? {
          onError: (error: unknown) => {
            // The database down or its disk full: the loop tries again each poll; one line per interval.
            if (!(error instanceof StorageUnavailableError || error instanceof StorageFullError)) return logger.error('webhook dispatcher error', { error: errorText(error) })
            const logged = storageErrors.event(error.name)
            if (logged) logger.error('webhook dispatcher cannot use the database; it tries again each poll', { error: errorText(error), failures: logged.count })
          },
        }
      : {}),
    onAttempt(report) {
      log?.(report)
      metrics?.observeDelivery(report.outcome)
      own?.(report)
    },
  }
}
