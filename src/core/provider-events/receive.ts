// Receiving one verified provider event: record it once per (project, provider, event id), apply
// it, store what it did, then apply the waiting events it unblocked. A re-delivered event is
// answered from its record and applies nothing.
import { UniqueViolation, type ProviderEventRecording, type StorageTx } from '../ports/storage.js'
import type { ProviderEvent } from '../model/types.js'
import { revivedMapping, storedMapping, type MappedEvent } from './mapping.js'
import type { Outcome } from './outcome.js'
import { applyOrRelease, finalRecord, flagged, linksOf, listWaiting, save, STALE_MS, staleAtOnce, updateOf, type ReceiveTarget, type WriteRecord } from './record.js'
import { wakeAll } from './wake.js'

export interface Received {
  event: ProviderEvent
  /** True when the event had been received before: nothing was applied this time. */
  duplicate: boolean
}

export async function receiveEvent(target: ReceiveTarget, mapped: MappedEvent): Promise<Received> {
  if (withoutSideEffects(mapped)) {
    const received = await receiveOnce(target, mapped)
    if (received) return received
  }
  return receiveClaimed(target, mapped)
}

/**
 * An ignored event or a lone payment changes nothing before its outcome is saved (a payment's
 * conversion is written in the transaction that saves it), so it may be applied before its
 * record exists, and the record written once, final.
 */
function withoutSideEffects(mapped: MappedEvent): boolean {
  return mapped.ignored !== undefined || mapped.actions.length === 0 || (mapped.actions.length === 1 && mapped.actions[0]!.kind === 'paid')
}

/**
 * Applies the event, then inserts its record in its final state: in the conversion's transaction
 * when it creates one, else in one storage call of its own. Null when a record of the event
 * already exists: nothing was written (the conversion's transaction rolled back), and
 * receiveClaimed answers.
 */
async function receiveOnce(target: ReceiveTarget, mapped: MappedEvent): Promise<Received | null> {
  const createdAt = target.now()
  // A record of the event there already fails the insert, and the conversion's transaction with it.
  const insert: WriteRecord = (events, result) => events.record(finalRecord(target, mapped, result, createdAt), linksOf(target, result))
  try {
    return { event: await run(target, mapped, insert), duplicate: false }
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint === 'provider_event') return null
    throw error
  }
}

/**
 * Records the event as `processing` first (one request wins it: the one inserting it, or taking
 * over a record left `processing` too long), then applies it and saves what it did.
 */
async function receiveClaimed(target: ReceiveTarget, mapped: MappedEvent): Promise<Received> {
  const { storage, scope, provider } = target
  const now = target.now()
  const claimed = await storage.providerEvents.claimNew(
    {
      projectId: scope.projectId,
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
    },
    new Date(now.getTime() - STALE_MS),
  )
  if (!claimed.claimed) return { event: claimed.existing, duplicate: true }
  return { event: await runClaimed(target, claimed.event, mapped), duplicate: false }
}

/**
 * Applies a recorded event again from its stored mapping (an operator's replay of a waiting or
 * ignored event), as a wake does: claimed from the status it was read in, so of a replay and a
 * wake, or two replays, one applies it. Null when another request moved it meanwhile.
 */
export async function replayRecorded(target: ReceiveTarget, record: ProviderEvent): Promise<ProviderEvent | null> {
  if (record.mapped === null) return null
  if (!(await target.storage.providerEvents.claim(target.scope.projectId, record.id, { status: record.status }, target.now()))) return null
  return runClaimed(target, record, revivedMapping(record.mapped))
}

/** Applies an event this request claimed (moved to `processing`) and saves what it did. */
export function runClaimed(target: ReceiveTarget, record: ProviderEvent, mapped: MappedEvent): Promise<ProviderEvent> {
  return run(target, mapped, updateOf(target, record), staleAtOnce(target, record))
}

/**
 * Applies the event, saves its outcome through `write`, and applies the events it unblocked. An
 * unexpected error while applying runs `release` and is rethrown.
 */
async function run(target: ReceiveTarget, mapped: MappedEvent, write: WriteRecord, release?: () => Promise<unknown>): Promise<ProviderEvent> {
  // Filled when the outcome is saved inside the transaction that creates its conversion.
  const settled: { recording?: ProviderEventRecording } = {}
  const settle = async (tx: StorageTx, outcome: Outcome) => {
    settled.recording = await save(tx.providerEvents, outcome, write, target.now())
  }
  const result = await applyOrRelease({ ...target, settle }, mapped, release)
  const recording = result.settled && settled.recording ? settled.recording : await save(target.storage.providerEvents, result, write, target.now())
  const saved = await recording.saved
  // A waiting event re-checks once after it is saved: the event it waits for may have been
  // applied by another request between this one's check and its save.
  const recheck = result.status === 'waiting' && result.waitingFor !== null ? [result.waitingFor] : []
  const keys = [...new Set([...result.wake, ...recheck])]
  // Read once the outcome is committed, and only for the woken keys an event was saved waiting
  // for: such an event either committed before this outcome saved the key's mark (the mark was
  // saved onto its flag, and this read sees it), or its save waited for this outcome's commit
  // (its re-check sees what this outcome unblocked).
  const waiting = await listWaiting(target, [...new Set([...flagged(saved.links), ...recheck])])
  if (waiting.length > 0) await wakeAll(target, waiting, new Set(keys))
  // The re-check may have applied it.
  return recheck.length === 0 ? saved.event : ((await target.storage.providerEvents.get(target.scope.projectId, saved.event.id)) ?? saved.event)
}
