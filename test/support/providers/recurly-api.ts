// A local server speaking Recurly's API v3 as its documentation gives it: GET /invoices/{id or
// number-<n>}, /transactions/{id or uuid-<uuid>}, /accounts/{id or code-<code>} and
// /invoices/{id}/coupon_redemptions, HTTP Basic with the private API key as the user name and the
// versioned Accept header (application/vnd.recurly.v2021-02-25); an unknown id answers 404 with
// Recurly's error body, a wrong key 401. A test holds each resource before delivering the
// notification that names it, as Recurly holds what it notifies about. One server per test process.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export const RECURLY_API_KEY = 'recurly_private_key_scenario'

/** What a notification's delivery puts in Recurly's hands first. */
export interface RecurlyHolds {
  invoices?: unknown[]
  transactions?: unknown[]
  accounts?: unknown[]
  /** The coupon redemptions of each invoice, by the invoice's id. */
  couponRedemptions?: Record<string, unknown[]>
}

export interface RecurlyApiServer {
  /** The origin to configure as the handler's apiBase. */
  url: string
  hold(holds: RecurlyHolds): void
  /** How many requests asked for each path. */
  asked: Map<string, number>
}

const held = new Map<string, unknown>()
const asked = new Map<string, number>()
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

const server = createServer((request, response) => {
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'Content-Type': 'application/vnd.recurly.v2021-02-25+json; charset=utf-8' })
    response.end(JSON.stringify(body))
  }
  if (request.headers.authorization !== `Basic ${Buffer.from(`${RECURLY_API_KEY}:`).toString('base64')}`) {
    return reply(401, { error: { type: 'unauthorized', message: 'Invalid API key' } })
  }
  if (request.headers.accept !== 'application/vnd.recurly.v2021-02-25') {
    return reply(406, { error: { type: 'invalid_api_version', message: 'Unrecognized API version' } })
  }
  const path = decodeURIComponent((request.url ?? '').split('?')[0]!)
  asked.set(path, (asked.get(path) ?? 0) + 1)
  const resource = request.method === 'GET' ? held.get(path) : undefined
  if (resource === undefined) return reply(404, { error: { type: 'not_found', message: `Couldn't find the resource at ${path}`, params: [{ param: 'id' }] } })
  reply(200, resource)
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
// The test process may end with it listening.
server.unref()

/** Each resource under the paths the API finds it by. */
function hold(holds: RecurlyHolds): void {
  // A fuzzed event may hold anything: only what is shaped like resources is held.
  if (!isObject(holds)) return
  const put = (paths: Array<string | false>, resource: unknown) => paths.forEach((path) => path && held.set(path, resource))
  const each = (list: unknown) => (Array.isArray(list) ? list.filter(isObject) : [])
  for (const invoice of each(holds.invoices)) put([`/invoices/${String(invoice.id)}`, invoice.number != null && `/invoices/number-${String(invoice.number)}`], invoice)
  for (const transaction of each(holds.transactions)) put([`/transactions/${String(transaction.id)}`, transaction.uuid != null && `/transactions/uuid-${String(transaction.uuid)}`], transaction)
  for (const account of each(holds.accounts)) put([`/accounts/${String(account.id)}`, account.code != null && `/accounts/code-${String(account.code)}`], account)
  for (const [invoiceId, redemptions] of Object.entries(isObject(holds.couponRedemptions) ? holds.couponRedemptions : {})) {
    held.set(`/invoices/${invoiceId}/coupon_redemptions`, { object: 'list', has_more: false, next: null, data: Array.isArray(redemptions) ? redemptions : [] })
  }
}

export const recurlyApiServer: RecurlyApiServer = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hold, asked }
