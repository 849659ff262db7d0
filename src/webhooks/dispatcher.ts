// createWebhookDispatcher: a peer of the program over the same storage. Claims due deliveries
// from the outbox (leases, so several processes can share a Postgres), signs, POSTs, records every
// attempt and schedules retries (docs/webhooks.md "Delivery and retries"); sends test deliveries.
// One dispatcher serves every project of a storage. The factory only wires named functions: one
// attempt (delivery.ts), drain (claims with bounded concurrency), dispatchOnce, the background
// loop, sendTest.
import { systemClock, type Clock } from '../core/model/clock.js'
import { NotFoundError } from '../core/model/errors.js'
import { eventType as eventTypeSchema, id as idSchema, validate } from '../core/model/schemas.js'
import type { EventType } from '../core/model/types.js'
import { deliver, settingsMemo, type DeliveryContext, type DeliveryOptions } from './delivery.js'
import { observedDispatcherOptions } from './delivery-log.js'
import type { Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import type { OutboxStore } from '../core/ports/outbox-store.js'
import { sampleEvent } from './samples.js'
import { createTransport } from './transport.js'

export { DEFAULT_DELAYS } from './delivery.js'
export type { AttemptReport, DeliveryOptions } from './delivery.js'

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

/** A dispatcher's settled configuration: the attempts' context and its default concurrency. */
interface DispatcherContext extends DeliveryContext {
  concurrency: number
}

/** Settles the options: defaults, the logger's and metrics' hooks, the transport. */
export function dispatcherContext(dispatcherOptions: WebhookDispatcherOptions): DispatcherContext {
  const { storage, clock = systemClock, logger, metrics, ...delivery } = dispatcherOptions
  const options = observedDispatcherOptions(delivery, logger, metrics)
  return {
    storage,
    clock,
    transport: createTransport(options),
    headerOptions: { headerPrefix: options.headerPrefix ?? 'X-Service', userAgent: options.userAgent ?? 'Service-Webhooks/1.0' },
    leaseMs: options.leaseMs ?? 60_000,
    jitter: options.jitter ?? 0.2,
    concurrency: options.concurrency ?? 16,
    onAttempt: options.onAttempt,
    onError: options.onError ?? ((error: unknown) => console.error('affiliate-kit webhooks:', error)),
  }
}

/** Wakes a drain waiting for a free slot: called whenever a send ends, a drain's own or an earlier one's. */
interface SlotSignal {
  freed: (() => void) | null
}

/** Claims and sends with at most `concurrency` in flight, until nothing is due or `running()` turns false. */
export async function drain(ctx: DispatcherContext, concurrency: number, running: () => boolean, inFlight: Set<Promise<unknown>>, slot: SlotSignal): Promise<number> {
  let sent = 0
  while (running()) {
    const free = concurrency - inFlight.size
    // Claim in batches (once half the slots are free): each claim scans or queries the outbox.
    if (free <= 0 || (inFlight.size > 0 && free < Math.ceil(concurrency / 2))) {
      await new Promise<void>((resolve) => (slot.freed = resolve))
      continue
    }
    const claimed = await ctx.storage.outbox.claim({ now: ctx.clock.now(), limit: free, leaseMs: ctx.leaseMs })
    if (claimed.length === 0) break
    const settingsOf = settingsMemo(ctx.storage)
    for (const item of claimed) {
      sent++
      const sending: Promise<unknown> = deliver(ctx, item, settingsOf)
        .catch(ctx.onError)
        .finally(() => {
          inFlight.delete(sending)
          slot.freed?.()
        })
      inFlight.add(sending)
    }
  }
  return sent
}

/**
 * One pass: rounds of up to `concurrency` sends, until a round claims nothing new (a delivery due
 * again at once, e.g. with zero retry delays, ends the pass instead of looping).
 */
export async function dispatchOnce(ctx: DispatcherContext): Promise<number> {
  const seen = new Set<number>()
  let sent = 0
  for (;;) {
    const claimed = await ctx.storage.outbox.claim({ now: ctx.clock.now(), limit: ctx.concurrency, leaseMs: ctx.leaseMs })
    if (claimed.length === 0) break
    const fresh = claimed.filter((item) => !seen.has(item.delivery.id)).length
    for (const item of claimed) seen.add(item.delivery.id)
    const settingsOf = settingsMemo(ctx.storage)
    await Promise.all(claimed.map((item) => deliver(ctx, item, settingsOf)))
    sent += claimed.length
    if (fresh === 0) break
  }
  return sent
}

/** Sends sample data of eventType to one endpoint of the project now, recorded in the delivery log. */
export async function sendTest(ctx: DispatcherContext, projectId: string, endpointId: number, eventType: EventType): Promise<TestDeliveryResult> {
  const type = validate(eventTypeSchema, eventType, 'eventType')
  const webhookId = validate(idSchema, endpointId, 'webhookId')
  const project = await ctx.storage.projects.get(projectId)
  if (!project) throw new NotFoundError('project not found', 'projectId')
  const now = ctx.clock.now()
  const claimed = await ctx.storage.outbox.insertTestDelivery({
    event: sampleEvent(projectId, type, now, project.settings.currency),
    endpointId: webhookId,
    leaseUntil: new Date(now.getTime() + ctx.leaseMs),
  })
  if (!claimed) throw new NotFoundError('webhook endpoint not found', 'webhookId')
  const result = await deliver(ctx, claimed, async () => project.settings, true)
  const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300
  return { success, status: result.statusCode ?? 0, response: result.excerpt ?? result.error ?? '' }
}

/** The background loop of start() and stop(): drains, then waits pollIntervalMs (or a stop) before the next drain. */
export function backgroundLoop(ctx: DispatcherContext): Pick<WebhookDispatcher, 'start' | 'stop'> {
  const slot: SlotSignal = { freed: null }
  const inFlight = new Set<Promise<unknown>>()
  let loop: Promise<void> | null = null
  let stopping = false
  let wake: (() => void) | null = null
  const pause = (pollIntervalMs: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollIntervalMs)
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  return {
    start(startOptions = {}) {
      if (loop) return
      const concurrency = Math.max(1, Math.floor(startOptions.concurrency ?? ctx.concurrency))
      const pollIntervalMs = Math.max(10, startOptions.pollIntervalMs ?? 1000)
      stopping = false
      loop = (async () => {
        while (!stopping) {
          try {
            await drain(ctx, concurrency, () => !stopping, inFlight, slot)
          } catch (error) {
            ctx.onError(error)
          }
          if (stopping) break
          await pause(pollIntervalMs)
          wake = null
        }
        await Promise.all(inFlight)
      })()
    },
    async stop() {
      stopping = true
      wake?.()
      if (loop) await loop
      loop = null
    },
  }
}

export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const ctx = dispatcherContext(options)
  return {
    ...backgroundLoop(ctx),
    dispatch: () => dispatchOnce(ctx),
    sendTest: (projectId, endpointId, eventType) => sendTest(ctx, projectId, endpointId, eventType),
  }
}
