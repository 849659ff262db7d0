// The fetch-back of a Chargebee event (GET /api/v2/events/{id}, HTTP Basic with the site's API key
// as the user): Chargebee signs no webhook, so the handler applies the event as Chargebee's API
// answers it, and a body naming an event the API does not know applies nothing. The request is
// the providers' capped, redirect-free GET (../api-fetch.ts; docs/providers.md "Chargebee").
import { basicApiKey, getJson } from '../api-fetch.js'

export interface ChargebeeApiOptions {
  /** The site's API origin: `https://<site>.chargebee.com`. */
  apiBase: string
  /** A read-only API key of the site. */
  apiKey: string
  /** @default 10000 */
  timeoutMs?: number
  /** @default 1048576 (1 MiB) */
  maxResponseBytes?: number
}

/** The event as Chargebee's API holds it, or null when the API does not know its id. */
export async function fetchChargebeeEvent(eventId: string, options: ChargebeeApiOptions): Promise<unknown> {
  const answer = await getJson({
    provider: 'Chargebee',
    url: new URL(`/api/v2/events/${encodeURIComponent(eventId)}`, options.apiBase),
    headers: { Authorization: basicApiKey(options.apiKey), Accept: 'application/json' },
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
  })
  return (answer as { event?: unknown } | null)?.event ?? null
}
