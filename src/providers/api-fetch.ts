// The calls a provider module makes to its provider's API: the fetch-back of a handler
// (Chargebee's events, Recurly's invoices), one GET, and a create (Stripe's promotion codes), one
// form-encoded POST with an Idempotency-Key. Either goes to the configured origin only, redirects
// not followed (the credentials never leave it), its answer read up to a size cap, within a
// timeout, tried once more when the connection fails before any answer (a kept-alive socket the
// server closed meanwhile; the POST's Idempotency-Key makes that safe). A GET's 404 is null: the
// API does not know what the webhook named (docs/providers.md "Chargebee", "Recurly").
import { BusyError } from '../core/model/errors.js'

export interface ApiGet {
  /** The provider, for messages ("Chargebee"). */
  provider: string
  url: URL
  headers: Record<string, string>
  /** @default 10000 */
  timeoutMs?: number
  /** @default 1048576 (1 MiB) */
  maxResponseBytes?: number
}

/**
 * Why the API could not answer: a BusyError, so the handler answers 503 with Retry-After 60 and
 * records nothing, and the provider delivers again.
 */
export class ProviderApiUnavailable extends BusyError {
  constructor(
    message: string,
    /** The connection failed before the API answered (not a timeout). */
    readonly beforeAnswer = false,
  ) {
    super(message, 60)
    this.name = 'ProviderApiUnavailable'
  }
}

/** The API's JSON answer, or null when it answers 404. The request is a GET: a connection that fails before any answer is tried once more. */
export function getJson(request: ApiGet): Promise<unknown> {
  return twice(() =>
    exchange(request, 'GET', { headers: request.headers }, async (response) => {
      if (response.status === 404) {
        await response.body?.cancel()
        return null
      }
      if (!response.ok) {
        await response.body?.cancel()
        throw new ProviderApiUnavailable(`${request.provider} answered ${response.status} to GET ${request.url.pathname}`)
      }
      return JSON.parse(await cappedText(response, request)) as unknown
    }),
  )
}

export interface ApiPost extends ApiGet {
  /** Form-encoded, as Stripe's API takes it. */
  form: URLSearchParams
  idempotencyKey: string
}

/** What the API answered a POST: its status and JSON body (null when not JSON); a 3xx is never followed. */
export interface ApiAnswer {
  status: number
  body: unknown
}

/**
 * POSTs the form and answers the API's status and JSON body, whatever the status: the caller
 * reads the provider's refusals. A redirect, a timeout, a connection failure or an answer over
 * the cap throws ProviderApiUnavailable (a BusyError: 503).
 */
export function postForm(request: ApiPost): Promise<ApiAnswer> {
  const init = {
    headers: { ...request.headers, 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': request.idempotencyKey },
    body: request.form.toString(),
  }
  return twice(() =>
    exchange(request, 'POST', init, async (response) => {
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel()
        throw new ProviderApiUnavailable(`${request.provider} answered ${response.status} to POST ${request.url.pathname}; redirects are not followed`)
      }
      const text = await cappedText(response, request)
      let body: unknown = null
      try {
        body = JSON.parse(text) as unknown
      } catch {
        body = null
      }
      return { status: response.status, body }
    }),
  )
}

/** Runs the call again once when its connection failed before any answer. */
async function twice<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (!(error instanceof ProviderApiUnavailable) || !error.beforeAnswer) throw error
    return call()
  }
}

/** One request within the timeout, no redirect followed; `read` makes the answer of the response. */
async function exchange<T>(request: ApiGet, method: 'GET' | 'POST', init: { headers: Record<string, string>; body?: string }, read: (response: Response) => Promise<T>): Promise<T> {
  const { provider, url } = request
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), request.timeoutMs ?? 10_000)
  let answered = false
  try {
    const response = await fetch(url, { method, ...init, redirect: 'manual', signal: controller.signal })
    answered = true
    return await read(response)
  } catch (error) {
    if (error instanceof ProviderApiUnavailable) throw error
    const timedOut = controller.signal.aborted
    throw new ProviderApiUnavailable(`cannot ${method} ${url.pathname} ${method === 'GET' ? 'from' : 'to'} ${provider}: ${timedOut ? 'timed out' : (error as Error).message}`, !timedOut && !answered)
  } finally {
    clearTimeout(timer)
  }
}

async function cappedText(response: Response, { maxResponseBytes = 1_048_576, provider }: ApiGet): Promise<string> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > maxResponseBytes) throw new ProviderApiUnavailable(`${provider}'s answer is larger than ${maxResponseBytes} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** HTTP Basic with an API key as the user name and no password, as Chargebee and Recurly take it. */
export const basicApiKey = (apiKey: string) => `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`
