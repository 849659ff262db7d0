// A local Stripe server for POST /v1/transfers as documented: Bearer secret key, form-encoded body,
// Idempotency-Key replays the first answer, an unknown destination is refused with 400.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export const SECRET_KEY = 'sk_test_fake'

export interface FakeTransfer {
  id: string
  amount: number
  currency: string
  destination: string
  metadata: Record<string, string>
}

export async function startFakeStripe(options: { accounts: string[]; failNext?: number }) {
  const transfers: FakeTransfer[] = []
  const answers = new Map<string, { status: number; body: unknown }>()
  let failNext = options.failNext ?? 0
  const server = createServer(async (req, res) => {
    let text = ''
    for await (const chunk of req) text += chunk
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
    if (req.method !== 'POST' || req.url !== '/v1/transfers') return send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } })
    if (failNext > 0) {
      failNext -= 1
      return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } })
    }
    const key = req.headers['idempotency-key']
    const replay = typeof key === 'string' ? answers.get(key) : undefined
    if (replay) return send(replay.status, replay.body)
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
          const transfer = { id: `tr_${transfers.length + 1}`, amount: Number(form.get('amount')), currency: form.get('currency') ?? '', destination, metadata }
          transfers.push(transfer)
          return { status: 200, body: { object: 'transfer', ...transfer, reversed: false, amount_reversed: 0, transfer_group: form.get('transfer_group') } }
        })()
    if (typeof key === 'string') answers.set(key, answer)
    send(answer.status, answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    transfers,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
