// Saving what applying a provider event did: its record's outcome, the links it taught, a new
// `woken` mark for each key it wakes and, when it waits, the flag on the key it waits for.
import { randomUUID } from 'node:crypto'
import type { ProviderEventRecording, ProviderEventRepository } from '../ports/storage.js'
import type { ProviderEvent, ProviderLink } from '../model/types.js'
import { applyEvent } from './apply.js'
import { storedMapping, type MappedEvent } from './mapping.js'
import type { ApplyTarget, Outcome } from './outcome.js'

/** A record left `processing` this long (its process died mid-way) is taken over by a retry or a sweep. */
export const STALE_MS = 60_000

export interface ReceiveTarget extends ApplyTarget {
  now(): Date
}

/** What saving an outcome wrote: the event's record and the outcome's links, as saved. */
export type Saved = Awaited<ProviderEventRecording['saved']>

/**
 * Writes the record's outcome (an insert of the final record, or an update of the claimed one)
 * and the outcome's links in one storage call: through the repository of the conversion's
 * transaction, or the storage's own (one statement on SQL). `saved` answers once they are written:
 * an insert inside a transaction may be written with its COMMIT.
 */
export type WriteRecord = (events: ProviderEventRepository, result: Outcome) => Promise<ProviderEventRecording>

/**
 * The link kind of a woken key: a new mark each time an outcome wakes the key. A waiting event
 * compares the mark before and after it is applied and saved waiting again (see wake.ts). An
 * event saved waiting for the key flags it `waited` (see `save`).
 */
export const WOKEN = 'woken'

const outcomeFields = (target: ReceiveTarget, result: Outcome) => ({
  status: result.status,
  detail: result.detail,
  conversionId: result.conversionId,
  refundAmount: result.refundAmount,
  waitingFor: result.status === 'waiting' ? result.waitingFor : null,
  updatedAt: target.now(),
})

/** Writes the outcome onto a record that exists (claimed by this request). */
export const updateOf =
  (target: ReceiveTarget, record: ProviderEvent): WriteRecord =>
  async (events, result) => {
    const saved = await events.saveOutcome(target.scope.projectId, record.id, outcomeFields(target, result), linksOf(target, result))
    return { saved: Promise.resolve({ event: saved.event ?? record, links: saved.links }) }
  }

export const linksOf = ({ scope, provider }: ReceiveTarget, result: Outcome): ProviderLink[] =>
  result.links.map((link) => ({ projectId: scope.projectId, provider, ...link }))

export function finalRecord(target: ReceiveTarget, mapped: MappedEvent, result: Outcome, createdAt: Date): Omit<ProviderEvent, 'id'> {
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
 * Saves the outcome through `write`, with a new mark for each key it wakes (but the key it waits
 * for itself: that is no news to the events waiting for it), and a waiting outcome flags the key
 * it waits for. Link saves are merged and wait for one another's transactions, so a mark and a
 * flag on one key are written one after the other, each seeing the one before.
 */
export function save(events: ProviderEventRepository, result: Outcome, write: WriteRecord, at: Date): Promise<ProviderEventRecording> {
  // `at`: when it was woken, for the sweep (listWokenWaiting).
  const mark = { mark: randomUUID(), at: at.toISOString() }
  const waitingFor = result.status === 'waiting' ? result.waitingFor : null
  const woken = result.wake.filter((key) => key !== waitingFor)
  const marks = [...new Set(woken)].map((key) => ({ kind: WOKEN, externalId: key, data: mark }))
  const flag = waitingFor === null ? [] : [{ kind: WOKEN, externalId: waitingFor, data: { waited: 'yes' } }]
  return write(events, { ...result, links: [...result.links, ...marks, ...flag] })
}

/** The mark of the key a saved waiting outcome flagged, as saved with the flag (null: none yet). */
export const savedMark = (saved: Saved, key: string): string | null =>
  saved.links.find((link) => link.kind === WOKEN && link.externalId === key)?.data.mark ?? null

/** The woken keys an event was ever saved waiting for. */
export const flagged = (links: readonly ProviderLink[]) => links.filter((link) => link.kind === WOKEN && link.data.waited != null).map((link) => link.externalId)

export const listWaiting = ({ storage, scope, provider }: ReceiveTarget, keys: string[]) =>
  keys.length === 0 ? Promise.resolve([]) : storage.providerEvents.all(scope.projectId, { provider, status: 'waiting', waitingFor: keys })

/**
 * The release of a claimed event whose applying failed: it stays `processing` and looks stale at
 * once, so a retry or the next sweep takes it over.
 */
export const staleAtOnce = ({ storage, scope }: ReceiveTarget, record: ProviderEvent) => () =>
  storage.providerEvents.update(scope.projectId, record.id, { updatedAt: new Date(0) })

export async function applyOrRelease(target: ReceiveTarget, mapped: MappedEvent, release?: () => Promise<unknown>): Promise<Outcome> {
  try {
    return await applyEvent(target, mapped)
  } catch (error) {
    await release?.().catch(() => undefined)
    throw error
  }
}
