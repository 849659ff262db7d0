// The delivery log of a webhook endpoint in the primary shape: GET /webhooks/:webhookId/deliveries
// (newest first, paged), GET .../deliveries/:deliveryId (with its attempts) and POST
// .../deliveries/:deliveryId/retry.
import type { ProjectScope } from '../../core/program.js'
import type { Delivery } from '../../core/types.js'
import { findDelivery, retryDelivery } from '../find-delivery.js'
import { defined, defineRoute, page, pathId } from '../route.js'
import * as R from '../response-schemas.js'
import { listDeliveriesQuery } from '../schemas.js'
import { primaryDelivery, primaryDeliveryDetail } from '../shapes/deliveries.js'
import { primaryData, primaryList } from '../shapes/primary.js'

async function detail(api: ProjectScope, delivery: Delivery) {
  return primaryData(primaryDeliveryDetail(delivery, await api.webhooks.attempts(delivery.id)))
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
      const result = await api.webhooks.deliveries(defined({ limit: query.limit, offset: query.offset, endpointId: webhookId, status: query.status, eventType: query.event_type }))
      return { status: 200, body: primaryList(result.items.map(primaryDelivery), page(result)) }
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
