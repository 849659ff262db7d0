// createWebhookDispatcher: a peer of the program over the same storage. Claims due deliveries
// from the outbox (leases, so several processes can share a Postgres), signs, POSTs, records every
// attempt and schedules retries (docs/webhooks.md "Delivery and retries"); sends test deliveries.
// One dispatcher serves every project of a storage.
import { systemClock, type Clock } from '../core/clock.js'
import { NotFoundError } from '../core/errors.js'
import { eventType as eventTypeSchema, id as idSchema, validate } from '../core/schemas.js'
import type { DeliveryStatus, EventType, ProjectSettings } from '../core/types.js'
import { observedDispatcherOptions } from './delivery-log.js'
import type { Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import { deliveryHeaders } from './headers.js'
import type { ClaimedDelivery, OutboxStore } from '../core/outbox-store.js'
import { sampleEvent } from './samples.js'
import { createTransport, type SendResult, type TransportOptions } from './transport.js'

/** How deliveries are sent: the tuning shared by every dispatcher. */
export interface DeliveryOptions extends TransportOptions {
  /** Header prefix. @default 'X-Service' */
  headerPrefix?: string
  /** @default 'Service-Webhooks/1.0' */
  userAgent?: string
  /**
   * How long a claimed delivery stays reserved for this process. A process that dies mid-send
   * leaves its claims to be reclaimed once the lease expires. Must exceed timeoutMs. @default 60000
   */
  leaseMs?: number
  /** Random jitter applied to each retry delay, as a fraction. @default 0.2 (+-20%) */
  jitter?: number
  /** Concurrent sends of dispatch(), and of start() unless it passes its own. @default 16 */
  concurrency?: number
  /** Storage errors of the background loop (it keeps running). @default console.error */
  onError?: (error: unknown) => void
  /** Called after every recorded attempt (for logs and metrics); what it throws goes to onError. */
  onAttempt?: (report: AttemptReport) => void
}

export interface WebhookDispatcherOptions extends DeliveryOptions {
  /** The storage the program writes to (any adapter); the dispatcher uses its outbox store. */
  storage: OutboxStore
  /** @default the system clock */
  clock?: Clock
  /** Receives failed deliveries and dispatcher errors. @default none (errors go to console.error) */
  logger?: Logger
  /** Counts delivery attempts by outcome (share it with createHandler's `metrics`). @default none */
  metrics?: Metrics
}

/** Delivers due webhook deliveries of every project of its storage. */
export interface WebhookDispatcher {
  /** Keeps dispatching in the background until stop(). */
  start(options?: { concurrency?: number; pollIntervalMs?: number }): void
  /** Stops claiming and waits for in-flight sends to finish. */
  stop(): Promise<void>
  /** One pass: claims and sends every due delivery once; resolves with how many were attempted. */
  dispatch(): Promise<number>
  /**
   * Sends generated sample data of `eventType` to one endpoint of the project now, outside the
   * schedule, and records it in the delivery log. NotFoundError when the endpoint is not the project's.
   */
  sendTest(projectId: string, endpointId: number, eventType: EventType): Promise<TestDeliveryResult>
}

export interface TestDeliveryResult {
  success: boolean
  /** The receiver's HTTP status; 0 when no answer came. */
  status: number
  /** The receiver's response text (truncated), or the error when no answer came. */
  response: string
}

/** One recorded delivery attempt, as onAttempt receives it. */
export interface AttemptReport {
  projectId: string
  endpointId: number
  deliveryId: number
  eventType: EventType
  /** 1 for the first attempt. */
  attempt: number
  /** retrying: failed, another attempt is scheduled at nextAttemptAt; failed: no attempt left. */
  outcome: 'succeeded' | 'retrying' | 'failed'
  statusCode: number | null
  error: string | null
  durationMs: number
  nextAttemptAt: Date | null
  /** A test delivery (sent by hand, never retried). */
  test: boolean
}

export const DEFAULT_DELAYS = [5, 300, 1800]
/** Retry-After is honoured up to this many seconds (a day). */
const MAX_RETRY_AFTER_MS = 86_400_000

/** Settings per project, read once per batch of claimed deliveries (null: the project is gone). */
type SettingsOf = (projectId: string) => Promise<ProjectSettings | null>

export function createWebhookDispatcher(dispatcherOptions: WebhookDispatcherOptions): WebhookDispatcher {
  const { storage, clock = systemClock, logger, metrics, ...delivery } = dispatcherOptions
  const options = observedDispatcherOptions(delivery, logger, metrics)
  const headerOptions = { headerPrefix: options.headerPrefix ?? 'X-Service', userAgent: options.userAgent ?? 'Service-Webhooks/1.0' }
  const leaseMs = options.leaseMs ?? 60_000
  const jitter = options.jitter ?? 0.2
  const defaultConcurrency = options.concurrency ?? 16
  const transport = createTransport(options)
  const onError = options.onError ?? ((error: unknown) => console.error('affiliate-kit webhooks:', error))

  /** A fresh memo of project settings: a batch reads each project once, the next batch anew. */
  function settingsMemo(): SettingsOf {
    const read = new Map<string, Promise<ProjectSettings | null>>()
    return (projectId) => {
      let settings = read.get(projectId)
      if (!settings) {
        // A storage failure is not "no project": it surfaces; the lease brings the delivery back.
        settings = storage.projects.get(projectId).then((project) => project?.settings ?? null)
        read.set(projectId, settings)
      }
      return settings
    }
  }

  function nextDelayMs(delays: number[], attempt: number, result: SendResult): number {
    const base = (delays[attempt - 1] ?? 0) * 1000
    const jittered = base * (1 + (Math.random() * 2 - 1) * jitter)
    const retryAfter = Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)
    return Math.max(Math.round(jittered), retryAfter)
  }

  /** Sends one claimed delivery and records the attempt. `final`: no automatic retry (test sends). */
  async function deliver(claimed: ClaimedDelivery, settingsOf: SettingsOf, final = false): Promise<SendResult> {
    const { delivery, event, endpoint } = claimed
    const settings = await settingsOf(delivery.projectId)
    const now = clock.now()
    let result: SendResult
    if (!settings) {
      result = { statusCode: null, durationMs: 0, excerpt: null, error: 'project not found', retryAfterMs: null }
    } else if (!endpoint.active && !final) {
      result = { statusCode: null, durationMs: 0, excerpt: null, error: 'endpoint is inactive', retryAfterMs: null }
    } else {
      const headers = deliveryHeaders(claimed, now, headerOptions)
      result = await transport.post(endpoint.url, event.body, headers, settings.allowPrivateNetworks === true)
    }
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300
    const delays = settings?.webhookRetryDelaysSeconds ?? DEFAULT_DELAYS
    const attempt = delivery.attempts + 1
    const retry = !ok && !final && settings !== null && endpoint.active && attempt <= delays.length
    const status: Exclude<DeliveryStatus, 'delivering'> = ok ? 'succeeded' : retry ? 'pending' : 'failed'
    // The wait counts from the end of this attempt: a receiver that timed out gets its full delay.
    const finishedAt = now.getTime() + Math.round(result.durationMs)
    const nextAttemptAt = retry ? new Date(finishedAt + nextDelayMs(delays, attempt, result)) : null
    const error = result.error ?? (ok ? null : `HTTP ${result.statusCode}`)
    await storage.outbox.recordAttempt({
      deliveryId: delivery.id,
      status,
      nextAttemptAt,
      attempt: {
        attemptedAt: now,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        responseExcerpt: result.excerpt,
        error,
      },
    })
    if (options.onAttempt) {
      const outcome = status === 'pending' ? 'retrying' : status
      const { projectId, endpointId, id: deliveryId, eventType } = delivery
      const report = { projectId, endpointId, deliveryId, eventType, attempt, outcome, statusCode: result.statusCode, error, durationMs: result.durationMs, nextAttemptAt, test: final } as const
      try {
        options.onAttempt(report)
      } catch (hookError) {
        onError(hookError)
      }
    }
    return result
  }

  /** Claims and sends with at most `concurrency` in flight, until nothing is due or `running()` turns false. */
  async function drain(concurrency: number, running: () => boolean, inFlight: Set<Promise<unknown>>): Promise<number> {
    let sent = 0
    while (running()) {
      const free = concurrency - inFlight.size
      // Claim in batches (once half the slots are free): each claim scans or queries the outbox.
      if (free <= 0 || (inFlight.size > 0 && free < Math.ceil(concurrency / 2))) {
        await new Promise<void>((resolve) => (slotFreed = resolve))
        continue
      }
      const claimed = await storage.outbox.claim({ now: clock.now(), limit: free, leaseMs })
      if (claimed.length === 0) break
      const settingsOf = settingsMemo()
      for (const item of claimed) {
        sent++
        const sending: Promise<unknown> = deliver(item, settingsOf)
          .catch(onError)
          .finally(() => {
            inFlight.delete(sending)
            slotFreed?.()
          })
        inFlight.add(sending)
      }
    }
    return sent
  }

  // Background loop state (start/stop). slotFreed wakes drain when any send ends, its own or
  // one a previous drain started.
  let slotFreed: (() => void) | null = null
  let loop: Promise<void> | null = null
  let stopping = false
  let wake: (() => void) | null = null
  const loopInFlight = new Set<Promise<unknown>>()

  return {
    start(startOptions = {}) {
      if (loop) return
      const concurrency = Math.max(1, Math.floor(startOptions.concurrency ?? defaultConcurrency))
      const pollIntervalMs = Math.max(10, startOptions.pollIntervalMs ?? 1000)
      stopping = false
      loop = (async () => {
        while (!stopping) {
          try {
            await drain(concurrency, () => !stopping, loopInFlight)
          } catch (error) {
            onError(error)
          }
          if (stopping) break
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollIntervalMs)
            wake = () => {
              clearTimeout(timer)
              resolve()
            }
          })
          wake = null
        }
        await Promise.all(loopInFlight)
      })()
    },

    async stop() {
      stopping = true
      wake?.()
      if (loop) await loop
      loop = null
    },

    async dispatch() {
      // Rounds of up to `concurrency` sends, until a round claims nothing new (a delivery due
      // again at once, e.g. with zero retry delays, ends the pass instead of looping).
      const seen = new Set<number>()
      let sent = 0
      for (;;) {
        const claimed = await storage.outbox.claim({ now: clock.now(), limit: defaultConcurrency, leaseMs })
        if (claimed.length === 0) break
        const fresh = claimed.filter((item) => !seen.has(item.delivery.id)).length
        for (const item of claimed) seen.add(item.delivery.id)
        const settingsOf = settingsMemo()
        await Promise.all(claimed.map((item) => deliver(item, settingsOf)))
        sent += claimed.length
        if (fresh === 0) break
      }
      return sent
    },

    async sendTest(projectId: string, endpointId: number, eventType: EventType): Promise<TestDeliveryResult> {
      const type = validate(eventTypeSchema, eventType, 'eventType')
      const webhookId = validate(idSchema, endpointId, 'webhookId')
      const project = await storage.projects.get(projectId)
      if (!project) throw new NotFoundError('project not found', 'projectId')
      const now = clock.now()
      const claimed = await storage.outbox.insertTestDelivery({
        event: sampleEvent(projectId, type, now, project.settings.currency),
        endpointId: webhookId,
        leaseUntil: new Date(now.getTime() + leaseMs),
      })
      if (!claimed) throw new NotFoundError('webhook endpoint not found', 'webhookId')
      const result = await deliver(claimed, async () => project.settings, true)
      const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300
      return { success, status: result.statusCode ?? 0, response: result.excerpt ?? result.error ?? '' }
    },
  }
}
