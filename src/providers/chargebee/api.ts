// The fetch-back of a Chargebee event (GET /api/v2/events/{id}, HTTP Basic with the site's API key
// as the user): Chargebee signs no webhook, so the handler applies the event as Chargebee's API
// answers it, and a body naming an event the API does not know applies nothing. One request to the
// configured origin, redirects not followed (the key never leaves it), an answer read up to a size
// cap, within a timeout (docs/providers.md "Chargebee").

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

/** Why the event could not be fetched back: the handler answers 503 and Chargebee retries. */
export class ChargebeeUnavailable extends Error {
  constructor(
    message: string,
    /** The connection failed before Chargebee answered (not a timeout). */
    readonly beforeAnswer = false,
  ) {
    super(message)
    this.name = 'ChargebeeUnavailable'
  }
}

/**
 * The event as Chargebee's API holds it, or null when the API does not know its id. A connection
 * that fails before any answer (a kept-alive socket the server closed meanwhile) is tried once
 * more: the request is a GET.
 */
export async function fetchChargebeeEvent(eventId: string, options: ChargebeeApiOptions): Promise<unknown> {
  try {
    return await fetchOnce(eventId, options)
  } catch (error) {
    if (!(error instanceof ChargebeeUnavailable) || !error.beforeAnswer) throw error
    return fetchOnce(eventId, options)
  }
}

async function fetchOnce(eventId: string, options: ChargebeeApiOptions): Promise<unknown> {
  const url = new URL(`/api/v2/events/${encodeURIComponent(eventId)}`, options.apiBase)
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10_000)
  let answered = false
  try {
    const response = await fetch(url, {
      headers: { Authorization: `Basic ${Buffer.from(`${options.apiKey}:`).toString('base64')}`, Accept: 'application/json' },
      redirect: 'manual',
      signal: controller.signal,
    })
    answered = true
    if (response.status === 404) return null
    if (!response.ok) throw new ChargebeeUnavailable(`Chargebee answered ${response.status} to the fetch-back of event ${eventId}`)
    const answer = JSON.parse(await cappedText(response, options.maxResponseBytes ?? 1_048_576)) as { event?: unknown }
    return answer.event ?? null
  } catch (error) {
    if (error instanceof ChargebeeUnavailable) throw error
    const timedOut = controller.signal.aborted
    throw new ChargebeeUnavailable(`cannot fetch event ${eventId} back from Chargebee: ${timedOut ? 'timed out' : (error as Error).message}`, !timedOut && !answered)
  } finally {
    clearTimeout(timer)
  }
}

async function cappedText(response: Response, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > maxBytes) throw new ChargebeeUnavailable(`Chargebee's answer is larger than ${maxBytes} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}
