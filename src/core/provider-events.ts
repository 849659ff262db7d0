// Reading the log of received payment-provider events (what each did, or why it did nothing).
import { listWindow } from './conflicts.js'
import type { ProjectContext } from './context.js'
import { NotFoundError } from './errors.js'
import { id, listProviderEventsInput, validate, type ListProviderEventsInput } from './schemas.js'
import type { ProviderEvent } from './types.js'

export type ProviderEventView = Omit<ProviderEvent, 'projectId' | 'mapped'>

export const providerEventView = ({ projectId: _projectId, mapped: _mapped, ...rest }: ProviderEvent): ProviderEventView => rest

export function providerEventsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx
  return {
    /** Newest first; filter by provider, status and reference (invoice, transaction, order id). */
    async list(input: ListProviderEventsInput = {}): Promise<{ items: ProviderEventView[]; total: number; limit: number; offset: number }> {
      const data = validate(listProviderEventsInput, input)
      const window = listWindow(data, 50, 100)
      const { limit: _limit, offset: _offset, ...filters } = data
      const page = await storage.providerEvents.list(projectId, { ...filters, ...window })
      return { items: page.items.map(providerEventView), total: page.total, ...window }
    },
    async get(eventRecordId: number): Promise<ProviderEventView> {
      const event = await storage.providerEvents.get(projectId, validate(id, eventRecordId, 'id'))
      if (!event) throw new NotFoundError('provider event not found', 'id')
      return providerEventView(event)
    },
  }
}
