// affiliate-kit/recurly: a Fetch handler for Recurly's JSON webhook notifications. Each is checked
// for its recurly-signature (./signature.ts), then what it names is read back from Recurly's API v3
// (./fetch-back.ts) and mapped as the API has it (./map.ts): amounts and lines never come from the
// posted body. An API that cannot be reached answers 503 and records nothing; Recurly delivers the
// notification again (docs/providers.md "Recurly").
import { providerHandler, type ProviderHandler, type ProviderHandlerOptions } from '../handler.js'
import { isRecord, MalformedEvent } from '../mapping.js'
import { secretList } from '../signature.js'
import { recurlyApi } from './api.js'
import { RECURLY_API_HOSTS, type RecurlyConfig } from './config.js'
import { fetchBack, type RecurlyDelivery } from './fetch-back.js'
import { mapRecurlyDelivery, RECURLY_EVENTS } from './map.js'
import { verifyRecurlySignature } from './signature.js'

export interface RecurlyHandlerOptions extends ProviderHandlerOptions, RecurlyConfig {
  /** Longest wait for each request of the fetch-back. @default 10000 */
  apiTimeoutMs?: number
}

export function recurlyHandler(options: RecurlyHandlerOptions): ProviderHandler {
  const secrets = secretList(options.webhookSecret)
  if (!options.apiKey) throw new Error('affiliate-kit: the Recurly handler needs apiKey (a private API key of the site)')
  const region = options.region ?? 'us'
  if (!(region in RECURLY_API_HOSTS)) throw new Error('affiliate-kit: the Recurly handler\'s region is "us" or "eu"')
  const tolerance = options.toleranceSeconds ?? 300
  const api = recurlyApi({ apiBase: options.apiBase ?? RECURLY_API_HOSTS[region], apiKey: options.apiKey, ...(options.apiTimeoutMs ? { timeoutMs: options.apiTimeoutMs } : {}) })
  return providerHandler(
    {
      name: 'recurly',
      decode: async (raw, header, now) => {
        const refused = verifyRecurlySignature(secrets, raw, header('recurly-signature'), now, tolerance)
        if (refused !== null) return { refused }
        const notification = JSON.parse(raw) as unknown
        if (!isRecord(notification)) throw new MalformedEvent('the notification must be an object')
        // An API that cannot answer is a 503 (ProviderApiUnavailable): Recurly delivers it again.
        return fetchBack(notification, api)
      },
      map: (body) => mapRecurlyDelivery(body as RecurlyDelivery),
    },
    options,
  )
}

export { mapRecurlyDelivery, RECURLY_EVENTS, verifyRecurlySignature }
export type { RecurlyConfig, RecurlyDelivery }
export type { FetchHandler, ProviderHandler, ProviderHandlerOptions } from '../handler.js'
export { providerEventReplay } from '../replay.js'
export type { ProviderEventReplay, ProviderEventReplayOptions, ReplayedEvent } from '../replay.js'
