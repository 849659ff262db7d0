// The handler every provider shares: POST only, raw body verified by the provider's signature
// before anything is parsed (or decoded by the provider, verifying as it reads: a form an SDK
// parses, an event fetched back from the provider's API), the event mapped, handed to the
// program (providerEvents.receive) and answered 200 with what it did (409 while another request
// still applies it). A bad
// signature is 400 and writes nothing; so is a body that is not the provider's event. After an
// event, the program's sweep applies again, at most once a minute, the events a request left
// half-done. It serves fetch Requests, and node:http requests straight (its `node`), without
// building fetch objects. It keeps no state: the program holds it all. Its pipeline
// (server/pipeline.ts): observe → error answer → raw body → signature (server/signature-verification.ts),
// then the event.
import { BusyError } from '../core/model/errors.js'
import type { AffiliateProgram } from '../core/program.js'
import { fromFetchRequest, toFetchResponse, type IncomingRequest, type OutgoingResponse, type Respond } from '../server/bodies.js'
import { HttpError, storageErrorInfo } from '../server/errors.js'
import { serveNode, type NodeHandler } from '../server/node.js'
import { errorAnswer, pipeline, type Step } from '../server/pipeline.js'
import { observe } from '../server/observe.js'
import { signatureVerification, type RawBodyRequest } from '../server/signature-verification.js'
import type { Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import { MalformedEvent, storedMapping, type MappedEvent } from './mapping.js'

export interface ProviderHandlerOptions {
  /** The program whose project receives the events. */
  program: AffiliateProgram
  /**
   * No longer used: the program keeps the events in its own storage. Accepted so that existing
   * calls (`{ program, storage, ... }`) keep compiling.
   */
  storage?: unknown
  /** Id of the project the events belong to. @default the program's own project */
  project?: string
  /** Larger bodies are refused with 413. @default 1048576 (1 MiB) */
  maxBodyBytes?: number
  /** Called with unexpected errors (the provider gets a 500 and retries). */
  onError?: (error: unknown) => void
  /** Gets one line per request (method, route, status, duration in ms, request id; 5xx as errors). @default none */
  logger?: Logger
  /** Counts the requests and their latency (createMetrics). @default none */
  metrics?: Metrics
  /**
   * The route its log line and metrics name: where the host serves it (never the request's own
   * path, which may carry a secret). @default `/providers/<name>/events`
   */
  route?: string
}

/** A request header's value by its lower-case name, or null. */
export type HeaderOf = (name: string) => string | null

/** What a provider's `decode` makes of a request: its verified event body, or why it is refused (400, nothing written). */
export type Decoded = { body: unknown } | { refused: string }

/**
 * What a provider module supplies: its mapping, and either `verify` (a signature over a JSON
 * body: the body is then JSON.parse'd) or `decode` (it verifies and reads the body itself, and
 * may wait: a form body an SDK parses, an event fetched back from the provider's API). `decode`
 * throws MalformedEvent (or JSON.parse's SyntaxError) for a verified body that is not the
 * provider's event (400); any other error is unexpected (500, the provider retries).
 */
export type ProviderDefinition = {
  name: string
  map(body: unknown): MappedEvent
} & (
  | {
      /** Null when the signature is good, else why not. */
      verify(rawBody: string, header: HeaderOf, now: Date): string | null
      decode?: never
    }
  | {
      decode(rawBody: string, header: HeaderOf, now: Date): Promise<Decoded>
      verify?: never
    }
)

export type FetchHandler = (request: Request) => Promise<Response>

/** A provider's handler: a fetch handler (callable itself, and as `fetch`), and `node` for node:http and Express. */
export type ProviderHandler = FetchHandler & { fetch: FetchHandler; node: NodeHandler }

const json = (status: number, body: unknown, headers?: Record<string, string>): OutgoingResponse => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
})

const MAX_TIME = Date.UTC(10_000, 0, 1)

/** JSON escapes that may decode to a NUL or a lone surrogate (raw ones are not valid JSON strings). */
const RISKY_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/

/** No storage keeps lone UTF-16 surrogates or NUL characters; only a body escaping one needs the walk. */
const storableBody = (raw: string, body: unknown) => ((raw as string & { isWellFormed(): boolean }).isWellFormed() && !RISKY_ESCAPE.test(raw)) || storable(body)

function storable(value: unknown): boolean {
  if (typeof value === 'string') return (value as string & { isWellFormed(): boolean }).isWellFormed() && !value.includes('\u0000')
  if (Array.isArray(value)) return value.every(storable)
  if (value && typeof value === 'object') return Object.entries(value).every(([key, item]) => storable(key) && storable(item))
  return true
}

/** A provider's request as its steps learn it: the raw body, once read, and the body `decode` made of it. */
interface ProviderCall extends RawBodyRequest {
  incoming: IncomingRequest
  decoded?: { body: unknown }
}

export function providerHandler(provider: ProviderDefinition, options: ProviderHandlerOptions): ProviderHandler {
  const { program } = options
  const events = (options.project === undefined ? program : program.project(options.project)).providerEvents
  const maxBytes = options.maxBodyBytes ?? 1_048_576
  const report = (error: unknown) => options.onError?.(error)
  const route = options.route ?? `/providers/${provider.name}/events`

  /** POST only; the raw body read whole, up to its limit. */
  const rawBody: Step<ProviderCall, OutgoingResponse> = async (call, exchange, next) => {
    exchange.route = route
    if (call.method !== 'POST') return json(405, { error: 'use POST' }, { Allow: 'POST' })
    const declared = Number(call.header('content-length') ?? '0')
    if (declared > maxBytes) return json(413, { error: 'body too large' })
    try {
      call.raw = await call.incoming.text(maxBytes)
    } catch (error) {
      if (error instanceof HttpError && error.status === 413) return json(413, { error: 'body too large' })
      return json(400, { error: 'unreadable body' })
    }
    return next(call, exchange)
  }

  const invalid = (why: string) => json(400, { error: `invalid signature: ${why}` })
  const notTheProvidersEvent = (error: unknown) => {
    // Whatever the mapping cannot read is a body that is not the provider's event.
    if (!(error instanceof SyntaxError || error instanceof MalformedEvent)) report(error)
    return json(400, { error: `not a ${provider.name} event: ${(error as Error).message}` })
  }

  /** Authentication by the provider's signature over the raw body: a bad one is 400 and writes nothing. */
  const signed: Step<ProviderCall, OutgoingResponse> = provider.decode
    ? async (call, exchange, next) => {
        let decoded: Decoded
        try {
          decoded = await provider.decode(call.raw, call.header, program.clock.now())
        } catch (error) {
          if (error instanceof MalformedEvent || error instanceof SyntaxError) return notTheProvidersEvent(error)
          throw error
        }
        if ('refused' in decoded) return invalid(decoded.refused)
        call.decoded = decoded
        return next(call, exchange)
      }
    : signatureVerification<ProviderCall, OutgoingResponse>((call) => provider.verify(call.raw, call.header, program.clock.now()), invalid)

  /**
   * The database unavailable, or concurrent writes past their retries (BusyError): nothing stored;
   * a 503 with Retry-After, and the provider delivers it again. Anything else is reported; the
   * provider gets a 500 and retries.
   */
  function providerError(error: unknown): OutgoingResponse {
    const unavailable = storageErrorInfo(error)
    if (unavailable) return json(unavailable.status, { error: unavailable.message }, unavailable.headers)
    if (error instanceof BusyError) return json(503, { error: error.message }, { 'Retry-After': String(error.retryAfter) })
    report(error)
    return json(500, { error: 'internal error; the provider will retry' })
  }

  async function receive(call: ProviderCall): Promise<OutgoingResponse> {
    const { raw, decoded } = call
    let mapped: MappedEvent
    try {
      const body = decoded ? decoded.body : (JSON.parse(raw) as unknown)
      // A decoded body is the provider's objects (an SDK's, say): what is stored of it is checked.
      if (!decoded && !storableBody(raw, body)) throw new MalformedEvent('strings with lone surrogates or NUL characters')
      mapped = provider.map(body)
      if (decoded && !storable(storedMapping(mapped))) throw new MalformedEvent('strings with lone surrogates or NUL characters')
      const at = mapped.occurredAt.getTime()
      if (!(at >= 0 && at < MAX_TIME)) throw new MalformedEvent('its time is not a date between 1970 and 9999')
    } catch (error) {
      return notTheProvidersEvent(error)
    }
    const { event, duplicate } = await events.receive(provider.name, mapped)
    await events.sweep(provider.name, report).catch(report)
    // Another request is still applying it: a 200 would tell the provider it is done, yet that
    // request may fail. A 409 makes the provider deliver it again, answered from the record.
    if (duplicate && event.status === 'processing') {
      return json(409, { error: 'this event is being applied by another request; deliver it again later', event_id: event.eventId, status: event.status })
    }
    return json(200, {
      received: true,
      duplicate,
      event_id: event.eventId,
      status: event.status,
      detail: event.detail,
      conversion_id: event.conversionId,
    })
  }

  const run = pipeline<ProviderCall, OutgoingResponse>([observe('provider', options), errorAnswer(providerError), rawBody, signed], receive)
  const respond: Respond = (request) => run({ incoming: request, method: request.method, target: request.target, header: request.header, raw: '' })
  const fetch: FetchHandler = async (request) => toFetchResponse(await respond(fromFetchRequest(request)))
  return Object.assign(fetch, { fetch, node: serveNode(respond) })
}
