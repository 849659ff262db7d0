// A small PayPal Payouts API client over fetch (docs/payouts.md "PayPal Payouts"): an OAuth2
// client-credentials token, create a batch, read a batch. The base URL is configurable
// (https://api-m.paypal.com, https://api-m.sandbox.paypal.com, or a local server in tests).

export interface PayPalClientOptions {
  baseUrl: string
  clientId: string
  clientSecret: string
}

export interface PayPalItem {
  receiver: string
  /** Decimal string in the currency's units ("45.00"). */
  value: string
  currency: string
  senderItemId: string
  note?: string
}

export interface PayPalBatchItem {
  payoutItemId: string
  senderItemId: string | null
  transactionStatus: string
  /** The error PayPal gives for a failed item, if any. */
  error: string | null
}

export interface PayPalBatch {
  batchId: string
  batchStatus: string
  items: PayPalBatchItem[]
}

/** The PAYPAL-* headers a webhook delivery carries. */
export interface PayPalWebhookHeaders {
  transmissionId: string
  transmissionTime: string
  transmissionSig: string
  certUrl: string
  authAlgo: string
}

export class PayPalError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message)
    this.name = 'PayPalError'
  }
}

interface PayPalErrorBody {
  name?: string
  message?: string
  links?: Array<{ href?: string; rel?: string }>
}

const BATCH_PATH = '/v1/payments/payouts/'

export function payPalClient(options: PayPalClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '')
  let token: { value: string; expiresAt: number } | null = null

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value
    const response = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    })
    const body = (await response.json().catch(() => null)) as { access_token?: string; expires_in?: number } | null
    if (!response.ok || typeof body?.access_token !== 'string') throw new PayPalError(`PayPal refused the client credentials (HTTP ${response.status})`, response.status, body)
    // Renewed a minute before PayPal says it expires.
    token = { value: body.access_token, expiresAt: Date.now() + Math.max(0, (body.expires_in ?? 0) - 60) * 1000 }
    return token.value
  }

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json', accept: 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    return { status: response.status, body: await response.json().catch(() => null) }
  }

  function readBatch(body: unknown): PayPalBatch {
    const batch = body as {
      batch_header?: { payout_batch_id?: string; batch_status?: string }
      items?: Array<{ payout_item_id?: string; transaction_status?: string; payout_item?: { sender_item_id?: string }; errors?: { name?: string; message?: string } }>
    }
    const header = batch?.batch_header
    if (typeof header?.payout_batch_id !== 'string') throw new PayPalError('PayPal answered without a payout_batch_id', 200, body)
    return {
      batchId: header.payout_batch_id,
      batchStatus: header.batch_status ?? 'PENDING',
      items: (batch.items ?? []).map((item) => ({
        payoutItemId: String(item.payout_item_id ?? ''),
        senderItemId: item.payout_item?.sender_item_id ?? null,
        transactionStatus: item.transaction_status ?? 'PENDING',
        error: item.errors ? [item.errors.name, item.errors.message].filter(Boolean).join(': ') : null,
      })),
    }
  }

  /** The batch a duplicate-sender_batch_id refusal links to (PayPal includes a link to the original). */
  function linkedBatchId(body: unknown): string | null {
    for (const link of (body as PayPalErrorBody | null)?.links ?? []) {
      const at = link.href?.indexOf(BATCH_PATH) ?? -1
      if (at >= 0) return decodeURIComponent(link.href!.slice(at + BATCH_PATH.length).split(/[/?#]/)[0]!)
    }
    return null
  }

  return {
    /**
     * Creates a batch, or finds the batch created before with this sender_batch_id (PayPal refuses a
     * second one and links to the first): a retried run never pays twice.
     */
    async createBatch(senderBatchId: string, items: PayPalItem[], emailSubject?: string): Promise<{ batchId: string; batchStatus: string; duplicate: boolean }> {
      const answer = await call('POST', '/v1/payments/payouts', {
        sender_batch_header: { sender_batch_id: senderBatchId, recipient_type: 'EMAIL', ...(emailSubject ? { email_subject: emailSubject } : {}) },
        items: items.map((item) => ({
          recipient_type: 'EMAIL',
          receiver: item.receiver,
          amount: { value: item.value, currency: item.currency },
          sender_item_id: item.senderItemId,
          ...(item.note ? { note: item.note } : {}),
        })),
      })
      if (answer.status === 201 || answer.status === 200) {
        const { batchId, batchStatus } = readBatch(answer.body)
        return { batchId, batchStatus, duplicate: false }
      }
      const original = answer.status === 400 ? linkedBatchId(answer.body) : null
      if (original) return { batchId: original, batchStatus: 'PENDING', duplicate: true }
      const error = answer.body as PayPalErrorBody | null
      throw new PayPalError(`PayPal refused the batch (HTTP ${answer.status}${error?.name ? `, ${error.name}` : ''}${error?.message ? `: ${error.message}` : ''})`, answer.status, answer.body)
    },

    /**
     * Asks PayPal whether a webhook delivery is genuine (POST /v1/notifications/verify-webhook-signature):
     * the PAYPAL-* headers it came with, the webhook's id, and the body exactly as received (not
     * re-serialized: PayPal signs a CRC32 of the raw bytes).
     */
    async verifyWebhookSignature(headers: PayPalWebhookHeaders, webhookId: string, rawBody: string): Promise<boolean> {
      const fields = JSON.stringify({
        auth_algo: headers.authAlgo,
        cert_url: headers.certUrl,
        transmission_id: headers.transmissionId,
        transmission_sig: headers.transmissionSig,
        transmission_time: headers.transmissionTime,
        webhook_id: webhookId,
      })
      const response = await fetch(`${base}/v1/notifications/verify-webhook-signature`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json', accept: 'application/json' },
        body: `${fields.slice(0, -1)},"webhook_event":${rawBody}}`,
      })
      const body = (await response.json().catch(() => null)) as { verification_status?: string } | null
      if (response.status !== 200) throw new PayPalError(`PayPal did not verify the webhook signature (HTTP ${response.status})`, response.status, body)
      return body?.verification_status === 'SUCCESS'
    },

    async getBatch(batchId: string): Promise<PayPalBatch> {
      const answer = await call('GET', `${BATCH_PATH}${encodeURIComponent(batchId)}`)
      if (answer.status !== 200) throw new PayPalError(`PayPal did not return batch ${batchId} (HTTP ${answer.status})`, answer.status, answer.body)
      return readBatch(answer.body)
    },
  }
}

export type PayPalClient = ReturnType<typeof payPalClient>
