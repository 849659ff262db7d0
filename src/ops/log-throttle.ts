// A record that would repeat for every request or attempt while a fault lasts (the database
// down, a webhook receiver down) is written at the first event of its key, then at most once per
// interval with the count of events since its last line.

/** Per key: when its last line was written, and the events since. */
interface Window {
  loggedAt: number
  since: number
}

export interface LogThrottle {
  /** An event of `key`: the count to log with (and whether it is the key's first), or null to stay quiet. */
  event(key: string): { count: number; first: boolean } | null
  /** Ends the key's run of events: the count not logged yet (0 when none), or null when none ran. */
  end(key: string): number | null
}

export function logThrottle(intervalMs: number): LogThrottle {
  const windows = new Map<string, Window>()
  return {
    event(key) {
      const now = performance.now()
      const window = windows.get(key)
      if (!window) {
        windows.set(key, { loggedAt: now, since: 0 })
        return { count: 1, first: true }
      }
      window.since += 1
      if (now - window.loggedAt < intervalMs) return null
      const count = window.since
      window.loggedAt = now
      window.since = 0
      return { count, first: false }
    },
    end(key) {
      const window = windows.get(key)
      if (!window) return null
      windows.delete(key)
      return window.since
    },
  }
}
