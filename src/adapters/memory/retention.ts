// Pruning in process memory (the retention port): the same rows as in SQL, at most `limit` per
// kind and call, taken under the storage's mutex so no transaction sees a half-pruned state.
import type { RetentionStore } from '../../core/ports/retention.js'
import type { MemoryKeyedState } from './keyed-state.js'
import type { Mutex } from './mutex.js'
import type { MemorySessionStore } from './repositories/sessions.js'
import type { MemoryState } from './state.js'

const utcDay = (at: Date) => at.toISOString().slice(0, 10)

export function memoryRetention(state: MemoryState, mutex: Mutex, keyedState: MemoryKeyedState, sessions: MemorySessionStore): RetentionStore {
  return {
    prune: (kind, before, limit) =>
      mutex.run(async () => {
        let count = 0
        if (kind === 'idempotency_keys') return keyedState.pruneExpired(before, limit)
        if (kind === 'sessions') return sessions.pruneExpired(before, limit)
        if (kind === 'visitor_marks') {
          const day = utcDay(before)
          for (const mark of state.tracking.visitors) {
            if (count === limit) break
            // A mark is `${projectId}|${affiliateId}|${day}|${visitor}`.
            if (mark.split('|')[2]! < day && state.tracking.visitors.delete(mark)) count += 1
          }
          return count
        }
        if (kind === 'visitor_signals') {
          const day = utcDay(before)
          for (const [key, signals] of state.tracking.visitorSignals) {
            if (count === limit) break
            if (signals.day < day && state.tracking.visitorSignals.delete(key)) count += 1
          }
          return count
        }
        for (const attempt of state.attempts.rows.values()) {
          if (count === limit) break
          const status = state.deliveries.get(attempt.deliveryId)?.status
          if (attempt.attemptedAt < before && (status === 'succeeded' || status === 'failed')) {
            state.attempts.remove(attempt.id, [])
            count += 1
          }
        }
        return count
      }),
  }
}
