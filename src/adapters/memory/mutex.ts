// The one lock of the in-memory adapter.

/**
 * Serializes async work: each run starts after the previous one settled. A run that waits longer
 * than `waitLimitMs` for its turn fails instead of waiting forever, like a database's lock wait
 * timeout: that is how a call on the root storage made inside a transaction (which could never
 * get its turn) fails loudly. Timers are armed only when the lock is busy.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve()
  private queued = 0

  constructor(private readonly waitLimitMs: number) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    const busy = this.queued > 0
    this.queued += 1
    let timer: ReturnType<typeof setTimeout> | undefined
    let expired = false
    const turn = this.tail.then(() => {
      if (timer) clearTimeout(timer)
      if (expired) return undefined as T
      return work()
    })
    this.tail = turn.then(
      () => {
        this.queued -= 1
      },
      () => {
        this.queued -= 1
      },
    )
    if (!busy) return turn
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true
        reject(new Error(LOCK_WAIT_MESSAGE(this.waitLimitMs)))
      }, this.waitLimitMs)
    })
    return Promise.race([turn, timeout])
  }
}

const LOCK_WAIT_MESSAGE = (ms: number) =>
  `memoryStorage: waited ${ms} ms for another transaction to finish; was the root storage used inside a transaction? Use the tx argument there`
