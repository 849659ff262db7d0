// Round trips to PostgreSQL, counted for the SQL benches: the waits for an answer a pg client
// makes (BEGIN and COMMIT included) from the moment countRoundTrips is called. A statement written
// while the client still waits for an earlier one (pg's pipeline mode) shares that wait.
import pg from 'pg'

export interface RoundTrips {
  count: number
}

/** Wraps pg.Client's query for the rest of the process; the returned counter grows with each wait. */
export function countRoundTrips(): RoundTrips {
  const roundTrips: RoundTrips = { count: 0 }
  const unanswered = new WeakMap<pg.Client, number>()
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const waiting = unanswered.get(this) ?? 0
    if (waiting === 0) roundTrips.count += 1
    unanswered.set(this, waiting + 1)
    const answered = () => unanswered.set(this, unanswered.get(this)! - 1)
    const result = (query as (...args: unknown[]) => unknown).apply(this, args)
    if (result instanceof Promise) result.then(answered, answered)
    else answered()
    return result
  } as typeof query
  return roundTrips
}
