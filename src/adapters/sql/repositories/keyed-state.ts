// The keyed-state store in SQL: Idempotency-Key claims (idempotency_keys, one upsert decides who
// holds a key) and the rate limiter's numbers (rate_limits, each change one statement), shared by every
// process on the database.
import type { KeyClaim, KeyedNumberChange, KeyedStateStore } from '../../../core/ports/keyed-state.js'
import { run } from '../codec.js'
import type { SqlClient, SqlRow } from '../executor.js'
import type { Tables } from '../tables.js'

export function keyedStateStore(db: SqlClient, t: Tables): KeyedStateStore {
  const table = `${t.schema}.idempotency_keys`
  const limits = `${t.schema}.rate_limits`
  const read = (row: SqlRow): KeyClaim => ({
    projectId: String(row.project_id),
    key: String(row.key),
    fingerprint: String(row.fingerprint),
    response: row.response_status === null ? null : { status: Number(row.response_status), body: String(row.response_body) },
    createdAt: new Date(row.created_at as Date),
    // Claims stored before leases existed have none: they count as expired.
    leaseUntil: new Date((row.lease_until ?? row.created_at) as Date),
    expiresAt: new Date(row.expires_at as Date),
  })
  return {
    async claim(claim) {
      const params = [
        claim.projectId,
        claim.key,
        claim.fingerprint,
        claim.response?.status ?? null,
        claim.response?.body ?? null,
        claim.createdAt,
        claim.leaseUntil,
        claim.expiresAt,
      ]
      for (let attempt = 0; attempt < 5; attempt += 1) {
        // Takes the key when free, expired, or left unanswered by a claim of the same request
        // whose lease ran out; a standing record makes the upsert write nothing.
        const claimed = await run(
          db,
          `INSERT INTO ${table} (project_id, key, fingerprint, response_status, response_body, created_at, lease_until, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (project_id, key) DO UPDATE SET fingerprint = excluded.fingerprint,
             response_status = excluded.response_status, response_body = excluded.response_body,
             created_at = excluded.created_at, lease_until = excluded.lease_until, expires_at = excluded.expires_at
           WHERE ${table}.expires_at <= excluded.created_at
             OR (${table}.response_status IS NULL AND ${table}.fingerprint = excluded.fingerprint
                 AND coalesce(${table}.lease_until, ${table}.created_at) <= excluded.created_at)
           RETURNING key`,
          params,
        )
        if (claimed.length > 0) return null
        const live = await run(db, `SELECT * FROM ${table} WHERE project_id = $1 AND key = $2`, [claim.projectId, claim.key])
        if (live[0]) return read(live[0])
      }
      throw new Error('keyedState.claim: the key kept changing; try again')
    },
    async renew(projectId, key, claimedAt, leaseUntil) {
      await run(
        db,
        `UPDATE ${table} SET lease_until = $4 WHERE project_id = $1 AND key = $2 AND created_at = $3 AND response_status IS NULL`,
        [projectId, key, claimedAt, leaseUntil],
      )
    },
    async settle(projectId, key, claimedAt, response) {
      await run(
        db,
        `UPDATE ${table} SET response_status = $4, response_body = $5 WHERE project_id = $1 AND key = $2 AND created_at = $3`,
        [projectId, key, claimedAt, response.status, response.body],
      )
    },
    async release(projectId, key, claimedAt) {
      await run(db, `DELETE FROM ${table} WHERE project_id = $1 AND key = $2 AND created_at = $3`, [projectId, key, claimedAt])
    },
    async update(key, change) {
      // Each change is one statement, so the key's row is locked for that statement only; one
      // that changes nothing returns no row, and the number it met is read after it.
      const [statement, params] = changeStatement(limits, key, change)
      const changed = await run(db, statement, params)
      if (changed[0]) return { state: numberOrNull(changed[0].state), changed: true }
      const met = await run(db, `SELECT state FROM ${limits} WHERE key = $1`, [key])
      return { state: numberOrNull(met[0]?.state), changed: false }
    },
  }
}

const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))

/** The one statement that makes `change` (KeyedNumberChange), returning the row only when it changed it. */
function changeStatement(limits: string, key: string, change: KeyedNumberChange): [string, unknown[]] {
  switch (change.kind) {
    case 'take':
      // The GCRA step of server/gcra.ts in the same float8 arithmetic; greatest() skips a NULL state.
      return [
        `INSERT INTO ${limits} (key, state) VALUES ($1, $2::float8 + $3::float8)
         ON CONFLICT (key) DO UPDATE SET state = greatest(${limits}.state, $2::float8) + $3::float8
         WHERE greatest(${limits}.state, $2::float8) + $3::float8 - $4::float8 <= $2::float8
         RETURNING state`,
        [key, change.now, change.interval, change.windowMs],
      ]
    case 'giveBack':
      return [`UPDATE ${limits} SET state = state - $2::float8 WHERE key = $1 AND state IS NOT NULL RETURNING state`, [key, change.amount]]
    case 'initialize':
      return [`INSERT INTO ${limits} (key, state) VALUES ($1, $2::float8) ON CONFLICT (key) DO NOTHING RETURNING state`, [key, change.value]]
  }
}
