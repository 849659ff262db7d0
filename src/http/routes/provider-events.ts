// GET /provider-events: the payment-provider events received (newest first) and what each did,
// filtered by provider, status and reference. Read with the conversions:read scope.
import * as v from 'valibot'
import type { ProviderEventView } from '../../core/provider-events.js'
import { providerEventStatus, providerName } from '../../core/schemas.js'
import type { RouteDef } from '../route.js'
import { alternativeWindow, defined, page, parseQuery } from '../route.js'
import { listQueryAlternative } from '../schemas.js'
import { alternativeList } from '../shapes/alternative.js'
import { primaryList } from '../shapes/primary.js'

export const listProviderEventsQuery = v.strictObject({
  ...listQueryAlternative.entries,
  provider: v.optional(providerName),
  status: v.optional(providerEventStatus),
  reference: v.optional(v.pipe(v.string(), v.maxLength(255, 'must be at most 255 characters'))),
})

export function primaryProviderEvent(view: ProviderEventView) {
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
  const { createdAt, ...rest } = view
  return { ...rest, receivedAt: createdAt }
}

export const providerEventRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/provider-events',
    scope: 'conversions:read',
    async handle({ api, query, alt }) {
      const q = parseQuery(listProviderEventsQuery, query)
      const filters = defined({ provider: q.provider, status: q.status, reference: q.reference })
      if (alt) {
        const result = await api.providerEvents.list({ ...alternativeWindow(q), ...filters })
        return { status: 200, body: alternativeList('providerEvents', result.items.map(alternativeProviderEvent), page(result)) }
      }
      const result = await api.providerEvents.list(defined({ limit: q.limit, offset: q.offset, ...filters }))
      return { status: 200, body: primaryList(result.items.map(primaryProviderEvent), page(result)) }
    },
  },
]
