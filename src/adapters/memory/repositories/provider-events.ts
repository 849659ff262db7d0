// The in-memory provider-event log and provider links.
import type { Insert, ProviderEventRepository } from '../../../core/storage.js'
import type { ProviderEvent, ProviderLink } from '../../../core/types.js'
import { found, inProject, patchRow, setMapEntry, type MemoryState } from '../state.js'
import { newestFirstPage, type UndoLog } from '../table.js'

const linkKey = (link: Pick<ProviderLink, 'projectId' | 'provider' | 'kind' | 'externalId'>) =>
  `${link.projectId}|${link.provider}|${link.kind}|${link.externalId}`

export function providerEventRepository(state: MemoryState, log: UndoLog): ProviderEventRepository {
  const table = state.providerEvents
  const saveLink = (link: ProviderLink) => setMapEntry(state.providerLinks, linkKey(link), Object.freeze({ ...link, data: { ...link.data } }), log)
  const recorded = (event: Insert<ProviderEvent>) => table.findUnique('provider_event', `${event.projectId}|${event.provider}|${event.eventId}`)
  const listWaiting = (projectId: string, provider: string, waitingFor: readonly string[]) => {
    const rows = new Set(waitingFor.flatMap((key) => table.group('waiting', `${projectId}|${provider}|${key}`)))
    return [...rows].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.id - b.id)
  }
  return {
    async insert(event) {
      const existing = recorded(event)
      if (existing) return { inserted: false, existing }
      return { inserted: true, event: table.insert({ ...event }, log) }
    },
    async record(event, links, waitingFor) {
      if (recorded(event)) return { inserted: false }
      const inserted = table.insert({ ...event }, log)
      for (const link of links) saveLink(link)
      return { inserted: true, event: inserted, waiting: listWaiting(event.projectId, event.provider, waitingFor) }
    },
    async get(projectId, id) {
      return found(inProject(table.get(id), projectId))
    },
    async update(projectId, id, patch) {
      return patchRow(table, projectId, id, patch, log)
    },
    async claim(projectId, id, condition, now) {
      const existing = inProject(table.get(id), projectId)
      if (!existing || existing.status !== condition.status) return false
      if (condition.updatedBefore && existing.updatedAt.getTime() >= condition.updatedBefore.getTime()) return false
      table.replace({ ...existing, status: 'processing', updatedAt: now }, log)
      return true
    },
    async list(projectId, filter) {
      return newestFirstPage(
        table.group('project', projectId),
        (row) =>
          (filter.provider === undefined || row.provider === filter.provider) &&
          (filter.status === undefined || row.status === filter.status) &&
          (filter.reference === undefined || row.reference === filter.reference),
        filter,
      )
    },
    async listWaiting(projectId, provider, waitingFor) {
      return listWaiting(projectId, provider, waitingFor)
    },
    async saveLink(link) {
      saveLink(link)
    },
    async saveLinks(links) {
      for (const link of links) saveLink(link)
    },
    async getLink(projectId, provider, kind, externalId) {
      return found(state.providerLinks.get(linkKey({ projectId, provider, kind, externalId })))
    },
  }
}
