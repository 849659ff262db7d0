// The clicks waiting to be written (docs/analytics.md "The click path"): a bounded in-process
// queue flushed in batches through the program's recordClicks (one transaction of multi-row
// statements each), every `flushMilliseconds` or as soon as `maxBatch` wait, and on close. With
// flushMilliseconds 0 each visit's answer waits for the batch its click went into (the clicks of
// concurrent visits share one). A kill -9 loses at most the clicks of one interval; the visitor's
// referral, which lives in the browser, is never lost.
import type { ClickOutcome, ClickVisit } from '../core/affiliates/click-flush.js'
import type { Logger } from '../ops/logger.js'

export interface ClickBufferOptions {
  /** How long a click may wait for its row; 0: written before the visit is answered. @default 0 (the standalone server: 1000) */
  flushMilliseconds?: number
  /** A flush starts as soon as this many clicks wait; each transaction writes at most this many. @default 500 */
  maxBatch?: number
  /** Clicks kept while the database cannot take them; past it new ones are dropped and logged. @default 50000 */
  maxBuffered?: number
}

export interface ClickBuffer {
  /** Queues the click; resolves when its batch is written (rejects, without a buffer interval, when it cannot be). */
  add(visit: ClickVisit): Promise<ClickOutcome>
  /** Whether add's answer waits for the write (flushMilliseconds 0). */
  readonly waits: boolean
  /** Writes every queued click. */
  flush(): Promise<void>
  /** Stops the timer and writes what waits; clicks added later are written at once. */
  close(): Promise<void>
  /** Clicks dropped because the queue was full. */
  readonly dropped: number
}

interface Waiting {
  visit: ClickVisit
  resolve(outcome: ClickOutcome): void
  reject(error: unknown): void
}

const NOT_COUNTED: ClickOutcome = { counted: false, newVisitor: false }

export function createClickBuffer(record: (visits: readonly ClickVisit[]) => Promise<ClickOutcome[]>, options: ClickBufferOptions = {}, logger?: Logger): ClickBuffer {
  const interval = options.flushMilliseconds ?? 0
  const maxBatch = options.maxBatch ?? 500
  const maxBuffered = options.maxBuffered ?? 50_000
  for (const [name, value] of Object.entries({ flushMilliseconds: interval, maxBatch, maxBuffered })) {
    if (!Number.isSafeInteger(value) || value < (name === 'flushMilliseconds' ? 0 : 1)) throw new TypeError(`clicks.${name} must be a ${name === 'flushMilliseconds' ? 'non-negative' : 'positive'} integer`)
  }
  let queue: Waiting[] = []
  let running: Promise<void> | null = null
  let timer: NodeJS.Timeout | null = null
  let closed = false
  let dropped = 0
  /** What the next drain writes: only full batches (true), everything (false); null when no flush asked. */
  let fullOnly: boolean | null = null

  /** Writes batches until the queue is empty; a batch that fails goes back to the front (kept for the next interval) or, without one, fails its visits. */
  async function drain(): Promise<void> {
    // A timer's, close's or a waiting visit's flush writes everything; a full batch's only full batches.
    const all = fullOnly === false
    fullOnly = null
    while (queue.length > 0 && (all || interval === 0 || closed || queue.length >= maxBatch)) {
      const batch = queue.slice(0, maxBatch)
      queue = queue.slice(batch.length)
      try {
        const outcomes = await record(batch.map((waiting) => waiting.visit))
        batch.forEach((waiting, index) => waiting.resolve(outcomes[index] ?? NOT_COUNTED))
      } catch (error) {
        if (interval === 0 || closed) {
          for (const waiting of batch) waiting.reject(error)
          continue
        }
        queue = [...batch, ...queue]
        logger?.warn('clicks could not be written; kept for the next flush', { waiting: queue.length, error: error instanceof Error ? error.message : String(error) })
        return
      }
    }
  }

  /** Runs drain, or lets the running one go on to everything (`full` false). */
  function flush(full = false): Promise<void> {
    if (!full || fullOnly === null) fullOnly = full
    running ??= drain().finally(() => {
      running = null
    })
    return running
  }

  function schedule(): void {
    if (interval === 0 || closed) {
      // The clicks of visits answered in the same turn share one batch.
      if (!running) queueMicrotask(() => void flush())
      else void running.then(() => flush())
      return
    }
    if (queue.length >= maxBatch) void flush(true)
    else if (!timer) {
      timer = setTimeout(() => {
        timer = null
        void flush().then(() => queue.length > 0 && !closed && schedule())
      }, interval)
      timer.unref()
    }
  }

  return {
    waits: interval === 0,
    get dropped() {
      return dropped
    },
    add(visit) {
      if (queue.length >= maxBuffered) {
        dropped += 1
        if (dropped === 1 || dropped % 1000 === 0) logger?.warn('click buffer full: clicks dropped', { dropped, maxBuffered })
        return Promise.resolve(NOT_COUNTED)
      }
      return new Promise<ClickOutcome>((resolve, reject) => {
        queue.push({ visit, resolve, reject })
        schedule()
      })
    },
    flush: () => flush(),
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = null
      while (running) await running
      await flush()
    },
  }
}
