// Round trips to PostgreSQL, counted for the SQL benches: every statement a pg client sends
// (BEGIN and COMMIT included) from the moment countRoundTrips is called.
import pg from 'pg'

export interface RoundTrips {
  count: number
}

/** Wraps pg.Client's query for the rest of the process; the returned counter grows with each statement. */
export function countRoundTrips(): RoundTrips {
  const roundTrips: RoundTrips = { count: 0 }
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    roundTrips.count += 1
    return (query as (...args: unknown[]) => unknown).apply(this, args)
  } as typeof query
  return roundTrips
}
