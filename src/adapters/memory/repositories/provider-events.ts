// The in-memory provider-event log and provider links.
import { providerEventRules } from '../../../core/ports/entity-filters.js'
import { UniqueViolation, type Insert, type ProviderEventRepository } from '../../../core/ports/storage.js'
import type { ProviderEvent, ProviderLink } from '../../../core/model/types.js'
import { memoryEntityTable } from '../entity-table.js'
import { found, inProject, patchRow, setMapEntry, type MemoryState } from '../state.js'
import type { UndoLog } from '../table.js'

export const linkKey = (link: Pick<ProviderLink, 'projectId' | 'provider' | 'kind' | 'externalId'>) =>
  `${link.projectId}|${link.provider}|${link.kind}|${link.externalId}`

export function providerEventRepository(state: MemoryState, log: UndoLog): ProviderEventRepository {
  const table = state.providerEvents
  /** Saves the link, its data merged into the saved link's; returns it as saved. */
  const saveLink = (link: ProviderLink): ProviderLink => {
    const key = linkKey(link)
    const saved = Object.freeze({ ...link, data: { ...state.providerLinks.get(key)?.data, ...link.data } })
    setMapEntry(state.providerLinks, key, saved, log)
    return saved
  }
  /** Saves the links in order; each key's link as saved (its last save). */
  const saveLinks = (links: readonly ProviderLink[]) => [...new Map(links.map((link) => [linkKey(link), saveLink(link)])).values()]
  const recorded = (event: Insert<ProviderEvent>) => table.findUnique('provider_event', `${event.projectId}|${event.provider}|${event.eventId}`)
  return {
    ...memoryEntityTable(table, providerEventRules, log),
    async insert(event) {
      const existing = recorded(event)
      if (existing) return { inserted: false, existing }
      return { inserted: true, event: table.insert({ ...event }, log) }
    },
    async record(event, links) {
      if (recorded(event)) throw new UniqueViolation('provider_event')
      const inserted = table.insert({ ...event }, log)
      return { saved: Promise.resolve({ event: inserted, links: saveLinks(links) }) }
    },
    async claim(projectId, id, condition, now) {
      const existing = inProject(table.get(id), projectId)
      if (!existing || existing.status !== condition.status) return false
      if (condition.updatedBefore && existing.updatedAt.getTime() >= condition.updatedBefore.getTime()) return false
      table.replace({ ...existing, status: 'processing', updatedAt: now }, log)
      return true
    },
    async claimNew(event, staleBefore) {
      const existing = recorded(event)
      if (!existing) return { claimed: true, event: table.insert({ ...event }, log) }
      if (existing.status !== 'processing' || existing.updatedAt.getTime() >= staleBefore.getTime()) return { claimed: false, existing }
      return { claimed: true, event: table.replace({ ...existing, status: 'processing', updatedAt: event.updatedAt }, log) }
    },
    async claimWaiting(projectId, id, now) {
      const existing = inProject(table.get(id), projectId)
      if (!existing || existing.status !== 'waiting') return null
      const { waitingFor } = existing
      const mark = waitingFor === null ? null : (state.providerLinks.get(linkKey({ projectId, provider: existing.provider, kind: 'woken', externalId: waitingFor }))?.data.mark ?? null)
      table.replace({ ...existing, status: 'processing', updatedAt: now }, log)
      return { waitingFor, mark }
    },
    async saveOutcome(projectId, id, patch, links) {
      return { event: patchRow(table, projectId, id, patch, log), links: saveLinks(links) }
    },
    async listWokenWaiting(projectId, provider, wokenBefore, limit) {
      const wokenAt = (event: ProviderEvent) => {
        const at = state.providerLinks.get(linkKey({ projectId, provider, kind: 'woken', externalId: event.waitingFor! }))?.data.at
        return at == null ? null : new Date(at).getTime()
      }
      return table
        .group('project', projectId)
        .filter((event) => event.provider === provider && event.status === 'waiting' && event.waitingFor !== null)
        .filter((event) => {
          const at = wokenAt(event)
          return at !== null && at >= event.updatedAt.getTime() && at < wokenBefore.getTime()
        })
        .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.id - b.id)
        .slice(0, limit)
    },
    async saveLinks(links) {
      return saveLinks(links)
    },
    async getLink(projectId, provider, kind, externalId) {
      return found(state.providerLinks.get(linkKey({ projectId, provider, kind, externalId })))
    },
  }
}
