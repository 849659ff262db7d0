// Recurly's API v3, as the handler reads it back (docs/providers.md "Recurly"): versioned JSON
// (Accept: application/vnd.recurly.v2021-02-25), HTTP Basic with the private API key as the user
// name, each request the providers' capped, redirect-free GET (../api-fetch.ts). An id the API
// does not know is null.
import { basicApiKey, getJson, type ApiGet } from '../api-fetch.js'
import { isRecord } from '../mapping.js'

export const RECURLY_API_VERSION = 'v2021-02-25'

export interface RecurlyApiOptions {
  /** The API's origin (https://v3.recurly.com, https://v3.eu.recurly.com). */
  apiBase: string
  apiKey: string
  /** @default 10000 */
  timeoutMs?: number
  /** @default 1048576 (1 MiB) */
  maxResponseBytes?: number
}

export interface RecurlyApi {
  /** GET /invoices/{invoice_id}: an id, or `number-<invoice number>`. */
  getInvoice(id: string): Promise<Record<string, unknown> | null>
  /** GET /transactions/{transaction_id}: an id, or `uuid-<uuid>`. */
  getTransaction(id: string): Promise<Record<string, unknown> | null>
  /** GET /accounts/{account_id}. */
  getAccount(id: string): Promise<Record<string, unknown> | null>
  /** GET /invoices/{invoice_id}/coupon_redemptions: the coupons that discounted the invoice (its first page). */
  listCouponRedemptions(invoiceId: string): Promise<unknown[] | null>
}

export function recurlyApi(options: RecurlyApiOptions): RecurlyApi {
  const get = async (path: string): Promise<Record<string, unknown> | null> => {
    const request: ApiGet = {
      provider: 'Recurly',
      url: new URL(path, options.apiBase),
      headers: { Authorization: basicApiKey(options.apiKey), Accept: `application/vnd.recurly.${RECURLY_API_VERSION}` },
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
    }
    const answer = await getJson(request)
    return isRecord(answer) ? answer : null
  }
  const at = (id: string) => encodeURIComponent(id)
  return {
    getInvoice: (id) => get(`/invoices/${at(id)}`),
    getTransaction: (id) => get(`/transactions/${at(id)}`),
    getAccount: (id) => get(`/accounts/${at(id)}`),
    listCouponRedemptions: async (invoiceId) => {
      const list = await get(`/invoices/${at(invoiceId)}/coupon_redemptions`)
      return list && Array.isArray(list.data) ? list.data : null
    },
  }
}
