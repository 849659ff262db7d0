// The redirect's link lookup, cached (docs/analytics.md "The click path"): a link token resolves
// to its affiliate and link from memory for `seconds`, unknown tokens too, so a visit reads no
// database. A blocked affiliate or a deleted link stops resolving within that time. Bounded: the
// oldest entry leaves first.
import type { LinkTarget } from '../core/affiliates/visits.js'

type Resolve = (token: string, partnerSlug?: string) => Promise<LinkTarget | null>

const MAX_ENTRIES = 20_000

export function linkCache(resolve: Resolve, seconds: number, now: () => number): Resolve {
  if (seconds <= 0) return resolve
  const entries = new Map<string, { target: Promise<LinkTarget | null>; until: number }>()
  return (token, partnerSlug) => {
    const key = `${partnerSlug ?? ''}/${token.toLowerCase()}`
    const found = entries.get(key)
    if (found && found.until > now()) return found.target
    if (found) entries.delete(key)
    else if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
    const target = resolve(token, partnerSlug)
    entries.set(key, { target, until: now() + seconds * 1000 })
    // A failed read (the database down) is not kept: the next visit reads again.
    target.catch(() => entries.delete(key))
    return target
  }
}
