// A local PayPal Payouts server implementing the documented endpoints the client uses: the OAuth2
// client-credentials token, POST /v1/payments/payouts (a sender_batch_id used before is refused
// with a link to the original batch, as PayPal does), GET /v1/payments/payouts/{payout_batch_id},
// and webhooks: deliver() posts a payout item event signed as PayPal signs (SHA256withRSA over
// transmission id|time|webhook id|CRC32 of the body), which POST /v1/notifications/verify-webhook-signature checks.
import { createSign, createVerify, generateKeyPairSync, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32 } from 'node:zlib'

export interface FakeItem {
  payoutItemId: string
  receiver: string
  value: string
  currency: string
  senderItemId: string
  transactionStatus: string
}

export interface FakeBatch {
  batchId: string
  senderBatchId: string
  items: FakeItem[]
}

export const CLIENT_ID = 'client-id-test'
export const CLIENT_SECRET = 'client-secret-test'
export const WEBHOOK_ID = '8PT597110X687430LKGECATA'

/** PayPal's event type for an item status. */
const EVENT_OF_STATUS: Record<string, string> = {
  SUCCESS: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED',
  UNCLAIMED: 'PAYMENT.PAYOUTS-ITEM.UNCLAIMED',
  RETURNED: 'PAYMENT.PAYOUTS-ITEM.RETURNED',
  FAILED: 'PAYMENT.PAYOUTS-ITEM.FAILED',
  BLOCKED: 'PAYMENT.PAYOUTS-ITEM.BLOCKED',
  DENIED: 'PAYMENT.PAYOUTS-ITEM.DENIED',
}

const signedMessage = (transmissionId: string, transmissionTime: string, webhookId: string, rawBody: string) =>
  `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(Buffer.from(rawBody, 'utf8'))}`

export async function startFakePayPal(options: { statusFor?: (receiver: string) => string; /** Each answer waits this long (a slow PayPal, so runs overlap). */ delayMs?: number } = {}) {
  const batches = new Map<string, FakeBatch>()
  const tokens = new Set<string>()
  const requests: Array<{ method: string; path: string }> = []
  let counter = 0
  /** When set, a create records the batch, calls this, and never answers (the caller dies meanwhile). */
  let holdCreate: (() => void) | null = null
  /** Creates answered 503 (PayPal unavailable) before any batch is made. */
  let unavailableCreates = 0
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 })

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  const readBody = async (req: IncomingMessage) => {
    let text = ''
    for await (const chunk of req) text += chunk
    return text
  }
  const batchJson = (batch: FakeBatch) => ({
    batch_header: {
      payout_batch_id: batch.batchId,
      batch_status: batch.items.every((item) => item.transactionStatus === 'PENDING') ? 'PENDING' : 'SUCCESS',
      sender_batch_header: { sender_batch_id: batch.senderBatchId },
    },
    items: batch.items.map((item) => ({
      payout_item_id: item.payoutItemId,
      transaction_status: item.transactionStatus,
      payout_batch_id: batch.batchId,
      payout_item: { recipient_type: 'EMAIL', amount: { value: item.value, currency: item.currency }, receiver: item.receiver, sender_item_id: item.senderItemId },
      ...(['FAILED', 'BLOCKED'].includes(item.transactionStatus) ? { errors: { name: 'RECEIVER_UNREGISTERED', message: 'Receiver is unregistered' } } : {}),
    })),
    links: [{ href: `${base()}/v1/payments/payouts/${batch.batchId}`, rel: 'self', method: 'GET' }],
  })

  const server = createServer(async (req, res) => {
    const path = new URL(req.url!, 'http://fake').pathname
    requests.push({ method: req.method!, path })
    const body = await readBody(req)
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs))
    if (req.method === 'POST' && path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`
      if (req.headers.authorization !== expected || body !== 'grant_type=client_credentials') {
        return send(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' })
      }
      const token = `A21AA${++counter}`
      tokens.add(token)
      return send(res, 200, { scope: 'https://uri.paypal.com/services/payments/payouts', access_token: token, token_type: 'Bearer', app_id: 'APP-80W284485P519543T', expires_in: 32400, nonce: 'n' })
    }
    if (!tokens.has(req.headers.authorization?.replace(/^Bearer /, '') ?? '')) {
      return send(res, 401, { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.' })
    }
    if (req.method === 'POST' && path === '/v1/payments/payouts' && unavailableCreates > 0) {
      unavailableCreates -= 1
      return send(res, 503, { name: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable.' })
    }
    if (req.method === 'POST' && path === '/v1/payments/payouts') {
      const request = JSON.parse(body) as {
        sender_batch_header?: { sender_batch_id?: string }
        items?: Array<{ receiver?: string; amount?: { value?: string; currency?: string }; sender_item_id?: string }>
      }
      const senderBatchId = request.sender_batch_header?.sender_batch_id
      const items = request.items ?? []
      if (!senderBatchId || items.length === 0 || items.some((item) => !item.receiver || !/^\d+\.\d{2}$/.test(item.amount?.value ?? '') || !item.amount?.currency)) {
        return send(res, 400, { name: 'VALIDATION_ERROR', message: 'Invalid request - see details' })
      }
      const existing = [...batches.values()].find((batch) => batch.senderBatchId === senderBatchId)
      if (existing) {
        return send(res, 400, {
          name: 'USER_BUSINESS_ERROR',
          message: 'User business error.',
          details: [{ field: 'SENDER_BATCH_ID', location: 'body', issue: `Batch with given sender_batch_id ${senderBatchId} already exists` }],
          links: [{ href: `${base()}/v1/payments/payouts/${existing.batchId}`, rel: 'self', method: 'GET' }],
        })
      }
      const batchId = `BATCH${++counter}`
      const batch: FakeBatch = {
        batchId,
        senderBatchId,
        items: items.map((item, index) => ({
          payoutItemId: `${batchId}ITEM${index}`,
          receiver: item.receiver!,
          value: item.amount!.value!,
          currency: item.amount!.currency!,
          senderItemId: item.sender_item_id ?? '',
          transactionStatus: options.statusFor?.(item.receiver!) ?? 'SUCCESS',
        })),
      }
      batches.set(batchId, batch)
      if (holdCreate) return holdCreate()
      return send(res, 201, { batch_header: { payout_batch_id: batchId, batch_status: 'PENDING', sender_batch_header: request.sender_batch_header }, links: batchJson(batch).links })
    }
    if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const request = JSON.parse(body) as Record<string, unknown>
      const required = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id']
      if (required.some((field) => typeof request[field] !== 'string') || typeof request.webhook_event !== 'object') {
        return send(res, 400, { name: 'VALIDATION_ERROR', message: 'Invalid request - see details' })
      }
      const field = (name: string) => request[name] as string
      const verifier = createVerify('RSA-SHA256').update(signedMessage(field('transmission_id'), field('transmission_time'), field('webhook_id'), JSON.stringify(request.webhook_event)))
      const genuine =
        field('auth_algo') === 'SHA256withRSA' && field('cert_url') === `${base()}/v1/notifications/certs/CERT-1` && field('webhook_id') === WEBHOOK_ID && verifier.verify(keys.publicKey, field('transmission_sig'), 'base64')
      return send(res, 200, { verification_status: genuine ? 'SUCCESS' : 'FAILURE' })
    }
    const match = /^\/v1\/payments\/payouts\/([^/]+)$/.exec(path)
    if (req.method === 'GET' && match) {
      const batch = batches.get(decodeURIComponent(match[1]!))
      if (!batch) return send(res, 404, { name: 'INVALID_RESOURCE_ID', message: 'Requested resource ID was not found.' })
      return send(res, 200, batchJson(batch))
    }
    send(res, 404, { name: 'NOT_FOUND', message: 'Not found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: base(),
    batches,
    requests,
    /** Sets every item paid to this receiver to a status (PayPal moving it on: UNCLAIMED, then RETURNED). */
    setStatus(receiver: string, status: string) {
      for (const batch of batches.values()) {
        batch.items = batch.items.map((item) => (item.receiver === receiver ? { ...item, transactionStatus: status } : item))
      }
    },
    /** PayPal's webhook event for the item paid to this receiver, at its current status (as documented for PAYMENT.PAYOUTS-ITEM.*). */
    itemEvent(receiver: string) {
      const batch = [...batches.values()].find((each) => each.items.some((item) => item.receiver === receiver))!
      const item = batch.items.find((each) => each.receiver === receiver)!
      const errors = ['FAILED', 'BLOCKED', 'DENIED'].includes(item.transactionStatus) ? { errors: { name: 'RECEIVER_UNREGISTERED', message: 'Receiver is unregistered' } } : {}
      return {
        id: `WH-${++counter}-${randomUUID()}`,
        event_version: '1.0',
        create_time: new Date().toISOString(),
        resource_type: 'payouts_item',
        event_type: EVENT_OF_STATUS[item.transactionStatus] ?? 'PAYMENT.PAYOUTS-ITEM.HELD',
        summary: `A payout item is ${item.transactionStatus.toLowerCase()}`,
        resource: {
          payout_item_id: item.payoutItemId,
          transaction_id: `TX${counter}`,
          transaction_status: item.transactionStatus,
          payout_batch_id: batch.batchId,
          payout_item_fee: { currency: item.currency, value: '0.25' },
          payout_item: { recipient_type: 'EMAIL', amount: { value: item.value, currency: item.currency }, receiver: item.receiver, sender_item_id: item.senderItemId },
          time_processed: new Date().toISOString(),
          ...errors,
          links: [{ href: `${base()}/v1/payments/payouts-item/${item.payoutItemId}`, rel: 'self', method: 'GET' }],
        },
        links: [{ href: `${base()}/v1/notifications/webhooks-events/WH-${counter}`, rel: 'self', method: 'GET' }],
      }
    },
    /**
     * Posts an event to a listener as PayPal does, signed for WEBHOOK_ID; `tamper` changes the body
     * after signing, `headers` replaces or (undefined) drops signature headers.
     */
    async deliver(url: string, event: object, options: { tamper?: (raw: string) => string; headers?: Record<string, string | undefined> } = {}) {
      const raw = JSON.stringify(event)
      const transmissionId = randomUUID()
      const transmissionTime = new Date().toISOString()
      const signature = createSign('RSA-SHA256').update(signedMessage(transmissionId, transmissionTime, WEBHOOK_ID, raw)).sign(keys.privateKey, 'base64')
      const headers: Record<string, string | undefined> = {
        'content-type': 'application/json',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-time': transmissionTime,
        'paypal-transmission-sig': signature,
        'paypal-cert-url': `${base()}/v1/notifications/certs/CERT-1`,
        'paypal-auth-algo': 'SHA256withRSA',
        ...options.headers,
      }
      const sent = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
      const response = await fetch(url, { method: 'POST', headers: sent, body: options.tamper ? options.tamper(raw) : raw })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    },
    /** The next `count` batch creates answer 503 and make nothing. */
    failNextCreates(count: number) {
      unavailableCreates = count
    },
    holdNextCreate(onCreated: () => void) {
      holdCreate = () => {
        holdCreate = null
        onCreated()
      }
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
