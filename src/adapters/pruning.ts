// Pruning what grows without bound (docs/operations.md "Retention"): one pass deletes, per kind,
// batches of rows until a batch comes back short or the pass's batch budget is spent (the rest
// waits for the next pass), so a pass never holds the database for long; and it keeps the raw
// clicks' monthly partitions (docs/analytics.md): the next months made ahead, the months past
// `clickRetentionMonths` dropped whole. `affiliate-kit serve` runs a pass an hour; an embedding
// app calls `pruneStorage` and `keepClickPartitions` from its own scheduler, or starts `startPruning`.
import type { Clock } from '../core/model/clock.js'
import { CLICK_MONTHS_AHEAD, type WithClickPartitions } from '../core/ports/analytics.js'
import { PRUNED_KINDS, type PrunedKind, type RetentionStore, type WithRetention } from '../core/ports/retention.js'
import { errorText, type Logger } from '../ops/logger.js'

export interface RetentionOptions {
  /** Days a webhook delivery attempt (of a delivery that succeeded or failed) is kept. @default 30 */
  deliveryAttemptsDays?: number
  /** Days the visitor marks that count a click once per visitor and day, and the visitors' fraud signals, are kept. @default 90 */
  visitorMarksDays?: number
  /** Rows per statement. @default 1000 */
  batchSize?: number
  /** Statements per kind and pass. @default 20 */
  maxBatches?: number
  /**
   * Whole months of raw link clicks kept before the current month (UTC months of their hour):
   * older months are dropped, their rollups kept (docs/analytics.md "Retention and partitions").
   * @default kept forever
   */
  clickRetentionMonths?: number
}

const DAY_MS = 86_400_000

/** The moment before which each kind is pruned, at `now`. */
function cutoffs(now: Date, options: RetentionOptions): Record<PrunedKind, Date> {
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS)
  return {
    idempotency_keys: now,
    sessions: now,
    visitor_marks: daysAgo(options.visitorMarksDays ?? 90),
    // A signal names one day's visitor hash, which no click signed after that day carries.
    visitor_signals: daysAgo(options.visitorMarksDays ?? 90),
    delivery_attempts: daysAgo(options.deliveryAttemptsDays ?? 30),
  }
}

/** One pass over every kind; resolves with how many rows of each went. */
export async function pruneStorage(storage: WithRetention | RetentionStore, now: Date, options: RetentionOptions = {}): Promise<Record<PrunedKind, number>> {
  const store = 'retention' in storage ? storage.retention : storage
  const batchSize = options.batchSize ?? 1000
  const before = cutoffs(now, options)
  const pruned = {} as Record<PrunedKind, number>
  for (const kind of PRUNED_KINDS) {
    pruned[kind] = 0
    for (let batch = 0; batch < (options.maxBatches ?? 20); batch += 1) {
      const count = await store.prune(kind, before[kind], batchSize)
      pruned[kind] += count
      if (count < batchSize) break
    }
  }
  return pruned
}

/**
 * The raw clicks' months: the current one and the next ones made ahead, and, with
 * clickRetentionMonths, those before the kept months dropped. Resolves with how many were dropped.
 */
export async function keepClickPartitions(storage: WithClickPartitions, now: Date, options: Pick<RetentionOptions, 'clickRetentionMonths'> = {}): Promise<number> {
  await storage.clickPartitions.prepare(now, CLICK_MONTHS_AHEAD)
  const months = options.clickRetentionMonths
  if (months === undefined) return 0
  return storage.clickPartitions.dropBefore(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1)))
}

export interface PruningJob {
  /** Stops the timer and waits for a running pass. */
  stop(): Promise<void>
}

/**
 * Runs `pruneStorage` (and `keepClickPartitions` on a storage with click partitions) every
 * `everyMs` (first after `firstAfterMs`); a failed pass is logged and the next one tries again.
 */
export function startPruning(
  storage: WithRetention & Partial<WithClickPartitions>,
  options: RetentionOptions & { clock: Clock; logger?: Logger; everyMs?: number; firstAfterMs?: number },
): PruningJob {
  let running: Promise<void> = Promise.resolve()
  let stopped = false
  const partitions = storage.clickPartitions
  const pass = () => {
    const now = options.clock.now()
    running = pruneStorage(storage, now, options)
      .then(async (pruned) => {
        const total = Object.values(pruned).reduce((sum, count) => sum + count, 0)
        if (total > 0) options.logger?.info(`pruned ${total} rows`, pruned)
        const dropped = partitions ? await keepClickPartitions({ clickPartitions: partitions }, now, options) : 0
        if (dropped > 0) options.logger?.info(`dropped ${dropped} months of link clicks`, { months: dropped, keptMonths: options.clickRetentionMonths })
      })
      .catch((error: unknown) => options.logger?.warn('pruning failed; the next pass tries again', { error: errorText(error) }))
      .finally(() => {
        if (!stopped) timer = setTimeout(pass, options.everyMs ?? 3_600_000).unref()
      })
  }
  let timer = setTimeout(pass, options.firstAfterMs ?? 60_000).unref()
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
