// affiliate-kit/polar: a Fetch handler for Polar webhooks, signed the Standard Webhooks way
// (./signature.ts). The body names no event id: the webhook-id header does (the same on each
// retry of one message), so the handler decodes the request into { webhookId, event }.
import { providerHandler, type ProviderHandler, type ProviderHandlerOptions } from '../handler.js'
import { secretList, type Secrets } from '../signature.js'
import { mapPolarEvent, POLAR_EVENTS, type PolarDelivery } from './map.js'
import { polarSigners, verifyPolarSignature } from './signature.js'

export interface PolarHandlerOptions extends ProviderHandlerOptions {
  /** The webhook endpoint's secret as Polar shows it, or several while one is being rotated. */
  webhookSecret: Secrets
  /** How far webhook-timestamp may be from now. @default 300 */
  toleranceSeconds?: number
}

export function polarHandler(options: PolarHandlerOptions): ProviderHandler {
  const signers = polarSigners(secretList(options.webhookSecret))
  const tolerance = options.toleranceSeconds ?? 300
  return providerHandler(
    {
      name: 'polar',
      decode: async (raw, header, now) => {
        const refused = verifyPolarSignature(signers, raw, header, now, tolerance)
        if (refused !== null) return { refused }
        const delivery: PolarDelivery = { webhookId: header('webhook-id')!, event: JSON.parse(raw) as unknown }
        return { body: delivery }
      },
      map: (body) => mapPolarEvent(body as PolarDelivery),
    },
    options,
  )
}

export { mapPolarEvent, POLAR_EVENTS }
export type { PolarDelivery }
export type { FetchHandler, ProviderHandler, ProviderHandlerOptions } from '../handler.js'
export { providerEventReplay } from '../replay.js'
export type { ProviderEventReplay, ProviderEventReplayOptions, ReplayedEvent } from '../replay.js'
