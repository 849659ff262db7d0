// Receiving one verified provider event: record it once per (project, provider, event id), apply
// it, store what it did, then apply the waiting events it unblocked. A re-delivered event is
// answered from its record and applies nothing.
import type { StorageTx } from '../core/storage.js'
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

/** Applies a claimed record's event, saves the outcome, and applies the events it unblocked. */
async function run(target: ReceiveTarget, record: ProviderEvent, mapped: MappedEvent): Promise<ProviderEvent> {
  // Filled when the outcome is saved inside the transaction that creates its conversion.
  const settled: { finished?: Finished } = {}
  const settle = async (tx: StorageTx, outcome: Outcome) => {
    settled.finished = await save(tx, target, record, outcome, [])
  }
  const result = await applyOrRelease({ ...target, settle }, record, mapped, { updatedAt: new Date(0) })
  // A waiting event re-checks once after it is saved: the event it waits for may have been
  // applied by another request between this one's check and its save.
  const recheck = result.status === 'waiting' && result.waitingFor !== null ? [result.waitingFor] : []
  const { saved, waiting } = result.settled && settled.finished ? settled.finished : await finish(target, record, result, recheck)
  await wakeAll(target, waiting, new Set([...result.wake, ...recheck]))
  // The re-check may have applied it.
  return recheck.length === 0 ? saved : ((await target.storage.providerEvents.get(target.scope.projectId, record.id)) ?? saved)
}

/** Applies the event; on an unexpected error puts `release` on the record (so it can be retried) and rethrows. */
async function applyOrRelease(target: ReceiveTarget, record: ProviderEvent, mapped: MappedEvent, release: Partial<ProviderEvent>): Promise<Outcome> {
  try {
    return await applyEvent(target, mapped)
  } catch (error) {
    await target.storage.providerEvents.update(target.scope.projectId, record.id, release).catch(() => undefined)
    throw error
  }
}

interface Finished {
  saved: ProviderEvent
  waiting: ProviderEvent[]
}

/**
 * In one transaction: saves the outcome's links, the record's outcome, and reads the events
 * waiting for what the outcome unblocked.
 */
function finish(target: ReceiveTarget, record: ProviderEvent, result: Outcome, recheck: string[]): Promise<Finished> {
  return target.storage.transaction((tx) => save(tx, target, record, result, recheck))
}

/** finish's work inside a transaction it is given. */
async function save(tx: StorageTx, target: ReceiveTarget, record: ProviderEvent, result: Outcome, recheck: string[]): Promise<Finished> {
  const { scope, provider } = target
  const projectId = scope.projectId
  await tx.providerEvents.saveLinks(result.links.map((link) => ({ projectId, provider, ...link })))
  const saved = await tx.providerEvents.update(projectId, record.id, {
    status: result.status,
    detail: result.detail,
    conversionId: result.conversionId,
    refundAmount: result.refundAmount,
    waitingFor: result.status === 'waiting' ? result.waitingFor : null,
    updatedAt: target.now(),
  })
  const keys = [...new Set([...result.wake, ...recheck])]
  const waiting = keys.length === 0 ? [] : await tx.providerEvents.listWaiting(projectId, provider, keys)
  return { saved: saved ?? record, waiting }
}

/** Applies waiting events (oldest payment first), and those they unblock in turn. */
async function wakeAll(target: ReceiveTarget, first: ProviderEvent[], seen: Set<string>): Promise<void> {
  const { storage, scope } = target
  const queue = [...first]
  while (queue.length > 0) {
    const waiting = queue.shift()!
    // Only one request applies a waiting event: the one whose claim moves it to processing.
    if (!(await storage.providerEvents.claim(scope.projectId, waiting.id, { status: 'waiting' }, target.now()))) continue
    const result = await applyOrRelease(target, waiting, revivedMapping(waiting.mapped), { status: 'waiting', updatedAt: target.now() })
    const fresh = result.wake.filter((key) => !seen.has(key))
    for (const key of fresh) seen.add(key)
    const { waiting: unblocked } = await finish(target, waiting, result, [])
    // A key already woken was read before; only events waiting on new keys are new here.
    queue.push(...unblocked.filter((event) => event.waitingFor !== null && fresh.includes(event.waitingFor) && !queue.some((queued) => queued.id === event.id)))
  }
}
