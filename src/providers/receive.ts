// Receiving one verified provider event: record it once per (project, provider, event id), apply
// it, store what it did, then apply the waiting events it unblocked. A re-delivered event is
// answered from its record and applies nothing.
import { randomUUID } from 'node:crypto'
import type { DomainStore, StorageTx } from '../core/storage.js'
import type { ProviderEvent, ProviderLink } from '../core/types.js'
import { applyEvent, type ApplyTarget, type Outcome } from './apply.js'
import { revivedMapping, storedMapping, type MappedEvent } from './mapping.js'

/** A record left `processing` this long (its process died mid-way) is taken over by a retry or a sweep. */
const STALE_MS = 60_000
const SWEEP_PAGE = 100

export interface Received {
  event: ProviderEvent
  /** True when the event had been received before: nothing was applied this time. */
  duplicate: boolean
}

export interface ReceiveTarget extends ApplyTarget {
  now(): Date
}

/** What saving an outcome wrote: the event's record and the outcome's links, as saved. */
interface Saved {
  event: ProviderEvent
  links: readonly ProviderLink[]
}

/**
 * Inside a transaction: writes the record's outcome (an insert of the final record, or an update
 * of the claimed one) and the outcome's links.
 */
type WriteRecord = (tx: StorageTx, result: Outcome) => Promise<Saved>

/**
 * The link kind of a woken key: a new mark each time an outcome wakes the key. A waiting event
 * compares the mark before and after it is applied and saved waiting again (see `wake`). An event
 * saved waiting for the key flags it `waited` (see `save`).
 */
const WOKEN = 'woken'

/** Thrown inside a transaction to roll it back when the event's record already exists. */
class AlreadyRecorded extends Error {}

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
 * when it creates one, else in a transaction of its own. Null when a record of the event already
 * exists: the transaction rolled back, nothing was written, and receiveClaimed answers.
 */
async function receiveOnce(target: ReceiveTarget, mapped: MappedEvent): Promise<Received | null> {
  const createdAt = target.now()
  const insert: WriteRecord = async (tx, result) => {
    const recorded = await tx.providerEvents.record(finalRecord(target, mapped, result, createdAt), linksOf(target, result))
    if (!recorded.inserted) throw new AlreadyRecorded()
    return recorded
  }
  try {
    return { event: await run(target, mapped, insert), duplicate: false }
  } catch (error) {
    if (error instanceof AlreadyRecorded) return null
    throw error
  }
}

/** Records the event as `processing` first (one request wins it), then applies it and saves what it did. */
async function receiveClaimed(target: ReceiveTarget, mapped: MappedEvent): Promise<Received> {
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
  return { event: await runClaimed(target, record, mapped), duplicate: false }
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
function runClaimed(target: ReceiveTarget, record: ProviderEvent, mapped: MappedEvent): Promise<ProviderEvent> {
  return run(target, mapped, updateOf(target, record), staleAtOnce(target, record))
}

/**
 * The release of a claimed event whose applying failed: it stays `processing` and looks stale at
 * once, so a retry or the next sweep takes it over.
 */
const staleAtOnce = ({ storage, scope }: ReceiveTarget, record: ProviderEvent) => () =>
  storage.providerEvents.update(scope.projectId, record.id, { updatedAt: new Date(0) })

/**
 * When each project's and provider's next sweep is due, per storage: handlers built per request
 * (as some frameworks do) share it, so they sweep once a minute as one long-lived handler does.
 */
const sweepsDue = new WeakMap<DomainStore, Map<string, number>>()

function sweepTimes(storage: DomainStore): Map<string, number> {
  let due = sweepsDue.get(storage)
  if (!due) sweepsDue.set(storage, (due = new Map()))
  return due
}

/**
 * A sweep, run at most once per STALE_MS for a storage, project and provider, that applies again
 * what a request left half-done over STALE_MS ago: the provider's events left `processing` (a
 * request died, or failed to save, after claiming them), from their stored mapping, and the events
 * still waiting for a key an outcome woke after they were saved (the request that woke it died or
 * failed before applying them).
 * The provider delivers such an event again only when its own delivery failed; a waiting event
 * another event woke it never delivers again. `onError` hears each one that failed again.
 */
export function staleSweep(target: ReceiveTarget, onError: (error: unknown) => void): () => Promise<void> {
  const { storage, scope, provider } = target
  const due = sweepTimes(storage)
  const key = `${scope.projectId}|${provider}`
  return async () => {
    const now = target.now()
    if (now.getTime() < (due.get(key) ?? 0)) return
    due.set(key, now.getTime() + STALE_MS)
    const staleBefore = new Date(now.getTime() - STALE_MS)
    // Newest first, a page at a time. An event applied here (or by another request meanwhile)
    // leaves the list: the next page starts after only the events that stayed.
    const stayed = async (record: ProviderEvent) => (await storage.providerEvents.get(scope.projectId, record.id))?.status === 'processing'
    for (let offset = 0; ; ) {
      const { items } = await storage.providerEvents.list(scope.projectId, { provider, status: 'processing', limit: SWEEP_PAGE, offset })
      let gone = 0
      for (const record of items) {
        if (record.updatedAt >= staleBefore || record.mapped === null) continue
        try {
          if (await storage.providerEvents.claim(scope.projectId, record.id, { status: 'processing', updatedBefore: staleBefore }, now)) {
            await runClaimed(target, record, revivedMapping(record.mapped))
            gone += 1
          } else if (!(await stayed(record))) gone += 1
        } catch (error) {
          onError(error)
          // Its outcome may have been saved before the error (while waking the events it unblocked).
          if (!(await stayed(record).catch(() => true))) gone += 1
        }
      }
      if (items.length < SWEEP_PAGE) break
      offset += items.length - gone
    }
    const woken = await storage.providerEvents.listWokenWaiting(scope.projectId, provider, staleBefore, SWEEP_PAGE)
    if (woken.length > 0) await wakeAll(target, woken, new Set()).catch(onError)
  }
}

const outcomeFields = (target: ReceiveTarget, result: Outcome) => ({
  status: result.status,
  detail: result.detail,
  conversionId: result.conversionId,
  refundAmount: result.refundAmount,
  waitingFor: result.status === 'waiting' ? result.waitingFor : null,
  updatedAt: target.now(),
})

/** Writes the outcome onto a record that exists (claimed by this request). */
const updateOf =
  (target: ReceiveTarget, record: ProviderEvent): WriteRecord =>
  async (tx, result) => {
    const event = (await tx.providerEvents.update(target.scope.projectId, record.id, outcomeFields(target, result))) ?? record
    return { event, links: await tx.providerEvents.saveLinks(linksOf(target, result)) }
  }

const linksOf = ({ scope, provider }: ReceiveTarget, result: Outcome): ProviderLink[] =>
  result.links.map((link) => ({ projectId: scope.projectId, provider, ...link }))

function finalRecord(target: ReceiveTarget, mapped: MappedEvent, result: Outcome, createdAt: Date): Omit<ProviderEvent, 'id'> {
  return {
    projectId: target.scope.projectId,
    provider: target.provider,
    eventId: mapped.eventId,
    type: mapped.type,
    reference: mapped.reference,
    ...outcomeFields(target, result),
    // A waiting event is applied later from its stored mapping; an ignored one may be replayed.
    mapped: result.status === 'waiting' || (result.status === 'ignored' && mapped.actions.length > 0) ? storedMapping(mapped) : null,
    occurredAt: mapped.occurredAt,
    createdAt,
  }
}

/**
 * Applies the event, saves its outcome through `write`, and applies the events it unblocked. An
 * unexpected error while applying runs `release` and is rethrown.
 */
async function run(target: ReceiveTarget, mapped: MappedEvent, write: WriteRecord, release?: () => Promise<unknown>): Promise<ProviderEvent> {
  // Filled when the outcome is saved inside the transaction that creates its conversion.
  const settled: { saved?: Saved } = {}
  const settle = async (tx: StorageTx, outcome: Outcome) => {
    settled.saved = await save(tx, outcome, write, target.now())
  }
  const result = await applyOrRelease({ ...target, settle }, mapped, release)
  const saved = result.settled && settled.saved ? settled.saved : await target.storage.transaction((tx) => save(tx, result, write, target.now()))
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

/** The woken keys an event was ever saved waiting for. */
const flagged = (links: readonly ProviderLink[]) => links.filter((link) => link.kind === WOKEN && link.data.waited != null).map((link) => link.externalId)

async function applyOrRelease(target: ReceiveTarget, mapped: MappedEvent, release?: () => Promise<unknown>): Promise<Outcome> {
  try {
    return await applyEvent(target, mapped)
  } catch (error) {
    await release?.().catch(() => undefined)
    throw error
  }
}

/**
 * Saves the outcome through `write`, with a new mark for each key it wakes (but the key it waits
 * for itself: that is no news to the events waiting for it), and a waiting outcome flags the key
 * it waits for. Link saves are merged and wait for one another's transactions, so a mark and a
 * flag on one key are written one after the other, each seeing the one before.
 */
function save(tx: StorageTx, result: Outcome, write: WriteRecord, at: Date): Promise<Saved> {
  // `at`: when it was woken, for the sweep (listWokenWaiting).
  const mark = { mark: randomUUID(), at: at.toISOString() }
  const waitingFor = result.status === 'waiting' ? result.waitingFor : null
  const woken = result.wake.filter((key) => key !== waitingFor)
  const marks = [...new Set(woken)].map((key) => ({ kind: WOKEN, externalId: key, data: mark }))
  const flag = waitingFor === null ? [] : [{ kind: WOKEN, externalId: waitingFor, data: { waited: 'yes' } }]
  return write(tx, { ...result, links: [...result.links, ...marks, ...flag] })
}

const listWaiting = ({ storage, scope, provider }: ReceiveTarget, keys: string[]) =>
  keys.length === 0 ? Promise.resolve([]) : storage.providerEvents.listWaiting(scope.projectId, provider, keys)

const markOf = async ({ storage, scope, provider }: ReceiveTarget, key: string) =>
  (await storage.providerEvents.getLink(scope.projectId, provider, WOKEN, key))?.data.mark ?? null

/**
 * Applies waiting events (oldest payment first), and those they unblock in turn. One that fails
 * (left for the sweep) does not stop the others, which nothing else would wake: the first error
 * is thrown once all were tried.
 */
async function wakeAll(target: ReceiveTarget, first: ProviderEvent[], seen: Set<string>): Promise<void> {
  const queue = [...first]
  const failed: unknown[] = []
  while (queue.length > 0) {
    const result = await wake(target, queue.shift()!).catch((error: unknown) => {
      failed.push(error)
      return null
    })
    if (!result) continue
    const fresh = result.wake.filter((key) => !seen.has(key))
    for (const key of fresh) seen.add(key)
    // A key already woken was read before; only events waiting on new keys are new here.
    const unblocked = await listWaiting(target, fresh)
    queue.push(...unblocked.filter((event) => !queue.some((queued) => queued.id === event.id)))
  }
  if (failed.length > 0) throw failed[0]
}

/**
 * Claims a waiting event, applies it and saves its outcome; null when another request claimed it.
 * While it is claimed, a request waking the key it waits for does not see it waiting: when it
 * is to wait again for that key and the key's mark changed meanwhile, it is applied again.
 */
async function wake(target: ReceiveTarget, event: ProviderEvent): Promise<Outcome | null> {
  const { storage, scope } = target
  let key = event.waitingFor
  for (;;) {
    const mark = key === null ? null : await markOf(target, key)
    // Only one request applies a waiting event: the one whose claim moves it to processing.
    if (!(await storage.providerEvents.claim(scope.projectId, event.id, { status: 'waiting' }, target.now()))) return null
    // On an error it is left for the next sweep, like any claimed event. (Back to waiting, nothing
    // would apply it: the event it waits for was applied already, and is recorded, so its
    // redelivery wakes nothing.)
    const result = await applyOrRelease(target, revivedMapping(event.mapped), staleAtOnce(target, event))
    await storage.transaction((tx) => save(tx, result, updateOf(target, event), target.now()))
    if (result.status !== 'waiting' || result.waitingFor === null) return result
    if (result.waitingFor === key && (await markOf(target, key)) === mark) return result
    key = result.waitingFor
  }
}
