// The delivery log of a webhook endpoint, for the route tables of both shapes: GET
// /webhooks/:webhookId/deliveries (newest first, paged), GET .../deliveries/:deliveryId (with its
// attempts) and POST .../deliveries/:deliveryId/retry. Each shape brings its paging and records.
// An endpoint or delivery of another project, or a delivery of another endpoint, is 404.
import type { ProjectScope } from '../core/program.js'
import type { Delivery, DeliveryAttempt } from '../core/types.js'
import { ConflictError, NotFoundError } from '../core/errors.js'
import { defined, defineRoute, page, pathId, type ResponseDef } from './route.js'
import { listDeliveriesQuery } from './schemas.js'
import type { ListPage } from './shapes/primary.js'

async function findDelivery(api: ProjectScope, params: Record<string, string>): Promise<Delivery> {
  const webhookId = pathId(params.webhookId, 'webhook')
  const deliveryId = pathId(params.deliveryId, 'delivery')
  await api.webhooks.get(webhookId)
  const delivery = await api.webhooks.delivery(deliveryId)
  if (delivery.endpointId !== webhookId) throw new NotFoundError('delivery not found', 'deliveryId')
  return delivery
}

/** Makes the named delivery due now; 409 while it is being sent. Returns it as it is afterwards. */
async function retryDelivery(api: ProjectScope, params: Record<string, string>): Promise<Delivery> {
  const delivery = await findDelivery(api, params)
  if (delivery.status === 'delivering') throw new ConflictError('the delivery is being sent right now; retry once this attempt is recorded', 'deliveryId')
  await api.webhooks.retry(delivery.id)
  return api.webhooks.delivery(delivery.id)
}

/** How one shape pages and writes the delivery log. */
export interface DeliveryLogShape<List extends ResponseDef, Detail extends ResponseDef> {
  listResponse: List
  detailResponse: Detail
  window(query: { limit?: number | undefined; offset?: number | undefined }): { limit?: number | undefined; offset?: number | undefined }
  list(deliveries: Delivery[], page: ListPage): unknown
  /** A delivery with its attempts, oldest first. */
  detail(delivery: Delivery, attempts: DeliveryAttempt[]): unknown
}

export function deliveryLogRoutes<List extends ResponseDef, Detail extends ResponseDef>(shape: DeliveryLogShape<List, Detail>) {
  const detail = async (api: ProjectScope, delivery: Delivery) => shape.detail(delivery, await api.webhooks.attempts(delivery.id))
  return [
    defineRoute({
      method: 'GET',
      path: '/webhooks/:webhookId/deliveries',
      scope: 'webhooks:read',
      summary: "List a webhook endpoint's deliveries, newest first",
      query: listDeliveriesQuery,
      responses: { 200: shape.listResponse },
      errors: [400, 404],
      async run({ api, params, query }) {
        const webhookId = pathId(params.webhookId, 'webhook')
        await api.webhooks.get(webhookId)
        const result = await api.webhooks.deliveries(defined({ ...shape.window(query), endpointId: webhookId, status: query.status, eventType: query.event_type }))
        return { status: 200, body: shape.list(result.items, page(result)) }
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/webhooks/:webhookId/deliveries/:deliveryId',
      scope: 'webhooks:read',
      summary: 'Retrieve a delivery with its attempts',
      responses: { 200: shape.detailResponse },
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
      responses: { 202: shape.detailResponse },
      errors: [400, 404, 409],
      async run({ api, params }) {
        return { status: 202, body: await detail(api, await retryDelivery(api, params)) }
      },
    }),
  ] as const
}
