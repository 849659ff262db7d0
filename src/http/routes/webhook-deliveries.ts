// The delivery log of a webhook endpoint, once for every shape: GET
// /webhooks/:webhookId/deliveries (newest first, paged), GET .../deliveries/:deliveryId (with its
// attempts) and POST .../deliveries/:deliveryId/retry. An endpoint or delivery of another
// project, or a delivery of another endpoint, is 404.
import type { ProjectScope } from '../../core/program.js'
import type { Delivery, DeliveryAttempt } from '../../core/model/types.js'
import { ConflictError, NotFoundError } from '../../core/model/errors.js'
import { defined, defineOperation, pathId } from '../route.js'
import { listDeliveriesQuery } from '../schemas.js'

/** A delivery with its attempts, oldest first. */
export interface DeliveryDetail {
  delivery: Delivery
  attempts: DeliveryAttempt[]
}

async function findDelivery(api: ProjectScope, params: Record<string, string>): Promise<Delivery> {
  const webhookId = pathId(params.webhookId, 'webhook')
  const deliveryId = pathId(params.deliveryId, 'delivery')
  await api.webhooks.get(webhookId)
  const delivery = await api.webhooks.delivery(deliveryId)
  if (delivery.endpointId !== webhookId) throw new NotFoundError('delivery not found', 'deliveryId')
  return delivery
}

async function withAttempts(api: ProjectScope, delivery: Delivery): Promise<DeliveryDetail> {
  return { delivery, attempts: await api.webhooks.attempts(delivery.id) }
}

export const listDeliveries = defineOperation({
  id: 'getWebhooksWebhookIdDeliveries',
  method: 'GET',
  path: '/webhooks/:webhookId/deliveries',
  scope: 'webhooks:read',
  summary: "List a webhook endpoint's deliveries, newest first",
  errors: [400, 404],
  query: listDeliveriesQuery,
  async run({ api, params, query, window }) {
    const webhookId = pathId(params.webhookId, 'webhook')
    await api.webhooks.get(webhookId)
    return api.webhooks.deliveries(defined({ ...window(query), endpointId: webhookId, status: query.status, eventType: query.event_type }))
  },
})

export const getDelivery = defineOperation({
  id: 'getWebhooksWebhookIdDeliveriesDeliveryId',
  method: 'GET',
  path: '/webhooks/:webhookId/deliveries/:deliveryId',
  scope: 'webhooks:read',
  summary: 'Retrieve a delivery with its attempts',
  errors: [400, 404],
  run: async ({ api, params }) => withAttempts(api, await findDelivery(api, params)),
})

/** Makes the named delivery due now; 409 while it is being sent. Answers it as it is afterwards. */
export const retryDelivery = defineOperation({
  id: 'postWebhooksWebhookIdDeliveriesDeliveryIdRetry',
  method: 'POST',
  path: '/webhooks/:webhookId/deliveries/:deliveryId/retry',
  scope: 'webhooks:write',
  summary: 'Send a delivery again now (no body)',
  errors: [400, 404, 409],
  status: 202,
  async run({ api, params }) {
    const delivery = await findDelivery(api, params)
    if (delivery.status === 'delivering') throw new ConflictError('the delivery is being sent right now; retry once this attempt is recorded', 'deliveryId')
    await api.webhooks.retry(delivery.id)
    return withAttempts(api, await api.webhooks.delivery(delivery.id))
  },
})
