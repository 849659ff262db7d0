// The in-memory outbox: events noted at record time, turned into event and delivery rows by the
// first outbox read; claims with leases, attempts, test deliveries; the delivery log's tables.
import type { AdapterOutbox } from '../../storage-port.js'
import { deliveryAttemptRules, deliveryRules } from '../../../core/ports/entity-filters.js'
import type { Delivery } from '../../../core/model/types.js'
import type { NewEvent, StorageTx } from '../../../core/ports/storage.js'
import { memoryEntityTable } from '../entity-table.js'
import { eventRow, inProject, type MemoryState } from '../state.js'
import type { UndoLog } from '../table.js'
import { mailOfEvent } from '../../../core/model/mail-kinds.js'
import { storeMail } from './mail.js'

type DeliveryState = Pick<Delivery, 'status' | 'attempts' | 'nextAttemptAt' | 'leaseUntil' | 'lastStatusCode' | 'updatedAt'>

/** The delivery with a new state, written out field by field (spreading a frozen row is V8's slow clone path). */
const withState = (row: Delivery, next: DeliveryState): Delivery => ({
  id: row.id,
  projectId: row.projectId,
  eventId: row.eventId,
  endpointId: row.endpointId,
  eventType: row.eventType,
  createdAt: row.createdAt,
  status: next.status,
  attempts: next.attempts,
  nextAttemptAt: next.nextAttemptAt,
  leaseUntil: next.leaseUntil,
  lastStatusCode: next.lastStatusCode,
  updatedAt: next.updatedAt,
})

export interface MemoryOutbox {
  outbox: AdapterOutbox
  deliveries: StorageTx['deliveries']
  deliveryAttempts: StorageTx['deliveryAttempts']
  materializeOutbox: () => void
}

export function outboxRepository(state: MemoryState, log: UndoLog): MemoryOutbox {
  /** The project's active endpoints subscribed to a type of event. */
  const subscribed = (projectId: string, type: NewEvent['type']) =>
    state.endpoints.group('project', projectId).filter((endpoint) => endpoint.active && endpoint.events.includes(type))

  /** Stores the noted events and one pending delivery per subscribed endpoint each (see enqueue). */
  const materializeOutbox = () => {
    if (state.fanout.length === 0) return
    const pending = state.fanout
    state.fanout = []
    log.push(() => {
      state.fanout = pending
    })
    for (const event of pending) {
      const stored = state.events.insert(eventRow(event), log)
      for (const endpoint of subscribed(event.projectId, event.type)) {
        const delivery = state.deliveries.insert(
          {
            projectId: event.projectId,
            eventId: stored.id,
            endpointId: endpoint.id,
            eventType: event.type,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: event.createdAt,
            leaseUntil: null,
            lastStatusCode: null,
            createdAt: event.createdAt,
            updatedAt: event.createdAt,
          },
          log,
        )
        state.deliveriesDue.note(delivery)
      }
    }
  }

  /** Stores a changed delivery row where claims find it; a rollback puts `previous` back in both. */
  const store = (row: Delivery, previous: Delivery) => {
    state.deliveries.replaceUnindexed(row, log)
    state.deliveriesDue.note(row)
    log.push(() => state.deliveriesDue.note(previous))
  }

  const outbox: AdapterOutbox = {
    // Recording only notes an event someone subscribes to; rows (and the serialized body) are made
    // by the first outbox read or endpoint change, in event order, so a create pays little for its
    // webhooks (and a pending event holds no more objects than the event itself).
    async enqueue(event) {
      const mail = state.mailOn ? mailOfEvent(event) : null
      if (mail) storeMail(state, mail, log)
      if (!state.endpoints.group('project', event.projectId).some((endpoint) => endpoint.active && endpoint.events.includes(event.type))) return
      state.fanout.push(event)
      log.push(() => state.fanout.pop())
    },
    async claim({ now, limit, leaseMs }) {
      materializeOutbox()
      const leaseUntil = new Date(now.getTime() + leaseMs)
      return state.deliveriesDue.take(now.getTime(), limit).map((row) => {
        const delivery = withState(row, { status: 'delivering', attempts: row.attempts, nextAttemptAt: row.nextAttemptAt, leaseUntil, lastStatusCode: row.lastStatusCode, updatedAt: now })
        store(delivery, row)
        return {
          delivery,
          event: state.events.get(row.eventId)!,
          endpoint: state.endpoints.get(row.endpointId)!,
        }
      })
    },
    async recordAttempt({ deliveryId, attempt, status, nextAttemptAt }) {
      const existing = state.deliveries.get(deliveryId)
      if (!existing) return null
      state.attempts.insert({ ...attempt, deliveryId, projectId: existing.projectId }, log)
      const updated = withState(existing, {
        status,
        nextAttemptAt,
        attempts: existing.attempts + 1,
        leaseUntil: null,
        lastStatusCode: attempt.statusCode,
        updatedAt: attempt.attemptedAt,
      })
      store(updated, existing)
      return updated
    },
    async insertTestDelivery({ event, endpointId, leaseUntil }) {
      materializeOutbox()
      const endpoint = inProject(state.endpoints.get(endpointId), event.projectId)
      if (!endpoint) return null
      const stored = state.events.insert(eventRow(event), log)
      const delivery = state.deliveries.insert(
        {
          projectId: event.projectId,
          eventId: stored.id,
          endpointId,
          eventType: event.type,
          status: 'delivering',
          attempts: 0,
          nextAttemptAt: null,
          leaseUntil,
          lastStatusCode: null,
          createdAt: event.createdAt,
          updatedAt: event.createdAt,
        },
        log,
      )
      state.deliveriesDue.note(delivery)
      return { delivery: { ...delivery }, event: { ...stored }, endpoint: { ...endpoint } }
    },
    async backlog() {
      materializeOutbox()
      let waiting = 0
      for (const row of state.deliveries.rows.values()) if (row.status === 'pending' || row.status === 'delivering') waiting++
      return waiting
    },
  }

  // The delivery log reads after the noted events become rows; an update (a manual retry) also
  // stores the row where claims find it.
  const deliveryTable = memoryEntityTable(state.deliveries, deliveryRules, log)
  const attemptTable = memoryEntityTable(state.attempts, deliveryAttemptRules, log)
  const deliveries: StorageTx['deliveries'] = {
    async get(projectId, id) {
      materializeOutbox()
      return deliveryTable.get(projectId, id)
    },
    async list(projectId, filter) {
      materializeOutbox()
      return deliveryTable.list(projectId, filter)
    },
    async update(projectId, id, patch, expected) {
      materializeOutbox()
      const previous = state.deliveries.get(id)
      const updated = await deliveryTable.update(projectId, id, patch, expected)
      if (updated) {
        state.deliveriesDue.note(updated)
        log.push(() => state.deliveriesDue.note(previous!))
      }
      return updated
    },
  }
  const deliveryAttempts: StorageTx['deliveryAttempts'] = {
    async all(projectId, filter) {
      materializeOutbox()
      return attemptTable.all(projectId, filter)
    },
  }
  return { outbox, deliveries, deliveryAttempts, materializeOutbox }
}
