// The keyed-state store in SQL: Idempotency-Key claims (idempotency_keys, one upsert decides who
// holds a key) and the rate limiter's numbers (rate_limits, row-locked per key), shared by every
// process on the database.
import type { KeyClaim, KeyedStateStore } from '../../../core/ports/keyed-state.js'
import { run } from '../codec.js'
import type { SqlClient, SqlRow } from '../executor.js'
import type { Tables } from '../tables.js'

export function keyedStateStore(db: SqlClient, t: Tables): KeyedStateStore {
  const table = `${t.schema}.idempotency_keys`
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
    update: (key, decide) =>
      db.transaction(async (client) => {
        const limits = `${t.schema}.rate_limits`
        // The no-op upsert creates or row-locks the key and returns its state in one statement.
        const rows = await run(
          client,
          `INSERT INTO ${limits} (key, state) VALUES ($1, NULL) ON CONFLICT (key) DO UPDATE SET key = excluded.key RETURNING state`,
          [key],
        )
        const current = rows[0]?.state
        const { state, result } = decide(current === null || current === undefined ? null : Number(current))
        await run(client, `UPDATE ${limits} SET state = $2 WHERE key = $1`, [key, state])
        return result
      }),
  }
}
