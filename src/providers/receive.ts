// Receiving one verified provider event: record it once per (project, provider, event id), apply
// it, store what it did, then apply the waiting events it unblocked. A re-delivered event is
// answered from its record and applies nothing.
import type { ProviderEvent } from '../core/types.js'
import { applyEvent, type ApplyTarget, type Outcome } from './apply.js'
import { revivedMapping, storedMapping, type MappedEvent } from './mapping.js'

/** A record left `processing` this long (its process died mid-way) is taken over by a retry. */
const STALE_MS = 60_000

export interface Received {
  event: ProviderEvent
  /** True when the event had been received before: nothing was applied this time. */
  duplicate: boolean
}

export interface ReceiveTarget extends ApplyTarget {
  now(): Date
}

export async function receiveEvent(target: ReceiveTarget, mapped: MappedEvent): Promise<Received> {
  const { storage, scope, provider } = target
  const projectId = scope.projectId
  const now = target.now()
  const inserted = await storage.providerEvents.insert({
    projectId,
    provider,
    eventId: mapped.eventId,
    type: mapped.type,
    reference: mapped.reference,
    status: 'processing',
    detail: null,
    conversionId: null,
    refundAmount: null,
    waitingFor: null,
    mapped: storedMapping(mapped),
    occurredAt: mapped.occurredAt,
    createdAt: now,
    updatedAt: now,
  })
  let record: ProviderEvent
  if (inserted.inserted) record = inserted.event
  else {
    const staleBefore = new Date(now.getTime() - STALE_MS)
    const reclaimed = await storage.providerEvents.claim(projectId, inserted.existing.id, { status: 'processing', updatedBefore: staleBefore }, now)
    if (!reclaimed) return { event: inserted.existing, duplicate: true }
    record = inserted.existing
  }
  const event = await run(target, record, mapped)
  return { event, duplicate: false }
}

/** Applies a claimed record's event, saves the outcome, and wakes what it unblocked. */
async function run(target: ReceiveTarget, record: ProviderEvent, mapped: MappedEvent): Promise<ProviderEvent> {
  const { storage, scope } = target
  let result: Outcome
  try {
    result = await applyEvent(target, mapped)
  } catch (error) {
    // Let the provider's retry take it over at once instead of waiting for the stale time.
    await storage.providerEvents.update(scope.projectId, record.id, { updatedAt: new Date(0) }).catch(() => undefined)
    throw error
  }
  const saved = await save(target, record, result)
  const wake = [...result.wake]
  // A waiting event re-checks once after it is saved: the event it waits for may have been
  // applied by another request between this one's check and its save.
  if (result.status === 'waiting' && result.waitingFor !== null) wake.push(result.waitingFor)
  await wakeAll(target, wake)
  return saved
}

async function save(target: ReceiveTarget, record: ProviderEvent, result: Outcome): Promise<ProviderEvent> {
  const updated = await target.storage.providerEvents.update(target.scope.projectId, record.id, {
    status: result.status,
    detail: result.detail,
    conversionId: result.conversionId,
    refundAmount: result.refundAmount,
    waitingFor: result.status === 'waiting' ? result.waitingFor : null,
    updatedAt: target.now(),
  })
  return updated ?? record
}

/** Applies the events waiting for each key (oldest first), and what those unblock in turn. */
async function wakeAll(target: ReceiveTarget, keys: string[]): Promise<void> {
  const { storage, scope, provider } = target
  const queue = [...new Set(keys)]
  const seen = new Set<string>()
  while (queue.length > 0) {
    const key = queue.shift()!
    if (seen.has(key)) continue
    seen.add(key)
    for (const waiting of await storage.providerEvents.listWaiting(scope.projectId, provider, key)) {
      // Only one request applies a waiting event: the one whose claim moves it to processing.
      if (!(await storage.providerEvents.claim(scope.projectId, waiting.id, { status: 'waiting' }, target.now()))) continue
      let result: Outcome
      try {
        result = await applyEvent(target, revivedMapping(waiting.mapped))
      } catch (error) {
        await storage.providerEvents.update(scope.projectId, waiting.id, { status: 'waiting', updatedAt: target.now() }).catch(() => undefined)
        throw error
      }
      await save(target, waiting, result)
      for (const next of result.wake) if (!seen.has(next)) queue.push(next)
      // Still waiting on the same key: applying it again now would change nothing.
    }
  }
}
