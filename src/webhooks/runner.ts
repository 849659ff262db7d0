// The webhook dispatcher behind program.webhooks.start/stop/dispatch/test: claims due deliveries
// from the outbox (leases, so several processes can share a Postgres), signs, POSTs, records every
// attempt and schedules retries (docs/webhooks.md "Delivery and retries"). One runner serves every project of a storage.
import type { AffiliateProgram, TestDeliveryResult, WebhookRunner } from '../core/program.js'
import type { ClaimedDelivery } from '../core/storage.js'
import type { DeliveryStatus, EventType, ProjectSettings } from '../core/types.js'
import { NotFoundError } from '../core/errors.js'
import { deliveryHeaders } from './headers.js'
import { sampleEvent } from './samples.js'
import { createTransport, type SendResult, type TransportOptions } from './transport.js'

export interface WebhookRunnerOptions extends TransportOptions {
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

const DEFAULT_DELAYS = [5, 300, 1800]
/** Retry-After is honoured up to this many seconds (a day). */
const MAX_RETRY_AFTER_MS = 86_400_000

export function createWebhookRunner(program: AffiliateProgram, options: WebhookRunnerOptions = {}): WebhookRunner {
  const headerOptions = { headerPrefix: options.headerPrefix ?? 'X-Service', userAgent: options.userAgent ?? 'Service-Webhooks/1.0' }
  const leaseMs = options.leaseMs ?? 60_000
  const jitter = options.jitter ?? 0.2
  const defaultConcurrency = options.concurrency ?? 16
  const transport = createTransport(options)
  const onError = options.onError ?? ((error: unknown) => console.error('affiliate-kit webhooks:', error))
  const { storage, clock } = program

  async function settingsOf(projectId: string): Promise<ProjectSettings | null> {
    try {
      return (await program.projects.get(projectId)).settings
    } catch (error) {
      // A storage failure is not "no project": let it surface; the lease brings the delivery back.
      if (error instanceof NotFoundError) return null
      throw error
    }
  }

  function nextDelayMs(delays: number[], attempt: number, result: SendResult): number {
    const base = (delays[attempt - 1] ?? 0) * 1000
    const jittered = base * (1 + (Math.random() * 2 - 1) * jitter)
    const retryAfter = Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)
    return Math.max(Math.round(jittered), retryAfter)
  }

  /** Sends one claimed delivery and records the attempt. `final`: no automatic retry (test sends). */
  async function deliver(claimed: ClaimedDelivery, final = false): Promise<SendResult> {
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
        await Promise.race(inFlight)
        continue
      }
      const claimed = await storage.outbox.claim({ now: clock.now(), limit: free, leaseMs })
      if (claimed.length === 0) break
      for (const item of claimed) {
        sent++
        const sending: Promise<unknown> = deliver(item)
          .catch(onError)
          .finally(() => inFlight.delete(sending))
        inFlight.add(sending)
      }
    }
    return sent
  }

  // Background loop state (start/stop).
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
        await Promise.all(claimed.map((item) => deliver(item)))
        sent += claimed.length
        if (fresh === 0) break
      }
      return sent
    },

    async sendTest(projectId: string, endpointId: number, eventType: EventType): Promise<TestDeliveryResult> {
      const settings = (await program.projects.get(projectId)).settings
      const now = clock.now()
      const claimed = await storage.outbox.insertTestDelivery({
        event: sampleEvent(projectId, eventType, now, settings.currency),
        endpointId,
        leaseUntil: new Date(now.getTime() + leaseMs),
      })
      if (!claimed) throw new NotFoundError('webhook endpoint not found', 'webhookId')
      const result = await deliver(claimed, true)
      const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300
      return { success, status: result.statusCode ?? 0, response: result.excerpt ?? result.error ?? '' }
    },
  }
}
