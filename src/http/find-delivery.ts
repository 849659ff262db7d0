// The delivery named by /webhooks/:webhookId/deliveries/:deliveryId, and its retry, for the routes
// of both shapes. An endpoint or delivery of another project, or a delivery of another endpoint, is 404.
import type { ProjectScope } from '../core/program.js'
import type { Delivery } from '../core/types.js'
import { ConflictError, NotFoundError } from '../core/errors.js'
import { pathId } from './route.js'

export async function findDelivery(api: ProjectScope, params: Record<string, string>): Promise<Delivery> {
  const webhookId = pathId(params.webhookId, 'webhook')
  const deliveryId = pathId(params.deliveryId, 'delivery')
  await api.webhooks.get(webhookId)
  const delivery = await api.webhooks.delivery(deliveryId)
  if (delivery.endpointId !== webhookId) throw new NotFoundError('delivery not found', 'deliveryId')
  return delivery
}

/** Makes the named delivery due now; 409 while it is being sent. Returns it as it is afterwards. */
export async function retryDelivery(api: ProjectScope, params: Record<string, string>): Promise<Delivery> {
  const delivery = await findDelivery(api, params)
  if (delivery.status === 'delivering') throw new ConflictError('the delivery is being sent right now; retry once this attempt is recorded', 'deliveryId')
  await api.webhooks.retry(delivery.id)
  return api.webhooks.delivery(delivery.id)
}
