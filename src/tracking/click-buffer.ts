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
  let timer: NodeJS.Timeout | null = null
  let closed = false
  let dropped = 0
  /** The drains, one after another (a batch at a time), and the one asked for next (asked once however often). */
  let chain = Promise.resolve()
  let next: { all: boolean } | null = null

  /**
   * Writes batches: every one (`all`), else only full ones. A batch that fails goes back to the
   * front for the next interval or, without one (or closing), fails its visits.
   */
  async function drain(all: boolean): Promise<void> {
    while (queue.length > 0 && (all || queue.length >= maxBatch)) {
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

  function flush(all: boolean): Promise<void> {
    if (next) next.all ||= all
    else {
      const asked = (next = { all })
      chain = chain.then(() => {
        next = null
        return drain(asked.all)
      })
    }
    return chain
  }

  function schedule(): void {
    // Without an interval the clicks that arrive while a batch is written go together in the next.
    if (interval === 0 || closed) void flush(true)
    else if (queue.length >= maxBatch) void flush(false)
    else if (!timer) {
      timer = setTimeout(() => {
        timer = null
        void flush(true).then(() => queue.length > 0 && schedule())
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
    flush: () => flush(true),
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = null
      await flush(true)
    },
  }
}
