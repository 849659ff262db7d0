// The delivery log of a webhook endpoint in the alternative shape: camelCase records under
// data.deliveries / data.delivery.
import type { ProjectScope } from '../../core/program.js'
import type { Delivery } from '../../core/types.js'
import { findDelivery, retryDelivery } from '../find-delivery.js'
import { defined, defineRoute, page, pathId } from '../route.js'
import { listDeliveriesQuery } from '../schemas.js'
import { alternativeData, alternativeList } from '../shapes/alternative.js'
import { alternativeDelivery, alternativeDeliveryDetail } from '../shapes/deliveries.js'
import { alternativeWindow } from './paging.js'
import * as R from './response-schemas.js'

async function detail(api: ProjectScope, delivery: Delivery) {
  return alternativeData('delivery', alternativeDeliveryDetail(delivery, await api.webhooks.attempts(delivery.id)))
}

export const webhookDeliveryRoutes = [
  defineRoute({
    method: 'GET',
    path: '/webhooks/:webhookId/deliveries',
    scope: 'webhooks:read',
    summary: "List a webhook endpoint's deliveries, newest first",
    query: listDeliveriesQuery,
    responses: { 200: R.deliveryList },
    errors: [400, 404],
    async run({ api, params, query }) {
      const webhookId = pathId(params.webhookId, 'webhook')
      await api.webhooks.get(webhookId)
      const result = await api.webhooks.deliveries(defined({ ...alternativeWindow(query), endpointId: webhookId, status: query.status, eventType: query.event_type }))
      return { status: 200, body: alternativeList('deliveries', result.items.map(alternativeDelivery), page(result)) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/:webhookId/deliveries/:deliveryId',
    scope: 'webhooks:read',
    summary: 'Retrieve a delivery with its attempts',
    responses: { 200: R.deliveryResponse },
    errors: [400, 404],
    async run({ api, params }) {
      return { status: 200, body: await detail(api, await findDelivery(api, params)) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/:webhookId/deliveries/:deliveryId/retry',
    scope: 'webhooks:write',
    summary: 'Send a delivery again now (no body)',
    responses: { 202: R.deliveryResponse },
    errors: [400, 404, 409],
    async run({ api, params }) {
      return { status: 202, body: await detail(api, await retryDelivery(api, params)) }
    },
  }),
] as const
