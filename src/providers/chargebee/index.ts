// affiliate-kit/chargebee: a Fetch handler for Chargebee webhooks. Chargebee signs nothing: the
// request is checked for the webhook's HTTP Basic credentials (compared in constant time), then
// the event it names is fetched back from Chargebee's API and the API's copy is applied, so a
// forged body changes nothing and an event the API does not know is refused
// (docs/providers.md "Chargebee").
import { providerHandler, type HeaderOf, type ProviderHandler, type ProviderHandlerOptions } from '../handler.js'
import { isRecord, MalformedEvent, text } from '../mapping.js'
import { sameText } from '../signature.js'
import { fetchChargebeeEvent, type ChargebeeApiOptions } from './api.js'
import type { ChargebeeConfig } from './config.js'
import { CHARGEBEE_EVENTS, mapChargebeeEvent } from './map.js'

export interface ChargebeeHandlerOptions extends ProviderHandlerOptions, ChargebeeConfig {
  /** Longest wait for the fetch-back. @default 10000 */
  apiTimeoutMs?: number
}

/** Null when the request carries the webhook's Basic credentials, else why not. */
function basicAuthRefusal(header: HeaderOf, username: string, password: string): string | null {
  const authorization = header('authorization')
  if (!authorization?.startsWith('Basic ')) return 'missing Basic authorization'
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  const matched = colon >= 0 && sameText(decoded.slice(0, colon), username) && sameText(decoded.slice(colon + 1), password)
  return matched ? null : 'the Basic credentials do not match'
}

export function chargebeeHandler(options: ChargebeeHandlerOptions): ProviderHandler {
  const { apiKey, webhookUsername, webhookPassword } = options
  if (!apiKey || !webhookUsername || !webhookPassword) throw new Error('affiliate-kit: the Chargebee handler needs apiKey, webhookUsername and webhookPassword')
  const apiBase = options.apiBase ?? (options.site ? `https://${options.site}.chargebee.com` : null)
  if (apiBase === null) throw new Error('affiliate-kit: the Chargebee handler needs the site (acme of acme.chargebee.com) or apiBase')
  const api: ChargebeeApiOptions = { apiBase, apiKey, ...(options.apiTimeoutMs ? { timeoutMs: options.apiTimeoutMs } : {}) }
  return providerHandler(
    {
      name: 'chargebee',
      decode: async (raw, header) => {
        const refused = basicAuthRefusal(header, webhookUsername, webhookPassword)
        if (refused !== null) return { refused }
        const posted = JSON.parse(raw) as unknown
        const eventId = isRecord(posted) ? text(posted.id) : null
        if (eventId === null) throw new MalformedEvent('the event id is required')
        // An API that cannot answer is a 503 (ProviderApiUnavailable): Chargebee delivers it again.
        const event = await fetchChargebeeEvent(eventId, api)
        return event === null ? { refused: `Chargebee's API does not know event ${eventId}` } : { body: event }
      },
      map: (body) => mapChargebeeEvent(body),
    },
    options,
  )
}

export { CHARGEBEE_EVENTS, mapChargebeeEvent }
export type { ChargebeeConfig }
export type { FetchHandler, ProviderHandler, ProviderHandlerOptions } from '../handler.js'
export { providerEventReplay } from '../replay.js'
export type { ProviderEventReplay, ProviderEventReplayOptions, ReplayedEvent } from '../replay.js'
