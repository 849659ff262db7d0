// The webhook outbox (events, deliveries with leases claimed FOR UPDATE SKIP LOCKED, attempts)
// and the delivery log's tables.
import { deliveryAttemptRules, deliveryRules } from '../../../core/ports/entity-filters.js'
import type { ClaimedDelivery } from '../../../core/ports/outbox-store.js'
import type { StorageTx } from '../../../core/ports/storage.js'
import type { AdapterOutbox } from '../../storage-port.js'
import { atomic, decode, run } from '../codec.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient, SqlRow } from '../executor.js'
import type { Tables } from '../tables.js'
import { flushPending, type TransactionState } from './transaction-state.js'
import { mailOfEvent } from '../../../core/model/mail-kinds.js'
import { MAIL_INSERT_COLUMNS, mailParams, mailRowsSelect } from './mail.js'

/** The columns of `row` named `prefix` + column, without the prefix. */
function unprefixed(row: SqlRow, prefix: string): SqlRow {
  const columns: SqlRow = {}
  for (const name in row) if (name.startsWith(prefix)) columns[name.slice(prefix.length)] = row[name]
  return columns
}

/** A table's columns under its alias's prefix (a claim reads event and endpoint columns side by side). */
function prefixed(table: Tables['events'] | Tables['endpoints'], alias: string): string {
  return Object.values(table.columns).map(({ column }) => `${alias}.${column} AS "${alias}.${column}"`).join(', ')
}

export function outboxRepository(db: SqlClient, t: Tables, cache: TransactionState | null): AdapterOutbox {
  const deliveries = t.deliveries
  const repository: AdapterOutbox = {
    async enqueue(event) {
      const mail = mailOfEvent(event)
      if (!cache) {
        if (mail) await run(db, `INSERT INTO ${t.mail.name} (${MAIL_INSERT_COLUMNS}) ${mailRowsSelect(1)} WHERE EXISTS (SELECT 1 FROM ${t.mailSwitch})`, mailParams([mail]))
        await run(
          db,
          `WITH subscribed AS (
             SELECT id FROM ${t.endpoints.name}
             WHERE project_id = $1 AND active AND events @> jsonb_build_array($2::text)
           ), event AS (
             INSERT INTO ${t.events.name} (project_id, type, body, created_at)
             SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM subscribed) RETURNING id
           )
           INSERT INTO ${deliveries.name}
             (project_id, event_id, endpoint_id, event_type, status, attempts, next_attempt_at, created_at, updated_at)
           SELECT $1, event.id, subscribed.id, $2, 'pending', 0, $4, $4, $4
           FROM event CROSS JOIN subscribed ORDER BY subscribed.id`,
          [event.projectId, event.type, JSON.stringify(event.payload), event.createdAt],
        )
        return
      }
      // In a transaction the project's active endpoints are read once: a create that records
      // several events (or none, with no endpoint) costs one lookup.
      let endpoints = cache.endpoints.get(event.projectId)
      if (!endpoints || cache.mailOn === null) {
        // One row at least: whether mail is on, beside each active endpoint (none: a null id).
        const rows = await run(
          db,
          `SELECT e.id, e.events, m.enabled FROM (SELECT EXISTS (SELECT 1 FROM ${t.mailSwitch}) AS enabled) m
           LEFT JOIN ${t.endpoints.name} e ON e.project_id = $1 AND e.active ORDER BY e.id`,
          [event.projectId],
        )
        endpoints = rows.filter((row) => row.id !== null).map((row) => ({ id: Number(row.id), events: decode('json', row.events) as string[] }))
        cache.endpoints.set(event.projectId, endpoints)
        cache.mailOn = rows[0]?.enabled === true
      }
      const subscribed = endpoints.filter((endpoint) => endpoint.events.includes(event.type)).map((endpoint) => endpoint.id)
      if (subscribed.length > 0) cache.pending.push({ event, endpointIds: subscribed })
      if (mail && cache.mailOn) cache.mails.push(mail)
    },
    // One statement: the claim and the rows it needs, in one round trip and atomic on its own.
    async claim({ now, limit, leaseMs }) {
      const rows = await run(
        db,
        `WITH due AS (
           SELECT id FROM ${deliveries.name}
           WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'delivering' AND lease_until <= $1)
           ORDER BY next_attempt_at NULLS FIRST, id LIMIT $2 FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE ${deliveries.name} d SET status = 'delivering', lease_until = $3, updated_at = $1
           FROM due WHERE d.id = due.id RETURNING d.*
         )
         SELECT claimed.*, ${prefixed(t.events, 'e')}, ${prefixed(t.endpoints, 'w')}
         FROM claimed
         JOIN ${t.events.name} e ON e.id = claimed.event_id
         JOIN ${t.endpoints.name} w ON w.id = claimed.endpoint_id
         ORDER BY claimed.next_attempt_at NULLS FIRST, claimed.id`,
        [now, Math.max(0, Math.floor(limit)), new Date(now.getTime() + leaseMs)],
      )
      return rows.map(
        (row): ClaimedDelivery => ({
          delivery: deliveries.read(row),
          event: t.events.read(unprefixed(row, 'e.')),
          endpoint: t.endpoints.read(unprefixed(row, 'w.')),
        }),
      )
    },
    insertTestDelivery({ event, endpointId, leaseUntil }) {
      return atomic(db, async (tx) => {
        const [endpoint] = await run(tx, `SELECT * FROM ${t.endpoints.name} WHERE project_id = $1 AND id = $2`, [event.projectId, endpointId])
        if (!endpoint) return null
        const [stored] = await run(
          tx,
          `INSERT INTO ${t.events.name} (project_id, type, body, created_at) VALUES ($1, $2, $3, $4) RETURNING *`,
          [event.projectId, event.type, JSON.stringify(event.payload), event.createdAt],
        )
        const [delivery] = await run(
          tx,
          `INSERT INTO ${deliveries.name}
             (project_id, event_id, endpoint_id, event_type, status, attempts, next_attempt_at, lease_until, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 'delivering', 0, NULL, $5, $6, $6) RETURNING *`,
          [event.projectId, stored!.id, endpointId, event.type, leaseUntil, event.createdAt],
        )
        return { delivery: deliveries.read(delivery!), event: t.events.read(stored!), endpoint: t.endpoints.read(endpoint) }
      })
    },
    // One statement (atomic on its own): the delivery's new state and its attempt row.
    async recordAttempt({ deliveryId, attempt, status, nextAttemptAt }) {
      const rows = await run(
        db,
        `WITH updated AS (
           UPDATE ${deliveries.name} SET status = $2, next_attempt_at = $3, attempts = attempts + 1, lease_until = NULL,
             last_status_code = $4, updated_at = $5 WHERE id = $1 RETURNING *
         ), attempt AS (
           INSERT INTO ${t.attempts.name} (delivery_id, project_id, attempted_at, status_code, duration_ms, response_excerpt, error)
           SELECT id, project_id, $5, $4, $6, $7, $8 FROM updated
         )
         SELECT * FROM updated`,
        [deliveryId, status, nextAttemptAt, attempt.statusCode, attempt.attemptedAt, attempt.durationMs, attempt.responseExcerpt, attempt.error],
      )
      return rows[0] ? deliveries.read(rows[0]) : null
    },
    async backlog() {
      // Two counts, so each can use its partial index (due / lease) instead of scanning every delivery.
      const rows = await run(
        db,
        `SELECT (SELECT count(*) FROM ${deliveries.name} WHERE status = 'pending')
              + (SELECT count(*) FROM ${deliveries.name} WHERE status = 'delivering') AS backlog`,
        [],
      )
      return Number(rows[0]!.backlog)
    },
  }
  if (!cache) return repository
  // In a transaction, the events recorded so far are written before anything else touches the outbox.
  const flushed = {} as Record<string, (...args: never[]) => Promise<unknown>>
  for (const [name, method] of Object.entries(repository) as Array<[string, (...args: never[]) => Promise<unknown>]>) {
    flushed[name] = name === 'enqueue' ? method : async (...args) => (await flushPending(db, t, cache), method(...args))
  }
  return flushed as unknown as AdapterOutbox
}

/** The delivery log's tables: in a transaction, as for the outbox, the events recorded so far are written first. */
export function deliveryLog(db: SqlClient, t: Tables, cache: TransactionState | null): Pick<StorageTx, 'deliveries' | 'deliveryAttempts'> {
  const deliveries = sqlEntityTable(db, t.deliveries, deliveryRules)
  const attempts = sqlEntityTable(db, t.attempts, deliveryAttemptRules)
  const flushed =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await flushPending(db, t, cache)
      return read(...args)
    }
  return {
    deliveries: { get: flushed(deliveries.get), list: flushed(deliveries.list), update: flushed(deliveries.update) },
    deliveryAttempts: { all: flushed(attempts.all) },
  }
}
