// The webhook outbox (events, deliveries with leases claimed FOR UPDATE SKIP LOCKED, attempts).
import type { ClaimedDelivery } from '../../../webhooks/outbox-store.js'
import type { AdapterOutbox } from '../../storage-port.js'
import { atomic, decode, run } from '../codec.js'
import type { SqlClient, SqlRow } from '../executor.js'
import type { Tables } from '../tables.js'
import { flushPending, type TransactionState } from './transaction-state.js'

export function outboxRepository(db: SqlClient, t: Tables, cache: TransactionState | null): AdapterOutbox {
  const deliveries = t.deliveries
  const repository: AdapterOutbox = {
    async enqueue(event) {
      if (!cache) {
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
      if (!endpoints) {
        const rows = await run(db, `SELECT id, events FROM ${t.endpoints.name} WHERE project_id = $1 AND active ORDER BY id`, [event.projectId])
        endpoints = rows.map((row) => ({ id: Number(row.id), events: decode('json', row.events) as string[] }))
        cache.endpoints.set(event.projectId, endpoints)
      }
      const subscribed = endpoints.filter((endpoint) => endpoint.events.includes(event.type)).map((endpoint) => endpoint.id)
      if (subscribed.length > 0) cache.pending.push({ event, endpointIds: subscribed })
    },
    claim({ now, limit, leaseMs }) {
      return atomic(db, async (tx) => {
        const claimed = await run(
          tx,
          `WITH due AS (
             SELECT id FROM ${deliveries.name}
             WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'delivering' AND lease_until <= $1)
             ORDER BY next_attempt_at NULLS FIRST, id LIMIT $2 FOR UPDATE SKIP LOCKED
           )
           UPDATE ${deliveries.name} d SET status = 'delivering', lease_until = $3, updated_at = $1
           FROM due WHERE d.id = due.id RETURNING d.*`,
          [now, Math.max(0, Math.floor(limit)), new Date(now.getTime() + leaseMs)],
        )
        if (claimed.length === 0) return []
        const rows = claimed.map((row) => deliveries.read(row))
        const byId = async (table: Tables['events'] | Tables['endpoints'], ids: number[]) => {
          const found = await run(tx, `SELECT * FROM ${table.name} WHERE id = ANY($1::bigint[])`, [[...new Set(ids)]])
          return new Map(found.map((row: SqlRow) => [Number(row.id), row]))
        }
        const events = await byId(t.events, rows.map((row) => row.eventId))
        const endpoints = await byId(t.endpoints, rows.map((row) => row.endpointId))
        const result: ClaimedDelivery[] = rows.map((delivery) => ({
          delivery,
          event: t.events.read(events.get(delivery.eventId)!),
          endpoint: t.endpoints.read(endpoints.get(delivery.endpointId)!),
        }))
        return result.sort(
          (a, b) => (a.delivery.nextAttemptAt?.getTime() ?? 0) - (b.delivery.nextAttemptAt?.getTime() ?? 0) || a.delivery.id - b.delivery.id,
        )
      })
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
    recordAttempt({ deliveryId, attempt, status, nextAttemptAt }) {
      return atomic(db, async (tx) => {
        const rows = await run(
          tx,
          `UPDATE ${deliveries.name} SET status = $2, next_attempt_at = $3, attempts = attempts + 1, lease_until = NULL,
             last_status_code = $4, updated_at = $5 WHERE id = $1 RETURNING *`,
          [deliveryId, status, nextAttemptAt, attempt.statusCode, attempt.attemptedAt],
        )
        if (!rows[0]) return null
        const delivery = deliveries.read(rows[0])
        await t.attempts.insert(tx, { ...attempt, deliveryId, projectId: delivery.projectId })
        return delivery
      })
    },
    getDelivery: (projectId, id) => deliveries.get(db, projectId, id),
    listDeliveries: (projectId, filter) =>
      deliveries.page(
        db,
        projectId,
        [
          ['endpoint_id = ?', filter.endpointId],
          ['status = ?', filter.status],
          ['event_type = ?', filter.eventType],
        ],
        filter,
      ),
    async listAttempts(projectId, deliveryId) {
      const rows = await run(db, `SELECT * FROM ${t.attempts.name} WHERE delivery_id = $1 AND project_id = $2 ORDER BY id`, [
        deliveryId,
        projectId,
      ])
      return rows.map((row) => t.attempts.read(row))
    },
    async requeue(projectId, id, now) {
      const rows = await run(
        db,
        `UPDATE ${deliveries.name} SET status = 'pending', next_attempt_at = $3, lease_until = NULL, updated_at = $3
         WHERE project_id = $1 AND id = $2 AND status <> 'delivering' RETURNING id`,
        [projectId, id, now],
      )
      return rows.length > 0
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
