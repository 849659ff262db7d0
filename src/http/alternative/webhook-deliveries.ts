// The delivery log of a webhook endpoint in the alternative shape: camelCase records under
// data.deliveries / data.delivery.
import { alternativeData, alternativeList } from '../shapes/alternative.js'
import { alternativeDelivery, alternativeDeliveryDetail } from '../shapes/deliveries.js'
import { deliveryLogRoutes } from '../webhook-deliveries.js'
import { alternativeWindow } from './paging.js'
import * as R from './response-schemas.js'

export const webhookDeliveryRoutes = deliveryLogRoutes({
  listResponse: R.deliveryList,
  detailResponse: R.deliveryResponse,
  window: alternativeWindow,
  list: (deliveries, page) => alternativeList('deliveries', deliveries.map(alternativeDelivery), page),
  detail: (delivery, attempts) => alternativeData('delivery', alternativeDeliveryDetail(delivery, attempts)),
})
