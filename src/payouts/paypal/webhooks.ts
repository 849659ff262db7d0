// PayPal's payout item webhooks (docs/payouts.md "PayPal webhooks"): PAYMENT.PAYOUTS-ITEM.SUCCEEDED,
// UNCLAIMED, RETURNED, FAILED, BLOCKED, DENIED... move the payout as a sync would, without
// waiting for the next run. Every delivery is checked with PayPal's verify-webhook-signature API
// before anything is read from it: a missing or wrong signature is 400 and changes nothing.
import type { AffiliateProgram } from '../../core/program.js'
import { fromFetchRequest, toFetchResponse, type IncomingRequest, type OutgoingResponse, type Respond } from '../../server/bodies.js'
import { serveNode, type NodeHandler } from '../../server/node.js'
import { pipeline } from '../../server/pipeline.js'
import { observe } from '../../server/observe.js'
import type { Logger } from '../../ops/logger.js'
import type { Metrics } from '../../ops/metrics.js'
import { PayPalError, type PayPalClient, type PayPalWebhookHeaders } from './client.js'
import { recordItemStatus, senderItemId } from './payouts.js'

export interface PayPalWebhookOptions {
  /** The program whose payouts the webhooks report (its own project). */
  program: AffiliateProgram
  /** The client the signatures are verified with (the same credentials as the payouts). */
  client: PayPalClient
  /** The webhook's id in PayPal's developer dashboard: PayPal signs each delivery for it. */
  webhookId: string
  /** @default 1048576 (1 MiB) */
  maxBodyBytes?: number
  /** Called with unexpected errors (PayPal gets a 500 and delivers again). */
  onError?: (error: unknown) => void
  /** Gets one line per request (method, route, status, duration in ms, request id; 5xx as errors). @default none */
  logger?: Logger
  /** Counts the requests and their latency (createMetrics). @default none */
  metrics?: Metrics
  /** The route its log line and metrics name: where the host serves it. @default '/paypal/webhooks' */
  route?: string
}

export type PayPalWebhookHandler = ((request: Request) => Promise<Response>) & { fetch: (request: Request) => Promise<Response>; node: NodeHandler }

const ITEM_EVENT = 'PAYMENT.PAYOUTS-ITEM.'

/** The item status each event type reports, when its resource does not say (PayPal's names). */
const STATUS_OF_EVENT: Record<string, string> = {
  SUCCEEDED: 'SUCCESS',
  UNCLAIMED: 'UNCLAIMED',
  RETURNED: 'RETURNED',
  FAILED: 'FAILED',
  BLOCKED: 'BLOCKED',
  DENIED: 'DENIED',
  CANCELED: 'CANCELED',
  REFUNDED: 'REFUNDED',
  HELD: 'ONHOLD',
}

const json = (status: number, body: unknown): OutgoingResponse => ({ status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

function signatureHeaders(request: IncomingRequest): PayPalWebhookHeaders | string {
  const read = (name: string) => request.header(name)?.trim() || null
  const headers = {
    transmissionId: read('paypal-transmission-id'),
    transmissionTime: read('paypal-transmission-time'),
    transmissionSig: read('paypal-transmission-sig'),
    certUrl: read('paypal-cert-url'),
    authAlgo: read('paypal-auth-algo'),
  }
  const missing = Object.entries(headers).find(([, value]) => value === null)
  if (missing) return `missing PAYPAL-${missing[0].replace(/[A-Z]/g, (letter) => `-${letter}`).toUpperCase()} header`
  return headers as PayPalWebhookHeaders
}

interface ItemResource {
  payout_item_id?: unknown
  payout_batch_id?: unknown
  transaction_status?: unknown
  payout_item?: { sender_item_id?: unknown }
  errors?: { name?: unknown; message?: unknown }
}

export function payPalWebhookHandler(options: PayPalWebhookOptions): PayPalWebhookHandler {
  const { program, client, webhookId } = options
  const maxBytes = options.maxBodyBytes ?? 1_048_576

  async function apply(event: { id?: unknown; event_type?: unknown; resource?: ItemResource }): Promise<OutgoingResponse> {
    const type = typeof event.event_type === 'string' ? event.event_type : ''
    const ignored = (why: string) => json(200, { received: true, status: 'ignored', detail: why })
    if (!type.startsWith(ITEM_EVENT)) return ignored(`${type || 'an event without event_type'} is not a payout item event`)
    const resource = event.resource ?? {}
    const itemId = resource.payout_item?.sender_item_id
    // Our items' sender_item_id is <project>-payout-<id> (see senderItemId); items sent before it
    // named the project were payout-<id>, and match only through the batch id recorded below.
    const match = typeof itemId === 'string' ? /^(?:(.+)-)?payout-(\d{1,15})$/.exec(itemId) : null
    if (!match || (match[1] !== undefined && itemId !== senderItemId(program.projectId, Number(match[2])))) {
      return ignored('the item is not one of this program\'s payouts (sender_item_id)')
    }
    const payoutId = Number(match[2])
    const sent = await program.providerPayouts.get(payoutId)
    // Only the batch recorded for the payout speaks for it: a payout whose batch PayPal never
    // confirmed (no batch id yet) is moved by sync, which sends or finds its own batch first.
    if (!sent || sent.provider !== 'paypal' || sent.reference === null || sent.reference !== resource.payout_batch_id) {
      return ignored(`payout ${payoutId} was not sent in PayPal batch ${String(resource.payout_batch_id)}`)
    }
    const transactionStatus = typeof resource.transaction_status === 'string' ? resource.transaction_status : STATUS_OF_EVENT[type.slice(ITEM_EVENT.length)]
    if (!transactionStatus) return ignored(`${type} carries no item status`)
    const errors = resource.errors
    const error = errors ? [errors.name, errors.message].filter((part) => typeof part === 'string' && part !== '').join(': ') || null : null
    const moved = await recordItemStatus(program, payoutId, { transactionStatus, error })
    return json(200, { received: true, status: 'applied', payout_id: String(payoutId), state: moved.state, item_status: moved.itemStatus })
  }

  async function respond(request: IncomingRequest): Promise<OutgoingResponse> {
    if (request.method !== 'POST') return { ...json(405, { error: 'use POST' }), headers: { 'Content-Type': 'application/json', Allow: 'POST' } }
    let raw: string
    try {
      raw = await request.text(maxBytes)
    } catch {
      return json(413, { error: `body too large or unreadable (at most ${maxBytes} bytes)` })
    }
    const headers = signatureHeaders(request)
    if (typeof headers === 'string') return json(400, { error: `invalid signature: ${headers}` })
    let event: unknown
    try {
      event = JSON.parse(raw)
    } catch {
      return json(400, { error: 'not a PayPal event: the body is not JSON' })
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) return json(400, { error: 'not a PayPal event: the body is not an object' })
    try {
      if (!(await client.verifyWebhookSignature(headers, webhookId, raw))) return json(400, { error: 'invalid signature: PayPal did not verify it' })
      return await apply(event)
    } catch (error) {
      // PayPal unreachable: it delivers the webhook again later.
      if (error instanceof PayPalError) return json(503, { error: error.message })
      options.onError?.(error)
      return json(500, { error: 'internal error; PayPal will deliver again' })
    }
  }

  const route = options.route ?? '/paypal/webhooks'
  const observed: Respond = pipeline<IncomingRequest, OutgoingResponse>([observe('provider', options)], (request, exchange) => {
    exchange.route = route
    return respond(request)
  })
  const fetch = async (request: Request) => toFetchResponse(await observed(fromFetchRequest(request)))
  return Object.assign(fetch, { fetch, node: serveNode(observed) })
}
