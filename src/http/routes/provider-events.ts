// GET /provider-events, once for every shape: the payment-provider events received (newest
// first) and what each did, filtered by provider, status and reference (conversions:read).
// POST /provider-events/{id}/replay applies one again (conversions:write), through the replayer
// handed to createHandler (`providerEvents`); without one it answers 501.
import { HttpError } from '../../server/errors.js'
import { defined, defineOperation, pathId } from '../route.js'
import { listProviderEventsQuery } from '../schemas.js'

export type { ProviderEventReplayer } from '../route-services.js'

export const listProviderEvents = defineOperation({
  id: 'getProviderEvents',
  method: 'GET',
  path: '/provider-events',
  scope: 'conversions:read',
  summary: 'List received payment-provider events and what each did, newest first',
  errors: [400],
  query: listProviderEventsQuery,
  run: ({ api, query, window }) =>
    api.providerEvents.list(defined({ ...window(query), provider: query.provider, status: query.status, reference: query.reference })),
})

export const replayProviderEvent = defineOperation({
  id: 'postProviderEventsIdReplay',
  method: 'POST',
  path: '/provider-events/:id/replay',
  scope: 'conversions:write',
  summary: 'Apply a received payment-provider event again (a waiting or ignored one); an applied event is not applied again',
  errors: [400, 404, 409, 501],
  async run({ providerEvents, params, projectId }) {
    const id = pathId(params.id, 'provider event')
    if (!providerEvents) throw new HttpError('not_implemented', 'this server replays no provider events: create the handler with providerEvents (createHandler(program, { providerEvents }))')
    return providerEvents.replay(id, projectId)
  },
})
