// A local Stripe server for POST /v1/transfers as documented: Bearer secret key, form-encoded body,
// Idempotency-Key replays the first answer, an unknown destination is refused with 400. Reversing
// a transfer (POST /v1/transfers/{id}/reversals) returns the transfer.reversed event Stripe sends,
// which deliver() posts to a webhook endpoint signed as Stripe signs (Stripe-Signature: t=, v1=).
// Connect onboarding: POST /v1/accounts (Idempotency-Key replays) and POST /v1/account_links.
import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export const SECRET_KEY = 'sk_test_fake'
export const WEBHOOK_SECRET = 'whsec_fake_endpoint'

/** A Stripe-Signature header for a payload at a unix time, under a signing secret. */
export function stripeSignature(payload: string, timestamp: number, secret = WEBHOOK_SECRET): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`
}

export interface FakeTransfer {
  id: string
  amount: number
  currency: string
  destination: string
  metadata: Record<string, string>
  amountReversed: number
}

export async function startFakeStripe(options: { accounts: string[]; failNext?: number; now?: () => Date; /** Each answer waits this long (a slow Stripe, so runs overlap). */ delayMs?: number }) {
  const transfers: FakeTransfer[] = []
  const accountsCreated: Array<{ id: string; email: string; metadata: Record<string, string> }> = []
  const accountLinks: Array<{ account: string; returnUrl: string; refreshUrl: string }> = []
  /** The transfer.reversed events of the reversals made, oldest first. */
  const reversedEvents: Array<NonNullable<ReturnType<typeof reverse>>> = []
  const answers = new Map<string, { status: number; body: unknown }>()
  let failNext = options.failNext ?? 0
  let holdTransfer: (() => void) | null = null
  let transferRequests = 0
  let events = 0
  const now = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000)
  const transferJson = (transfer: FakeTransfer) => ({
    object: 'transfer',
    id: transfer.id,
    amount: transfer.amount,
    currency: transfer.currency,
    destination: transfer.destination,
    metadata: transfer.metadata,
    amount_reversed: transfer.amountReversed,
    reversed: transfer.amountReversed === transfer.amount,
  })
  /** Reverses (part of) a transfer and returns the transfer.reversed event Stripe would send. */
  const reverse = (id: string, amount?: number) => {
    const transfer = transfers.find((each) => each.id === id)
    if (!transfer) return null
    transfer.amountReversed = Math.min(transfer.amount, transfer.amountReversed + (amount ?? transfer.amount - transfer.amountReversed))
    return { id: `evt_${++events}`, object: 'event', api_version: '2025-03-31.basil', created: now(), livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type: 'transfer.reversed', data: { object: transferJson(transfer) } }
  }
  const server = createServer(async (req, res) => {
    let text = ''
    for await (const chunk of req) text += chunk
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs))
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
    if (req.method === 'POST' && (req.url === '/v1/accounts' || req.url === '/v1/account_links')) {
      const form = new URLSearchParams(text)
      const key = req.headers['idempotency-key']
      const replay = typeof key === 'string' ? answers.get(key) : undefined
      if (replay) return send(replay.status, replay.body)
      if (req.url === '/v1/accounts') {
        const id = `acct_${1000 + accountsCreated.length + 1}`
        accountsCreated.push({ id, email: form.get('email') ?? '', metadata: Object.fromEntries([...form].filter(([name]) => name.startsWith('metadata['))) })
        options.accounts.push(id)
        const answer = { status: 200, body: { object: 'account', id, type: form.get('type'), email: form.get('email'), charges_enabled: false, payouts_enabled: false, details_submitted: false } }
        if (typeof key === 'string') answers.set(key, answer)
        return send(answer.status, answer.body)
      }
      const account = form.get('account') ?? ''
      if (!options.accounts.includes(account)) return send(400, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such account: '${account}'`, param: 'account' } })
      if (form.get('type') !== 'account_onboarding' || !form.get('return_url') || !form.get('refresh_url')) return send(400, { error: { type: 'invalid_request_error', message: 'Missing required param: type, return_url or refresh_url.' } })
      accountLinks.push({ account, returnUrl: form.get('return_url')!, refreshUrl: form.get('refresh_url')! })
      return send(200, { object: 'account_link', created: now(), expires_at: now() + 300, url: `https://connect.stripe.com/setup/e/${account}/link${accountLinks.length}` })
    }
    const reversal = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(req.url ?? '')
    if (req.method === 'POST' && reversal) {
      const amount = new URLSearchParams(text).get('amount')
      const event = reverse(decodeURIComponent(reversal[1]!), amount ? Number(amount) : undefined)
      if (!event) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such transfer: '${reversal[1]}'` } })
      reversedEvents.push(event)
      return send(200, { object: 'transfer_reversal', id: `trr_${reversedEvents.length}`, amount: event.data.object.amount_reversed, transfer: event.data.object.id })
    }
    if (req.method !== 'POST' || req.url !== '/v1/transfers') return send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } })
    if (failNext > 0) {
      failNext -= 1
      return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } })
    }
    const key = req.headers['idempotency-key']
    const replay = typeof key === 'string' ? answers.get(key) : undefined
    if (replay) return send(replay.status, replay.body)
    transferRequests += 1
    const form = new URLSearchParams(text)
    const metadata: Record<string, string> = {}
    for (const [name, value] of form) {
      const match = /^metadata\[(.+)\]$/.exec(name)
      if (match) metadata[match[1]!] = value
    }
    const destination = form.get('destination') ?? ''
    const answer = !options.accounts.includes(destination)
      ? { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such destination: '${destination}'`, param: 'destination' } } }
      : (() => {
          const transfer = { id: `tr_${transfers.length + 1}`, amount: Number(form.get('amount')), currency: form.get('currency') ?? '', destination, metadata, amountReversed: 0 }
          transfers.push(transfer)
          return { status: 200, body: { ...transferJson(transfer), transfer_group: form.get('transfer_group') } }
        })()
    if (typeof key === 'string') answers.set(key, answer)
    // Made and kept for its key, but never answered: the caller dies meanwhile.
    if (holdTransfer) {
      const held = holdTransfer
      holdTransfer = null
      return held()
    }
    send(answer.status, answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    transfers,
    /** Transfer requests that were not idempotent replays. */
    transferRequests: () => transferRequests,
    /** The next transfer is made and its answer kept for its Idempotency-Key, then this is called instead of answering. */
    holdNextTransfer(onMade: () => void) {
      holdTransfer = onMade
    },
    reversedEvents,
    accountsCreated,
    accountLinks,
    /** Posts an event to a webhook endpoint with its Stripe-Signature (`signature` replaces it; null sends none). */
    async deliver(url: string, event: object, options: { signature?: string | null; secret?: string; body?: (payload: string) => string } = {}) {
      const payload = JSON.stringify(event)
      const signature = options.signature !== undefined ? options.signature : stripeSignature(payload, now(), options.secret)
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature !== null ? { 'stripe-signature': signature } : {}) },
        body: options.body ? options.body(payload) : payload,
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
