// GET /provider-events in both shapes: the payment-provider events received (newest first) and
// what each did, filtered by provider, status and reference. Read with the conversions:read scope.
// POST /provider-events/{id}/replay applies one again (conversions:write), through the replayer
// handed to createHandler (`providerEvents`); without one it answers 501.
import type { ProviderEventView } from '../core/provider-events.js'
import { HttpError } from '../server/errors.js'
import { alternativeWindow } from './alternative/paging.js'
import * as AR from './alternative/response-schemas.js'
import * as R from './response-schemas.js'
import { defined, defineRoute, page, pathId, type RouteContext } from './route.js'
import { listProviderEventsQuery } from './schemas.js'
import { alternativeList } from './shapes/alternative.js'
import { primaryData, primaryList } from './shapes/primary.js'

/** What the replay route needs (providerEventReplay({ program, storage }) from any provider entry). */
export interface ProviderEventReplayer {
  replay(id: number, project?: string): Promise<{ replayed: boolean; message: string; event: ProviderEventView }>
}

const replayRoute = {
  method: 'POST',
  path: '/provider-events/:id/replay',
  scope: 'conversions:write',
  summary: 'Apply a received payment-provider event again (a waiting or ignored one); an applied event is not applied again',
  errors: [400, 404, 409, 501],
} as const

function replay({ providerEvents, params, projectId }: RouteContext) {
  const id = pathId(params.id, 'provider event')
  if (!providerEvents) throw new HttpError('not_implemented', 'this server replays no provider events: create the handler with providerEvents (createHandler(program, { providerEvents }))')
  return providerEvents.replay(id, projectId)
}

const route = { method: 'GET', path: '/provider-events', scope: 'conversions:read', summary: 'List received payment-provider events and what each did, newest first' } as const

function primaryProviderEvent(view: ProviderEventView) {
  return {
    id: view.id,
    provider: view.provider,
    event_id: view.eventId,
    type: view.type,
    reference: view.reference,
    status: view.status,
    detail: view.detail,
    conversion_id: view.conversionId,
    refund_amount: view.refundAmount,
    waiting_for: view.waitingFor,
    occurred_at: view.occurredAt.toISOString(),
    received_at: view.createdAt.toISOString(),
    updated_at: view.updatedAt.toISOString(),
  }
}

function alternativeProviderEvent(view: ProviderEventView) {
  return {
    id: view.id,
    provider: view.provider,
    eventId: view.eventId,
    type: view.type,
    reference: view.reference,
    status: view.status,
    detail: view.detail,
    conversionId: view.conversionId,
    refundAmount: view.refundAmount,
    waitingFor: view.waitingFor,
    occurredAt: view.occurredAt.toISOString(),
    receivedAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  }
}

export const primaryProviderEventRoutes = [
  defineRoute({
    ...route,
    query: listProviderEventsQuery,
    responses: { 200: R.providerEventList },
    errors: [400],
    async run({ api, query }) {
      const result = await api.providerEvents.list(defined({ limit: query.limit, offset: query.offset, provider: query.provider, status: query.status, reference: query.reference }))
      return { status: 200, body: primaryList(result.items.map(primaryProviderEvent), page(result)) }
    },
  }),
  defineRoute({
    ...replayRoute,
    responses: { 200: R.providerEventReplayResponse },
    async run(context) {
      const { replayed, message, event } = await replay(context)
      return { status: 200, body: primaryData({ replayed, message, event: primaryProviderEvent(event) }) }
    },
  }),
] as const

export const alternativeProviderEventRoutes = [
  defineRoute({
    ...route,
    query: listProviderEventsQuery,
    responses: { 200: AR.providerEventList },
    errors: [400],
    async run({ api, query }) {
      const result = await api.providerEvents.list(defined({ ...alternativeWindow(query), provider: query.provider, status: query.status, reference: query.reference }))
      return { status: 200, body: alternativeList('providerEvents', result.items.map(alternativeProviderEvent), page(result)) }
    },
  }),
  defineRoute({
    ...replayRoute,
    responses: { 200: AR.providerEventReplayResponse },
    async run(context) {
      const { replayed, message, event } = await replay(context)
      return { status: 200, body: { success: true, data: { replayed, message, providerEvent: alternativeProviderEvent(event) } } }
    },
  }),
] as const
