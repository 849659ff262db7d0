// The delivery log of a webhook endpoint: GET /webhooks/:webhookId/deliveries (newest first,
// paged), GET .../deliveries/:deliveryId (with its attempts) and POST .../deliveries/:deliveryId/retry.
// An endpoint or delivery of another project, or a delivery of another endpoint, is 404.
import type { Delivery } from '../../core/types.js'
import { ConflictError, NotFoundError } from '../../core/errors.js'
import { alternativeWindow, defined, page, parseQuery, pathId, type RouteContext, type RouteDef } from '../route.js'
import { listDeliveriesQuery } from '../schemas.js'
import { alternativeData, alternativeList } from '../shapes/alternative.js'
import { alternativeDelivery, deliveryDetail, primaryDelivery } from '../shapes/deliveries.js'
import { primaryData, primaryList } from '../shapes/primary.js'

/** The endpoint's delivery named in the path; 404 when either is not this project's or they do not belong together. */
async function findDelivery({ api, params }: RouteContext): Promise<Delivery> {
  const webhookId = pathId(params.webhookId, 'webhook')
  const deliveryId = pathId(params.deliveryId, 'delivery')
  await api.webhooks.get(webhookId)
  const delivery = await api.webhooks.delivery(deliveryId)
  if (delivery.endpointId !== webhookId) throw new NotFoundError('delivery not found', 'deliveryId')
  return delivery
}

async function detail(ctx: RouteContext, delivery: Delivery): Promise<unknown> {
  const body = deliveryDetail(delivery, await ctx.api.webhooks.attempts(delivery.id), ctx.alt)
  return ctx.alt ? alternativeData('delivery', body) : primaryData(body)
}

export const webhookDeliveryRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/webhooks/:webhookId/deliveries',
    scope: 'webhooks:read',
    async handle({ api, params, query, alt }) {
      const webhookId = pathId(params.webhookId, 'webhook')
      const q = parseQuery(listDeliveriesQuery, query)
      await api.webhooks.get(webhookId)
      const window = alt ? alternativeWindow(q) : defined({ limit: q.limit, offset: q.offset })
      const result = await api.webhooks.deliveries(defined({ ...window, endpointId: webhookId, status: q.status, eventType: q.event_type }))
      return alt
        ? { status: 200, body: alternativeList('deliveries', result.items.map(alternativeDelivery), page(result)) }
        : { status: 200, body: primaryList(result.items.map(primaryDelivery), page(result)) }
    },
  },
  {
    method: 'GET',
    path: '/webhooks/:webhookId/deliveries/:deliveryId',
    scope: 'webhooks:read',
    async handle(ctx) {
      return { status: 200, body: await detail(ctx, await findDelivery(ctx)) }
    },
  },
  {
    method: 'POST',
    path: '/webhooks/:webhookId/deliveries/:deliveryId/retry',
    scope: 'webhooks:write',
    body: false,
    async handle(ctx) {
      const delivery = await findDelivery(ctx)
      if (delivery.status === 'delivering') throw new ConflictError('the delivery is being sent right now; retry once this attempt is recorded', 'deliveryId')
      await ctx.api.webhooks.retry(delivery.id)
      return { status: 202, body: await detail(ctx, await ctx.api.webhooks.delivery(delivery.id)) }
    },
  },
]
