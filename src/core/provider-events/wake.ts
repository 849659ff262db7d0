// Waking waiting provider events: once an outcome unblocks a key, the events waiting for it are
// claimed (one request applies each), applied from their stored mapping and saved, and those
// they unblock in turn after them.
import type { ProviderEvent } from '../model/types.js'
import { revivedMapping } from './mapping.js'
import type { Outcome } from './outcome.js'
import { applyOrRelease, listWaiting, save, savedMark, staleAtOnce, updateOf, type ReceiveTarget } from './record.js'

/**
 * Applies waiting events (oldest payment first), and those they unblock in turn. One that fails
 * (left for the sweep) does not stop the others, which nothing else would wake: the first error
 * is thrown once all were tried.
 */
export async function wakeAll(target: ReceiveTarget, first: ProviderEvent[], seen: Set<string>): Promise<void> {
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
export async function wake(target: ReceiveTarget, event: ProviderEvent): Promise<Outcome | null> {
  const { storage, scope } = target
  for (;;) {
    // Only one request applies a waiting event: the one whose claim moves it to processing. The
    // claim reads the mark of the key it waits for, at the latest as it claims it.
    const claimed = await storage.providerEvents.claimWaiting(scope.projectId, event.id, target.now())
    if (!claimed) return null
    // On an error it is left for the next sweep, like any claimed event. (Back to waiting, nothing
    // would apply it: the event it waits for was applied already, and is recorded, so its
    // redelivery wakes nothing.)
    const result = await applyOrRelease(target, revivedMapping(event.mapped), staleAtOnce(target, event))
    const saved = await (await save(storage.providerEvents, result, updateOf(target, event), target.now())).saved
    if (result.status !== 'waiting' || result.waitingFor === null) return result
    // The mark as saved with this event's flag: a later mark sees the flag and wakes it again.
    if (result.waitingFor === claimed.waitingFor && savedMark(saved, result.waitingFor) === claimed.mark) return result
  }
}
