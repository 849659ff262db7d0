// One delivery attempt, as plain functions of the dispatcher's settled configuration: send a
// claimed delivery (signed headers, SSRF-guarded transport), decide its outcome and next attempt,
// record it, report it. dispatcher.ts claims the deliveries and runs these.
import type { Clock } from '../core/model/clock.js'
import type { ClaimedDelivery, OutboxStore } from '../core/ports/outbox-store.js'
import type { DeliveryStatus, EventType, ProjectSettings } from '../core/model/types.js'
import { deliveryHeaders } from './headers.js'
import type { SendResult, Transport, TransportOptions } from './transport.js'

export const DEFAULT_DELAYS = [5, 300, 1800]
/** Retry-After is honoured up to this many seconds (a day). */
const MAX_RETRY_AFTER_MS = 86_400_000

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
  /**
   * With `logger`: failed attempts to one endpoint, and the loop's storage errors, are logged at
   * most once per this interval, with a count of those since the last line. @default 60000
   */
  logIntervalMs?: number
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

/** What every attempt of a dispatcher shares: its storage, clock, transport and settled options. */
export interface DeliveryContext {
  storage: OutboxStore
  clock: Clock
  transport: Transport
  headerOptions: { headerPrefix: string; userAgent: string }
  leaseMs: number
  jitter: number
  onAttempt: ((report: AttemptReport) => void) | undefined
  onError: (error: unknown) => void
}

/** Settings per project, read once per batch of claimed deliveries (null: the project is gone). */
export type SettingsOf = (projectId: string) => Promise<ProjectSettings | null>

/** A fresh memo of project settings: a batch reads each project once, the next batch anew. */
export function settingsMemo(storage: OutboxStore): SettingsOf {
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

/** The wait before attempt + 1: the attempt's delay with +-jitter, or the receiver's Retry-After when longer (up to a day). */
export function nextDelayMs(delays: number[], attempt: number, result: SendResult, jitter: number, random = Math.random): number {
  const base = (delays[attempt - 1] ?? 0) * 1000
  const jittered = base * (1 + (random() * 2 - 1) * jitter)
  const retryAfter = Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)
  return Math.max(Math.round(jittered), retryAfter)
}

/** What one attempt leads to: the delivery's new status, and when the next attempt is due (null: none). */
export function attemptOutcome(
  result: SendResult,
  attempt: number,
  settings: ProjectSettings | null,
  endpointActive: boolean,
  final: boolean,
  now: Date,
  jitter: number,
): { ok: boolean; status: Exclude<DeliveryStatus, 'delivering'>; nextAttemptAt: Date | null } {
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300
  const delays = settings?.webhookRetryDelaysSeconds ?? DEFAULT_DELAYS
  const retry = !ok && !final && settings !== null && endpointActive && attempt <= delays.length
  const status = ok ? 'succeeded' : retry ? 'pending' : 'failed'
  // The wait counts from the end of this attempt: a receiver that timed out gets its full delay.
  const finishedAt = now.getTime() + Math.round(result.durationMs)
  const nextAttemptAt = retry ? new Date(finishedAt + nextDelayMs(delays, attempt, result, jitter)) : null
  return { ok, status, nextAttemptAt }
}

/** Sends a claimed delivery, unless its project is gone or its endpoint inactive (`final`: a test send goes anyway). */
async function send(ctx: DeliveryContext, claimed: ClaimedDelivery, settings: ProjectSettings | null, now: Date, final: boolean): Promise<SendResult> {
  const { event, endpoint } = claimed
  if (!settings) return { statusCode: null, durationMs: 0, excerpt: null, error: 'project not found', retryAfterMs: null }
  if (!endpoint.active && !final) return { statusCode: null, durationMs: 0, excerpt: null, error: 'endpoint is inactive', retryAfterMs: null }
  const headers = deliveryHeaders(claimed, now, ctx.headerOptions)
  return ctx.transport.post(endpoint.url, event.body, headers, settings.allowPrivateNetworks === true)
}

/** Sends one claimed delivery and records the attempt. `final`: no automatic retry (test sends). */
export async function deliver(ctx: DeliveryContext, claimed: ClaimedDelivery, settingsOf: SettingsOf, final = false): Promise<SendResult> {
  const { delivery, endpoint } = claimed
  const settings = await settingsOf(delivery.projectId)
  const now = ctx.clock.now()
  const result = await send(ctx, claimed, settings, now, final)
  const attempt = delivery.attempts + 1
  const { ok, status, nextAttemptAt } = attemptOutcome(result, attempt, settings, endpoint.active, final, now, ctx.jitter)
  const error = result.error ?? (ok ? null : `HTTP ${result.statusCode}`)
  await ctx.storage.outbox.recordAttempt({
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
  if (ctx.onAttempt) {
    const outcome = status === 'pending' ? 'retrying' : status
    const { projectId, endpointId, id: deliveryId, eventType } = delivery
    const report = { projectId, endpointId, deliveryId, eventType, attempt, outcome, statusCode: result.statusCode, error, durationMs: result.durationMs, nextAttemptAt, test: final } as const
    try {
      ctx.onAttempt(report)
    } catch (hookError) {
      ctx.onError(hookError)
    }
  }
  return result
}
