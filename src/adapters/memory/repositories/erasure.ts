// Erasure in memory (docs/privacy.md): a person's texts replaced in every stored object of the
// project: every table's rows, the provider links, the events not yet stored as rows, and (through
// `outside`) the stored idempotency answers and the audit log.
import type { ErasureRepository, TextScrub } from '../../../core/ports/storage.js'
import { scrubber } from '../../../core/rules/text-scrub.js'
import type { ProviderLink } from '../../../core/model/types.js'
import { setMapEntry, type MemoryState } from '../state.js'
import { Table, type UndoLog } from '../table.js'
import { linkKey } from './provider-events.js'

export type Scrub = ReturnType<typeof scrubber>

/** A store beside the domain tables that keeps texts of the project (keyed state, audit log). */
export interface ScrubbedElsewhere {
  scrubText(projectId: string, scrub: Scrub): void
  /** Everything it holds, as JSON (memoryStoredText). */
  storedText(): string
}

export const asJson = (value: unknown) =>
  JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item instanceof Map ? [...item.values()] : item instanceof Set ? [...item] : item))

/** Every string in a JSON-like value, each replaced by `text`. */
function mapStrings(value: unknown, text: (value: string) => string): unknown {
  if (typeof value === 'string') return text(value)
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, text))
  // Plain objects only: a class instance (Money in an event's payload) is kept as it is.
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, text)]))
  }
  return value
}

/** The value scrubbed: a string as one text, an object (a JSON field) as one value. */
export function scrubbedValue(value: unknown, scrub: Scrub): unknown {
  if (typeof value === 'string') return scrub.apply(value)
  // Each string as it stands in the JSON text (quoted), as SQL storage scrubs a JSON column's text.
  if (value && typeof value === 'object' && !(value instanceof Date) && scrub.touches(asJson(value))) {
    return mapStrings(value, (text) => JSON.parse(scrub.force(JSON.stringify(text))) as string)
  }
  return value
}

function scrubRow<T extends object>(row: T, scrub: Scrub): T | null {
  let changed = false
  const next: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(row)) {
    const scrubbed = scrubbedValue(value, scrub)
    if (scrubbed !== value) changed = true
    next[key] = scrubbed
  }
  return changed ? (next as T) : null
}

export function erasureRepository(state: MemoryState, log: UndoLog, outside: readonly ScrubbedElsewhere[]): ErasureRepository {
  return {
    async scrub(projectId, request: TextScrub) {
      const scrub = scrubber(request)
      for (const table of Object.values(state)) {
        if (!(table instanceof Table)) continue
        for (const row of [...table.rows.values()] as Array<{ id: number; projectId?: string }>) {
          if (row.projectId !== projectId) continue
          const next = scrubRow(row, scrub)
          if (next) table.replace(next, log)
        }
      }
      for (const [key, link] of [...state.providerLinks]) {
        if (link.projectId !== projectId) continue
        const next = scrubRow(link, scrub) as ProviderLink | null
        if (!next) continue
        setMapEntry(state.providerLinks, key, undefined, log)
        setMapEntry(state.providerLinks, linkKey(next), Object.freeze(next), log)
      }
      for (const [index, event] of state.fanout.entries()) {
        if (event.projectId !== projectId) continue
        const payload = scrubbedValue(event.payload, scrub) as typeof event.payload
        if (payload === event.payload) continue
        state.fanout[index] = { ...event, payload }
        log.push(() => (state.fanout[index] = event))
      }
      for (const store of outside) store.scrubText(projectId, scrub)
    },
    async customerIds(projectId, email) {
      const lower = email.toLowerCase()
      return [...state.providerLinks.values()]
        .filter((link) => link.projectId === projectId && link.kind === 'customer' && link.data.email?.toLowerCase() === lower)
        .map((link) => ({ provider: link.provider, externalId: link.externalId }))
        .sort((a, b) => a.provider.localeCompare(b.provider) || a.externalId.localeCompare(b.externalId))
    },
  }
}
