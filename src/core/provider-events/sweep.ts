// The sweep of what requests left half-done: provider events left `processing` (a request died,
// or failed to save, after claiming them) and events still waiting for a key an outcome woke
// after they were saved (the request that woke it died or failed before applying them).
import type { ProviderEvent } from '../model/types.js'
import { revivedMapping } from './mapping.js'
import { STALE_MS, type ReceiveTarget } from './record.js'
import { runClaimed } from './receive.js'
import { wakeAll } from './wake.js'

const SWEEP_PAGE = 100

/**
 * When the next sweep of each provider is due (clock ms), per program and project: handlers
 * built per request (as some frameworks do) share their program's, so they sweep once a minute
 * as one long-lived handler does.
 */
export type SweepTimes = Map<string, number>

/**
 * Runs the sweep when it is due (at most once per STALE_MS for a project and provider): applies
 * again, from their stored mapping, the provider's events left `processing` since over STALE_MS
 * ago, and wakes the events still waiting for a key woken over STALE_MS ago. The provider
 * delivers such an event again only when its own delivery failed; a waiting event another event
 * woke it never delivers again. `onError` hears each one that failed again.
 */
export async function sweepIfDue(target: ReceiveTarget, due: SweepTimes, onError: (error: unknown) => void): Promise<void> {
  const { storage, scope, provider } = target
  const now = target.now()
  if (now.getTime() < (due.get(provider) ?? 0)) return
  due.set(provider, now.getTime() + STALE_MS)
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
