// The delivery log of a webhook endpoint in the primary shape: snake_case records, the core's
// paging defaults.
import { deliveryLogRoutes } from '../webhook-deliveries.js'
import * as R from '../response-schemas.js'
import { primaryDelivery, primaryDeliveryDetail } from '../shapes/deliveries.js'
import { primaryData, primaryList } from '../shapes/primary.js'

export const webhookDeliveryRoutes = deliveryLogRoutes({
  listResponse: R.deliveryList,
  detailResponse: R.deliveryResponse,
  window: (query) => ({ limit: query.limit, offset: query.offset }),
  list: (deliveries, page) => primaryList(deliveries.map(primaryDelivery), page),
  detail: (delivery, attempts) => primaryData(primaryDeliveryDetail(delivery, attempts)),
})
